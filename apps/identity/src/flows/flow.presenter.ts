import { FlowEntity } from './flow.entity';

export const presentFlow = (f: FlowEntity) => ({
  flow_id: f.id,
  name: f.name,
  steps: f.steps,
  redirect_url: f.redirectUrl,
  timeout_seconds: f.timeoutSeconds,
  creation_date: f.createdAt.toISOString(),
  update_date: f.updatedAt.toISOString(),
});
