import { LinkDeliveryEntity } from './link-delivery.entity';

/** A link delivery on the wire (the link itself is never shown again: it carries a key). */
export const presentDelivery = (d: LinkDeliveryEntity) => ({
  delivery_id: d.id,
  flow_id: d.flowId,
  ...(d.processId ? { process_id: d.processId } : {}),
  message_channel: d.channel,
  lang: d.lang,
  recipient: d.recipient,
  ...(d.outboundId ? { outbound_id: d.outboundId } : {}),
  delivery_status: d.status,
  ...(d.error ? { error: d.error } : {}),
  ...(d.messageId ? { message_id: d.messageId } : {}),
  creation_date: d.createdAt.toISOString(),
  update_date: d.updatedAt.toISOString(),
});
