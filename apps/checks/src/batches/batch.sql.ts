/** The SQL of BatchStore (batches, batch_rows, batch_files): constant text, values as $n parameters. */

export const CUSTOM_TYPE_EXISTS = `SELECT 1 AS ok FROM custom_types WHERE tenant_id = $1 AND country = $2 AND type = $3`;

export const MARK_FILE_UPLOADED = `UPDATE batches SET status = 'file_uploaded', file_uploaded_at = $2, file_size = $3, rows_total = $4, updated_at = $2 WHERE id = $1 AND status = 'created' RETURNING id`;

export const TAKE_UPLOAD_ATTEMPT = `UPDATE batches SET upload_attempts = upload_attempts + 1, updated_at = $2
          WHERE id = $1 AND status = 'created' AND upload_attempts < $3 RETURNING upload_attempts`;

export const BATCH_STATUS = `SELECT status FROM batches WHERE id = $1`;

export const START = `UPDATE batches SET status = 'processing', started_at = $3, updated_at = $3 WHERE id = $1 AND tenant_id = $2 AND status = ANY($4) RETURNING id`;

export const STOP = `UPDATE batches SET status = 'stopped', finished_at = $3, updated_at = $3 WHERE id = $1 AND tenant_id = $2 AND status IN ('created', 'file_uploaded', 'processing') RETURNING id`;

export const STOP_PENDING_ROWS = `UPDATE batch_rows SET status = 'stopped', updated_at = $2 WHERE batch_id = $1 AND status = 'pending'`;

export const PROGRESS = `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
              count(*) FILTER (WHERE status = 'created')::int AS created,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'stopped')::int AS stopped,
              count(*) FILTER (WHERE check_status = 'completed')::int AS completed,
              count(*) FILTER (WHERE check_status = 'error')::int AS error
         FROM (SELECT r.status, (SELECT c.status FROM checks c WHERE c.id = r.check_id) AS check_status
                 FROM batch_rows r WHERE r.batch_id = $1 AND r.tenant_id = $2) AS batch_row`;

export const REQUEST_REPORT = `UPDATE batches SET report_format = $3, report_status = 'generating', report_requested_at = $4, report = NULL, report_generated_at = NULL, updated_at = $4 WHERE id = $1 AND tenant_id = $2`;

export const REPORT_CONTENT = `SELECT report FROM batches WHERE id = $1 AND tenant_id = $2`;

export const FAIL = `UPDATE batches SET status = 'failed', error = $2, finished_at = $3, updated_at = $3 WHERE id = $1`;

export const INSERT_ROWS = `INSERT INTO batch_rows (batch_id, row_number, tenant_id, inputs, status, updated_at)
         SELECT $1, r.n, $2, r.inputs, 'pending', $5 FROM unnest($3::int[], $4::jsonb[]) AS r(n, inputs)
         ON CONFLICT (batch_id, row_number) DO NOTHING`;

export const SET_ROWS_TOTAL = `UPDATE batches SET rows_total = $2, file_uploaded_at = COALESCE(file_uploaded_at, $3), updated_at = $3 WHERE id = $1`;

export const COMPLETE_EMPTY = `UPDATE batches SET status = 'completed', finished_at = $2 WHERE id = $1`;

export const PENDING_ROWS = `SELECT row_number FROM batch_rows WHERE batch_id = $1 AND row_number BETWEEN $2 AND $3 AND status = 'pending' ORDER BY row_number`;

export const FAIL_PENDING_ROW = `UPDATE batch_rows SET status = 'failed', errors = $3::jsonb, updated_at = $4 WHERE batch_id = $1 AND row_number = $2 AND status = 'pending'`;

export const COMPLETE_IF_DONE = `UPDATE batches SET status = 'completed', finished_at = $2, updated_at = $2
        WHERE id = $1 AND status = 'processing' AND NOT EXISTS (SELECT 1 FROM batch_rows WHERE batch_id = $1 AND status = 'pending')`;

export const CLAIM_CHUNK = `UPDATE batch_rows SET status = 'created', updated_at = $4
          WHERE batch_id = $1 AND row_number BETWEEN $2 AND $3 AND status = 'pending'
            AND EXISTS (SELECT 1 FROM batches WHERE id = $1 AND status = 'processing')
          RETURNING row_number, inputs`;

export const SET_CHECK_IDS = `UPDATE batch_rows r SET check_id = v.id FROM unnest($2::int[], $3::text[]) AS v(n, id) WHERE r.batch_id = $1 AND r.row_number = v.n`;

export const FAIL_ROWS = `UPDATE batch_rows r SET status = 'failed', errors = v.errors FROM unnest($2::int[], $3::jsonb[]) AS v(n, errors) WHERE r.batch_id = $1 AND r.row_number = v.n`;

export const CLAIM_ROW = `UPDATE batch_rows SET status = 'created', updated_at = $3
        WHERE batch_id = $1 AND row_number = $2 AND status = 'pending'
          AND EXISTS (SELECT 1 FROM batches WHERE id = $1 AND status = 'processing')
        RETURNING inputs`;

export const SET_CHECK_ID = `UPDATE batch_rows SET check_id = $3 WHERE batch_id = $1 AND row_number = $2`;

export const SAVE_REPORT = `UPDATE batches SET report = $2, report_status = 'ready', report_generated_at = $3 WHERE id = $1 AND report_format = $4`;

export const REPORT_ROWS = `SELECT r.row_number, r.status, r.check_id, r.errors, c.status AS check_status, c.score, c.id_score, c.homonym_score
         FROM batch_rows r LEFT JOIN checks c ON c.id = r.check_id
        WHERE r.batch_id = $1 AND r.tenant_id = $2 ORDER BY r.row_number`;

export const SAVE_FILE = `INSERT INTO batch_files (batch_id, tenant_id, content, created_at) VALUES ($1, $2, $3, $4)`;

export const READ_FILE = `SELECT content FROM batch_files WHERE batch_id = $1 AND tenant_id = $2`;
