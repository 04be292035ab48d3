import { LineEntity } from './line.entity';

export const presentLine = (l: LineEntity) => ({
  waba_line: l.phone,
  waba_phone_number: l.phone,
  phone_number_id: l.id,
  waba_id: l.wabaId,
  name: l.name ?? undefined,
  verified_name: l.verifiedName ?? undefined,
  quality_rating: l.quality,
  default_flow_id: l.defaultFlowId ?? undefined,
  creation_date: l.createdAt.toISOString(),
  update_date: l.updatedAt.toISOString(),
});
