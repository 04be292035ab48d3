import { InboundEntity } from './inbound.entity';

export const presentInbound = (i: InboundEntity) => ({
  inbound_flow_id: i.id,
  flow_id: i.flowId,
  activation_message: i.activationMessage,
  waba_phone_number: i.linePhone,
  activation_link: i.activationLink,
  creation_date: i.createdAt.toISOString(),
  update_date: i.updatedAt.toISOString(),
});
