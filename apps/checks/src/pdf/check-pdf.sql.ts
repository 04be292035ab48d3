/** The SQL of CheckPdfStore (check_pdfs). */

export const SAVE_READY = `UPDATE check_pdfs SET status = 'ready', pdf_es = $4, pdf_en = $5, pdf_pt = $6, message = NULL, generated_at = $7
        WHERE tenant_id = $1 AND check_id = $2 AND requested_at = $3`;
