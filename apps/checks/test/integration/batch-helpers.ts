import * as ExcelJS from 'exceljs';

/** An xlsx file (first worksheet) with these rows, built with exceljs. */
export async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('checks');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The rows of an xlsx file's first worksheet as text. */
export async function readXlsx(content: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content);
  const out: string[][] = [];
  workbook.worksheets[0].eachRow((row) =>
    out.push(
      Array.from((row.values as unknown[]).slice(1), (v) =>
        v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v as string | number),
      ),
    ),
  );
  return out;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** PUT a file to a file_upload_link (no API key: the link's signature authenticates it). */
export async function upload(link: string, content: Buffer | string, contentType = XLSX_TYPE) {
  const res = await fetch(link, { method: 'PUT', headers: { 'content-type': contentType }, body: content });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}
