import { SegmentEntity } from './segment.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A segment as the API shows it, with its last compute (status, progress, how it evaluated the rule). */
export const presentSegment = (s: SegmentEntity) => ({
  segment_id: s.id,
  name: s.name,
  description: s.description,
  rule: s.rule,
  members_count: s.membersCount,
  computed_at: iso(s.computedAt),
  compute: {
    compute_id: s.computeId,
    status: s.computeStatus,
    evaluation: s.computeEvaluation,
    fallback_reason: s.computeFallbackReason,
    processed: s.computeProcessed,
    total: s.computeTotal,
    matched: s.computeMatched,
    progress:
      s.computeTotal > 0
        ? Math.round((s.computeProcessed / s.computeTotal) * 1000) / 1000
        : s.computeStatus === 'completed'
          ? 1
          : 0,
    error: s.computeError,
    requested_at: iso(s.computeRequestedAt),
    started_at: iso(s.computeStartedAt),
    finished_at: iso(s.computeFinishedAt),
  },
  creation_date: s.createdAt.toISOString(),
  update_date: s.updatedAt.toISOString(),
});

export const segmentPath = (id: string) => `/v1/customers/segments/${id}`;
