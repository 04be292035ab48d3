import { MessageEntity } from './message.entity';

export const presentMessage = (m: MessageEntity) => ({
  message_id: m.id,
  direction: m.direction,
  waba_phone_number: m.linePhone,
  phone: m.phone,
  account_id: m.accountId ?? undefined,
  outbound_id: m.outboundId ?? undefined,
  flow_id: m.flowId ?? undefined,
  campaign_id: m.campaignId ?? undefined,
  text: m.text ?? undefined,
  status: m.status,
  error: m.error ?? undefined,
  creation_date: m.createdAt.toISOString(),
  update_date: m.updatedAt.toISOString(),
});
