import type { ApiKeyEntity } from '../api-keys/api-key.entity';
import type { FlowEntity } from '../flows/flow.entity';
import type { ProcessEntity, ProcessStep } from '../processes/process.entity';
import type { PageMessages } from './i18n/messages';
import type { PageField } from './templates/fields.template';
import type { PageState, StepOutcome, StepRef } from './templates/page.template';

/** Upload slots of the page and the instruction (validations' upload link) each one fills. */
export const UPLOAD_SLOTS = { front: 'front_url', reverse: 'reverse_url', selfie: 'file_upload_link' } as const;
export type UploadSlot = keyof typeof UPLOAD_SLOTS;

export const DOCUMENT_COUNTRIES = ['CO', 'CL', 'MX', 'PE', 'BR', 'CR', 'SV', 'ALL'] as const;
export const DOCUMENT_TYPES = ['national-id', 'foreign-id', 'passport', 'driver-license', 'identity-card'] as const;
export const REDIRECT_SECONDS = 5;

/** The slots of the step's validation still to upload (in the order the page asks for them). */
export function pendingSlots(step: ProcessStep): UploadSlot[] {
  return (Object.keys(UPLOAD_SLOTS) as UploadSlot[]).filter(
    (slot) => !!step.instructions?.[UPLOAD_SLOTS[slot]] && !(step.uploaded ?? []).includes(slot),
  );
}

/** Declined reasons a new photo may fix: the page adds "take it again". */
const PHOTO_REASONS = ['unreadable_image', 'missing_image', 'face_not_detected', 'document_face_not_detected'];

/** A step sent back to capture after its photo failed: why, in words ("… Take the photo again."). */
const retryAlert = (step: ProcessStep, m: PageMessages): string | undefined =>
  step.retry_reason ? m.outcome.retry(m.reasons[step.retry_reason] ?? m.result.failureText) : undefined;

/** The outcome of each finished step, in words (the waiting state lists them above what runs now; the result too). */
export function stepOutcomes(p: ProcessEntity, m: PageMessages): StepOutcome[] {
  const out: StepOutcome[] = [];
  for (const step of p.steps) {
    if (step.status === 'success') out.push({ state: 'done', text: m.outcome[step.type] });
    else if (step.status === 'awaiting_validation' && step.retry_reason && !step.instructions)
      out.push({ state: 'failed', text: retryAlert(step, m)! });
    else if (step.status === 'failure') {
      const reason = step.declined_reason ?? step.expired_reason;
      const words = (reason && m.reasons[reason]) ?? m.result.failureText;
      const again = reason && PHOTO_REASONS.includes(reason) ? `: ${m.outcome.retake}` : '';
      out.push({ state: 'failed', text: `${words.replace(/\.$/, '')}${again}` });
    }
  }
  return out;
}

const ref = (s: ProcessStep): StepRef => ({ step_id: s.step_id, verification_id: s.verification_id, type: s.type });

/** What the end user sees for the process as it is now (pure: the process, its flow and its key). */
export function pageState(
  p: ProcessEntity,
  flow: FlowEntity | null,
  key: ApiKeyEntity | null,
  m: PageMessages,
): PageState {
  const status = p.overrideStatus ?? p.status;
  if (status !== 'pending') {
    const reason = p.declinedReason ?? p.expiredReason ?? p.failureStatus ?? undefined;
    const redirectUrl = key?.redirectUrl ?? flow?.redirectUrl ?? undefined;
    return {
      kind: 'result',
      success: status === 'success',
      heading: status === 'success' ? m.result.successHeading : m.result.failureHeading,
      text: status === 'success' ? m.result.successText : m.result.failureText,
      ...(status === 'failure' && reason ? { reason: m.reasons[reason] ?? reason } : {}),
      ...(redirectUrl ? { redirectUrl } : {}),
      redirectSeconds: REDIRECT_SECONDS,
      outcomes: stepOutcomes(p, m),
    };
  }
  const step = p.steps[p.currentStep];
  if (!step) return { kind: 'waiting', heading: m.title, text: m.preparing };
  const awaiting = step.status === 'awaiting_validation';
  switch (step.type) {
    case 'form': {
      const def = flow?.steps.find((s) => s.step_id === step.step_id);
      const fields: PageField[] = step.expected_inputs.map((name) => {
        const f = def?.fields?.find((x) => x.name === name);
        return { name, label: f?.label ?? name, kind: 'text', required: f?.required ?? true, value: p.variables[name] };
      });
      return {
        kind: 'step',
        heading: m.form.heading,
        intro: m.form.intro,
        fields,
        submit: m.continue,
        step: ref(step),
      };
    }
    case 'email':
    case 'phone': {
      const t = step.type === 'email' ? m.email : m.phone;
      if (!awaiting) {
        const value =
          step.type === 'email' ? (p.variables.email ?? key?.emails?.[0]) : (p.variables.phone_number ?? p.phoneNumber);
        const field: PageField = {
          name: step.type === 'email' ? 'email' : 'phone_number',
          label: t.label,
          kind: step.type === 'email' ? 'email' : 'tel',
          required: true,
          ...(value ? { value } : {}),
          ...(step.type === 'phone' ? { hint: m.phone.hint } : {}),
        };
        return { kind: 'step', heading: t.heading, intro: t.intro, fields: [field], submit: m.send, step: ref(step) };
      }
      if (!step.validation_id) return { kind: 'waiting', heading: t.heading, text: m.preparing };
      if (step.code_status === 'accepted') return { kind: 'waiting', heading: t.codeHeading, text: m.code.checking };
      const to = step.type === 'email' ? p.variables.email : p.variables.phone_number;
      return {
        kind: 'step',
        heading: t.codeHeading,
        intro: t.codeIntro(to ?? ''),
        fields: [{ name: 'code', label: m.code.label, kind: 'code', required: true, hint: m.code.hint }],
        submit: m.continue,
        step: ref(step),
        ...(step.code_status === 'rejected' ? { alert: m.code.wrong(step.attempts_left ?? 0) } : {}),
      };
    }
    case 'document': {
      if (!awaiting) {
        // ALL (an access link's key) is for passports only: the page proposes CO.
        const country = p.variables.country ?? (key?.country && key.country !== 'ALL' ? key.country : 'CO');
        const fields: PageField[] = [
          {
            name: 'country',
            label: m.document.country,
            kind: 'select',
            required: true,
            value: country,
            options: DOCUMENT_COUNTRIES.map((c) => ({ value: c, label: c })),
          },
          {
            name: 'document_type',
            label: m.document.documentType,
            kind: 'select',
            required: true,
            value: p.variables.document_type ?? key?.documentType ?? 'national-id',
            options: DOCUMENT_TYPES.map((d) => ({ value: d, label: m.document.types[d] ?? d })),
          },
        ];
        return {
          kind: 'step',
          heading: m.document.heading,
          intro: m.document.intro,
          fields,
          submit: m.continue,
          step: ref(step),
        };
      }
      return uploadOrWait(p, step, m.document.uploadHeading, m.document.uploadIntro, m.document.checking, m);
    }
    case 'face':
      if (!awaiting)
        return {
          kind: 'step',
          heading: m.face.heading,
          intro: m.face.intro,
          fields: [],
          submit: m.continue,
          step: ref(step),
        };
      return uploadOrWait(p, step, m.face.uploadHeading, m.face.fileHint, m.face.checking, m);
  }
}

function uploadOrWait(
  p: ProcessEntity,
  step: ProcessStep,
  heading: string,
  intro: string,
  checking: string,
  m: PageMessages,
): PageState {
  if (!step.instructions) return { kind: 'waiting', heading, text: m.preparing, outcomes: stepOutcomes(p, m) };
  const slots = pendingSlots(step);
  if (!slots.length) return { kind: 'waiting', heading, text: checking, outcomes: stepOutcomes(p, m) };
  const label: Record<UploadSlot, string> = {
    front: m.document.front,
    reverse: m.document.reverse,
    selfie: m.face.selfie,
  };
  return {
    kind: 'upload',
    heading,
    intro,
    capture: step.type === 'face' ? 'face' : 'document',
    ...(step.retry_reason ? { alert: retryAlert(step, m) } : {}),
    fields: slots.map((slot) => ({
      name: slot,
      label: label[slot],
      kind: 'file',
      required: true,
      hint: slot === 'selfie' ? m.face.fileHint : m.document.fileHint,
    })),
    submit: m.send,
  };
}
