import PDFDocument from 'pdfkit';

export const MARGIN = 50;
const HEADER_Y = 22;
const CONTENT_TOP = 62;
const FOOTER_SPACE = 40;
const GRID = '#9e9e9e';
const HEAD_FILL = '#e0e0e0';

/** `2031-03-10 12:00:00 UTC`: the time zone is always written out. */
export const pdfTimestamp = (d: Date) => `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

export interface PdfColumn {
  title: string;
  width: number;
}

/**
 * The page layout of the service's reports (pdfkit, A4, built-in Helvetica: Latin-1 covers
 * es/en/pt): headings, grid tables whose header row never ends a page (it moves to the next page
 * with its first row, and is repeated when a table continues), and on `finish` a header and a footer
 * on every page (`header` text; `generated` text left, page x of y right).
 */
export class PdfReport {
  readonly doc: PDFKit.PDFDocument;
  readonly width: number;
  private readonly done: Promise<Buffer>;

  constructor(title: string, createdAt: Date) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: CONTENT_TOP, bottom: MARGIN + FOOTER_SPACE / 2, left: MARGIN, right: MARGIN },
      compress: true,
      bufferPages: true,
      info: { Title: title, CreationDate: createdAt },
    });
    const chunks: Buffer[] = [];
    this.done = new Promise<Buffer>((resolve, reject) => {
      this.doc.on('data', (c: Buffer) => chunks.push(c));
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
    });
    this.width = this.doc.page.width - 2 * MARGIN;
  }

  private bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensure(height: number): void {
    if (this.doc.y + height > this.bottom()) this.doc.addPage();
  }

  title(text: string): void {
    this.doc.font('Helvetica-Bold').fontSize(18).fillColor('#000000').text(text, MARGIN, CONTENT_TOP);
    this.doc.fontSize(9).moveDown(0.4);
  }

  heading(text: string): void {
    this.ensure(60);
    this.doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).fillColor('#000000').text(text, MARGIN).fontSize(9);
    this.doc.moveDown(0.3);
  }

  paragraph(text: string, font = 'Helvetica', size = 9): void {
    this.doc.font(font).fontSize(size).fillColor('#000000').text(text, MARGIN, this.doc.y, { width: this.width });
  }

  /** Columns whose widths are fractions of the page width. */
  columns(...fractions: [string, number][]): PdfColumn[] {
    return fractions.map(([title, f]) => ({ title, width: Math.floor(this.width * f) }));
  }

  /** A grid table: a shaded header row, then one row per entry; long cells wrap within their column. */
  table(columns: PdfColumn[], rows: string[][], fontSize = 9): void {
    const doc = this.doc;
    const pad = 4;
    doc.fontSize(fontSize);
    const rowHeight = (cells: string[], font: string) => {
      doc.font(font);
      const heights = cells.map((c, i) => doc.heightOfString(c || ' ', { width: columns[i].width - 2 * pad }));
      return Math.max(...heights) + 2 * pad;
    };
    const drawRow = (cells: string[], h: number, font: string, fill: string | null) => {
      let x = MARGIN;
      const y = doc.y;
      doc.lineWidth(0.5).strokeColor(GRID);
      cells.forEach((c, i) => {
        const w = columns[i].width;
        if (fill) doc.rect(x, y, w, h).fillAndStroke(fill, GRID);
        else doc.rect(x, y, w, h).stroke();
        if (c)
          doc
            .fillColor('#000000')
            .font(font)
            .text(c, x + pad, y + pad, { width: w - 2 * pad });
        x += w;
      });
      doc.x = MARGIN;
      doc.y = y + h;
    };
    const header = columns.map((c) => c.title);
    const headerHeight = rowHeight(header, 'Helvetica-Bold');
    const heights = rows.map((row) => rowHeight(row, 'Helvetica'));
    this.ensure(headerHeight + (heights[0] ?? 0));
    drawRow(header, headerHeight, 'Helvetica-Bold', HEAD_FILL);
    rows.forEach((row, i) => {
      if (doc.y + heights[i] > this.bottom()) {
        doc.addPage();
        drawRow(header, headerHeight, 'Helvetica-Bold', HEAD_FILL);
      }
      drawRow(row, heights[i], 'Helvetica', null);
    });
    doc.fontSize(9).moveDown(0.5);
  }

  /** Draws every page's header and footer and answers the file. `pageOf` has `{x}` and `{y}`. */
  finish(header: string, generated: string, pageOf: string): Promise<Buffer> {
    const doc = this.doc;
    const range = doc.bufferedPageRange();
    for (let p = range.start; p < range.start + range.count; p++) {
      doc.switchToPage(p);
      const saved = doc.page.margins.bottom;
      doc.page.margins.bottom = 0; // text below the bottom margin would otherwise open a new page
      const right = doc.page.width - MARGIN;
      doc.font('Helvetica').fontSize(8).fillColor('#424242');
      doc.text(header, MARGIN, HEADER_Y, { width: this.width, lineBreak: false });
      doc
        .moveTo(MARGIN, HEADER_Y + 14)
        .lineTo(right, HEADER_Y + 14)
        .lineWidth(0.5)
        .strokeColor(GRID)
        .stroke();
      const fy = doc.page.height - MARGIN + 8;
      doc
        .moveTo(MARGIN, fy - 6)
        .lineTo(right, fy - 6)
        .lineWidth(0.5)
        .strokeColor(GRID)
        .stroke();
      doc.text(generated, MARGIN, fy, { width: this.width / 2, lineBreak: false });
      const page = pageOf.replace('{x}', String(p - range.start + 1)).replace('{y}', String(range.count));
      doc.text(page, MARGIN + this.width / 2, fy, { width: this.width / 2, align: 'right', lineBreak: false });
      doc.page.margins.bottom = saved;
    }
    doc.end();
    return this.done;
  }
}
