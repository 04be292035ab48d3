import { CampaignEntity } from './campaign.entity';

export interface CampaignProgress {
  pending: number;
  sending: number;
  sent: number;
  failed: number;
  cancelled: number;
}

export const presentCampaign = (c: CampaignEntity, p: CampaignProgress) => ({
  campaign_id: c.id,
  outbound_id: c.outboundId,
  flow_id: c.flowId ?? undefined,
  status: c.status,
  rate: c.rate,
  progress: {
    total: c.total,
    sent: p.sent,
    failed: p.failed,
    pending: p.pending + p.sending,
    cancelled: p.cancelled,
    percent: c.total ? Math.floor(((p.sent + p.failed + p.cancelled) * 100) / c.total) : 100,
  },
  creation_date: c.createdAt.toISOString(),
  finish_date: c.finishedAt?.toISOString(),
});
