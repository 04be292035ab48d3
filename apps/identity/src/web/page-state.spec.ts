import type { ProcessEntity, ProcessStep } from '../processes/process.entity';
import { PAGE_MESSAGES } from './i18n/messages';
import { pageState } from './page-state';
import { pageTemplate } from './templates/page.template';

const step = (over: Partial<ProcessStep>): ProcessStep => ({
  step_id: 'step-1',
  type: 'form',
  verification_id: 'VER1',
  status: 'pending',
  expected_inputs: [],
  ...over,
});

const processWith = (s: ProcessStep, over: Partial<ProcessEntity> = {}) =>
  ({
    id: 'IDP1',
    status: 'pending',
    overrideStatus: null,
    currentStep: 0,
    steps: [s],
    variables: { email: 'ana@example.com' },
    phoneNumber: null,
    declinedReason: null,
    expiredReason: null,
    failureStatus: null,
    updatedAt: new Date(0),
    ...over,
  }) as unknown as ProcessEntity;

const render = (p: ProcessEntity) =>
  pageTemplate({ lang: 'en', messages: PAGE_MESSAGES.en, state: pageState(p, null, null, PAGE_MESSAGES.en) }).value;

describe('the end user page states', () => {
  it.each([
    ['form', step({ expected_inputs: ['first_name'] }), 'name="first_name"'],
    ['email', step({ type: 'email', expected_inputs: ['email'] }), 'type="email"'],
    ['email code', step({ type: 'email', status: 'awaiting_validation', validation_id: 'V' }), 'one-time-code'],
    ['phone', step({ type: 'phone', expected_inputs: ['phone_number'] }), 'type="tel"'],
    ['document', step({ type: 'document', expected_inputs: ['country', 'document_type'] }), 'name="document_type"'],
    [
      'document upload',
      step({ type: 'document', status: 'awaiting_validation', instructions: { front_url: 'u', reverse_url: 'u' } }),
      'name="reverse"',
    ],
    ['face', step({ type: 'face' }), 'Continue'],
    ['face waiting', step({ type: 'face', status: 'awaiting_validation' }), 'data-poll'],
    [
      'face upload',
      step({
        type: 'face',
        status: 'awaiting_validation',
        validation_id: 'V',
        instructions: { file_upload_link: 'u' },
      }),
      'name="selfie"',
    ],
    [
      'face checking',
      step({
        type: 'face',
        status: 'awaiting_validation',
        instructions: { file_upload_link: 'u' },
        uploaded: ['selfie'],
      }),
      'Comparing your face',
    ],
  ])('%s', (_name, s, expected) => {
    expect(render(processWith(s))).toContain(expected);
  });

  it('escapes every value (labels, values, reasons)', () => {
    const html = render(
      processWith(step({ expected_inputs: ['x'] }), { variables: { x: '"><script>alert(1)</script>' } }),
    );
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('shows the result with the reason in words', () => {
    const html = render(
      processWith(step({}), { status: 'failure', declinedReason: 'similarity_threshold_not_passed' }),
    );
    expect(html).toContain('The face does not match the one on the document.');
  });

  it('lists the outcome of each step in words while waiting and on the result', () => {
    const document = step({ type: 'document', status: 'success' });
    const face = step({
      step_id: 'step-2',
      type: 'face',
      status: 'awaiting_validation',
      instructions: { file_upload_link: 'u' },
      uploaded: ['selfie'],
    });
    const waiting = render(processWith(document, { steps: [document, face], currentStep: 1 }));
    expect(waiting).toMatch(/<li data-state="done">Document read<\/li>\s*<\/ol>\s*<p class="waiting" data-poll/);
    expect(waiting).toContain('Comparing your face…');
    const failed = step({ type: 'document', status: 'failure', declined_reason: 'unreadable_image' });
    const result = render(processWith(failed, { status: 'failure', declinedReason: 'unreadable_image' }));
    expect(result).toContain('<li data-state="failed">The photo is blurry or cannot be read: take it again</li>');
  });

  it('a photo step sent back after a failed validation shows the capture again with the reason, in each language', () => {
    const retried = step({
      type: 'face',
      status: 'awaiting_validation',
      retry_of_id: 'VLD1',
      retry_reason: 'similarity_threshold_not_passed',
      retries_left: 0,
    });
    // While its new validation is created: the reason among the outcomes.
    expect(render(processWith(retried))).toContain(
      '<li data-state="failed">The face does not match the one on the document. Take the photo again.</li>',
    );
    const capture = processWith({ ...retried, validation_id: 'VLD2', instructions: { file_upload_link: 'u' } });
    expect(render(capture)).toMatch(
      /<p id="retry-reason" class="notice" role="alert">The face does not match the one on the document\. Take the photo again\.<\/p>\s*<form\s+id="upload-form"/,
    );
    const es = pageState(capture, null, null, PAGE_MESSAGES.es);
    expect(es).toMatchObject({
      kind: 'upload',
      alert: 'El rostro no coincide con el del documento. Toma la foto de nuevo.',
    });
    expect(pageState(capture, null, null, PAGE_MESSAGES.pt)).toMatchObject({
      alert: 'O rosto não corresponde ao do documento. Tire a foto de novo.',
    });
  });

  it('upload steps load the capture module in the mode of the step, with its texts', () => {
    const upload = (type: 'document' | 'face', instructions: Record<string, string>) =>
      render(processWith(step({ type, status: 'awaiting_validation', validation_id: 'V', instructions })));
    const doc = upload('document', { front_url: 'u' });
    expect(doc).toContain('<script src="/web/assets/capture.js" defer></script>');
    expect(doc).toContain('data-capture="document"');
    expect(doc).toContain('Place the document inside the frame.');
    const face = upload('face', { file_upload_link: 'u' });
    expect(face).toContain('data-capture="face"');
    expect(face).toContain('Place your face inside the oval.');
    expect(render(processWith(step({})))).not.toContain('capture.js');
  });
});
