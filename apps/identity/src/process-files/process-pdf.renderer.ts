import PDFDocument from 'pdfkit';

import { ProcessEntity } from '../processes/process.entity';

const MARGIN = 50;

/** `2031-03-10 12:00:00 UTC`. */
const stamp = (d: Date | string) => `${new Date(d).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** The built-in Helvetica writes Latin-1 (es/en/pt); anything else would come out garbled. */
const latin1 = (s: string) => s.replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, '?');

/**
 * The process PDF (pdfkit, A4, built-in Helvetica): the process (ids, status with its reasons and
 * any override), its steps with their progress, the validators' results, the collected variables
 * and the override history.
 */
export function renderProcessPdf(p: ProcessEntity, flowName: string | undefined, generatedAt: Date): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress: true,
    info: { Title: `Identity verification process ${p.id}`, CreationDate: generatedAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const heading = (text: string) => doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).text(latin1(text));
  const line = (label: string, value: string | null | undefined) => {
    if (value === null || value === undefined || value === '') return;
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(`${latin1(label)}: `, { continued: true });
    doc.font('Helvetica').text(latin1(value));
  };

  doc.font('Helvetica-Bold').fontSize(18).text('Identity verification process');
  doc
    .font('Helvetica')
    .fontSize(9)
    .text(`Generated ${stamp(generatedAt)}`)
    .moveDown(0.5);

  heading('Process');
  line('Process ID', p.id);
  line('Flow', flowName ? `${flowName} (${p.flowId})` : p.flowId);
  line('Account ID', p.accountId);
  line('Status', p.overrideStatus ?? p.status);
  if (p.overrideStatus) line('Status before override', p.status);
  line('Failure status', p.failureStatus);
  line('Declined reason', p.declinedReason);
  line('Expired reason', p.expiredReason);
  line('Phone number', p.phoneNumber);
  line('Created', stamp(p.createdAt));
  line('Finished', p.finishedAt ? stamp(p.finishedAt) : undefined);

  heading('Steps');
  p.steps.forEach((s, i) => {
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(latin1(`${i + 1}. ${s.step_id} (${s.type}${s.dynamic ? ', dynamic' : ''}): ${s.status}`));
    doc.font('Helvetica').fontSize(9);
    doc.text(latin1(`Verification ID: ${s.verification_id}`), { indent: 14 });
    if (s.expected_inputs.length) doc.text(latin1(`Expected inputs: ${s.expected_inputs.join(', ')}`), { indent: 14 });
    if (s.completed_date) doc.text(`Completed: ${stamp(s.completed_date)}`, { indent: 14 });
  });

  heading('Results');
  const validators = p.steps.filter((s) => s.type !== 'form');
  if (!validators.length) doc.font('Helvetica').fontSize(10).text('This flow has no validators.');
  for (const v of validators)
    line(
      `${v.step_id} (${v.type})`,
      `${v.status}${v.validation_id ? `, validation ${v.validation_id}` : ''}${v.declined_reason ? `, declined: ${v.declined_reason}` : ''}${v.expired_reason ? `, expired: ${v.expired_reason}` : ''}`,
    );

  heading('Variables');
  const vars = Object.entries(p.variables);
  if (!vars.length) doc.font('Helvetica').fontSize(10).text('No variables were collected.');
  for (const [name, value] of vars) line(name, value);

  if (p.overrideStatusHistory.length) {
    heading('Override history');
    for (const c of p.overrideStatusHistory)
      line(
        stamp(c.date),
        `${c.previous ?? p.status} -> ${c.override_status} by ${c.user_id}${c.reason ? ` (${c.reason})` : ''}`,
      );
  }
  doc.end();
  return done;
}
