/** The SQL of CampaignStore: constant text, values as $n parameters. */

export const LOCK_RECIPIENTS_BY_MESSAGE = `SELECT campaign_id, seq, status, message_id FROM campaign_recipients
        WHERE tenant_id = $2 AND message_id = ANY($1::text[]) ORDER BY message_id FOR UPDATE`;

export const RELEASE_UNCONFIRMED = `UPDATE campaign_recipients SET status = 'pending', claimed_at = NULL
          WHERE campaign_id = $1 AND status = 'sending' AND claimed_at < $2
            AND NOT EXISTS (SELECT 1 FROM webhook_events WHERE processed_at IS NULL AND received_at > $3)`;

export const CLAIM = `UPDATE campaign_recipients r
            SET status = 'sending', claimed_at = $3,
                message_id = COALESCE(r.message_id, 'MSG' || replace(gen_random_uuid()::text, '-', ''))
          WHERE (r.campaign_id, r.seq) IN (
            SELECT campaign_id, seq FROM campaign_recipients
             WHERE campaign_id = $1 AND status = 'pending' ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING r.seq, r.phone, r.account_id, r."values", r.message_id`;

export const REFUSED = `UPDATE campaign_recipients SET status = $3, error = $4, claimed_at = NULL WHERE campaign_id = $1 AND seq = $2 AND status = 'sending'`;

export const LOCK_RECIPIENT = `SELECT status FROM campaign_recipients WHERE campaign_id = $1 AND seq = $2 FOR UPDATE`;

export const PROGRESS = `SELECT status, count(*)::int AS n FROM campaign_recipients WHERE campaign_id = $1 GROUP BY status`;
