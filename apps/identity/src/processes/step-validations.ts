import { Injectable } from '@nestjs/common';

import { attemptKey, ProcessEntity, ProcessStep } from './process.entity';
import { VALIDATION_TYPE_OF_STEP } from './process.store';
import { CreatedValidation, ValidationRefused, ValidationsClient } from './validations.client';

/** Countries the validations service sends phone codes to, by calling code (longest prefix first). */
const PHONE_COUNTRIES: [string, string][] = [
  ['+593', 'EC'],
  ['+57', 'CO'],
  ['+56', 'CL'],
  ['+52', 'MX'],
  ['+55', 'BR'],
  ['+58', 'VE'],
  ['+51', 'PE'],
  ['+54', 'AR'],
  ['+1', 'US'],
];
const PHONE_TYPES = ['home', 'office', 'recover'] as const;
/** How long the face step waits for the document's portrait to be read into the face enrollment. */
const FACE_ENROLLMENT_WAIT_MS = 90_000;

/** The step cannot get its validation (a refusal of the validations service, or no reference face). */
export class StepValidationUnavailable extends Error {
  constructor(
    readonly reason: string,
    readonly detail: unknown,
  ) {
    super(`the step's validation cannot be created: ${reason}`);
  }
}

/**
 * Creates, in the validations service, what a validator step needs, then its validation:
 * - e-mail and phone: an enrollment of the address or number the user gave (the account is the
 *   process's), then the OTP validation (the code goes by SMTP / the phone provider);
 * - face: the reference face is the portrait on the process's document: the document's front is
 *   read from its validation and enrolled, then the selfie's validation compares with it;
 * - document: the validation alone.
 * Every request carries an Idempotency-Key of the process's verification, so a retried job repeats nothing.
 */
@Injectable()
export class StepValidations {
  constructor(private readonly validations: ValidationsClient) {}

  async create(p: ProcessEntity, step: ProcessStep, settings?: Record<string, unknown>): Promise<CreatedValidation> {
    const type = VALIDATION_TYPE_OF_STEP[step.type];
    if (!type) throw new Error(`step ${step.step_id} has no validation`);
    const key = attemptKey(p, step);
    const common = {
      type,
      user_authorized: true,
      account_id: p.accountId,
      process_id: p.id,
      flow_id: p.flowId,
      ...(settings ? { validator_settings: settings } : {}),
      // A retry of the step's failed validation names it (validations checks allowed_retries and retry_ttl).
      ...(step.retry_of_id ? { retry_of_id: step.retry_of_id } : {}),
    };
    try {
      switch (step.type) {
        case 'email':
          await this.validations.enroll(p.tenantId, p.userId, `${key}:enroll`, {
            type,
            user_authorized: true,
            account_id: p.accountId,
            email: p.variables.email,
          });
          return await this.validations.create(p.tenantId, p.userId, key, {
            ...common,
            language: languageOf(p) === 'es' ? 'es' : 'en',
          });
        case 'phone': {
          const phoneType = await this.enrollPhone(p, key);
          return await this.validations.create(p.tenantId, p.userId, key, {
            ...common,
            phone_type: phoneType,
            phone_locale: { es: 'es', en: 'en', pt: 'pt-BR' }[languageOf(p)],
            verify_channel: 'sms',
          });
        }
        case 'face':
          // A retry compares with the face its first attempt enrolled; face retries need passive liveness.
          if (!step.retry_of_id) await this.enrollDocumentFace(p, key);
          return await this.validations.create(p.tenantId, p.userId, key, {
            ...common,
            ...(step.retry_of_id ? { subvalidations: ['similarity', 'passive_liveness'] } : {}),
          });
        default:
          return await this.validations.create(p.tenantId, p.userId, key, {
            ...common,
            country: p.variables.country ?? 'ALL',
            document_type: p.variables.document_type ?? 'national-id',
          });
      }
    } catch (err) {
      if (err instanceof ValidationRefused) throw new StepValidationUnavailable('validation_refused', err.body);
      throw err;
    }
  }

  private async enrollPhone(p: ProcessEntity, key: string): Promise<string> {
    const phone = p.variables.phone_number;
    const country = PHONE_COUNTRIES.find(([prefix]) => phone.startsWith(prefix))?.[1];
    for (const phoneType of PHONE_TYPES) {
      try {
        await this.validations.enroll(p.tenantId, p.userId, `${key}:enroll:${phoneType}`, {
          type: 'phone-verification',
          user_authorized: true,
          account_id: p.accountId,
          phone_number: phone,
          phone_type: phoneType,
          ...(country ? { country } : {}),
        });
        return phoneType;
      } catch (err) {
        // One number per phone type: an account verified before uses the next free type.
        if (!(err instanceof ValidationRefused) || err.status !== 409) throw err;
      }
    }
    throw new StepValidationUnavailable('validation_refused', 'every phone type of the account is enrolled');
  }

  /** Enrolls the face on the front of the process's document (its validation's media) and waits until it is read. */
  private async enrollDocumentFace(p: ProcessEntity, key: string): Promise<void> {
    const document = [...p.steps]
      .reverse()
      .find((s) => s.type === 'document' && s.validation_id && s.status === 'success');
    if (!document) return; // no document in this process: the account's own face enrollment is the reference
    const front = await this.validations.documentFront(p.tenantId, p.userId, document.validation_id!);
    if (!front) throw new StepValidationUnavailable('document_face_not_detected', 'the document has no front image');
    const enrollment = await this.validations.enroll(p.tenantId, p.userId, `${key}:enroll-face`, {
      type: 'face-recognition',
      user_authorized: true,
      account_id: p.accountId,
    });
    const refused = enrollment.file_upload_link
      ? await this.validations.upload(enrollment.file_upload_link, front.toString('base64'))
      : undefined;
    // 409: a retried job uploaded it already.
    if (refused && refused.status !== 409) throw new StepValidationUnavailable('document_face_not_detected', refused);
    const deadline = Date.now() + FACE_ENROLLMENT_WAIT_MS;
    for (;;) {
      const e = await this.validations.enrollment(p.tenantId, p.userId, enrollment.enrollment_id);
      if (e.face_enrolled) return;
      if (e.status === 'failure') throw new StepValidationUnavailable('document_face_not_detected', e);
      if (Date.now() > deadline) throw new Error(`the face enrollment ${enrollment.enrollment_id} is not read yet`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** The end user's language: the page records it in the process's device information (es when unknown). */
export function languageOf(p: ProcessEntity): 'es' | 'en' | 'pt' {
  try {
    const language = (JSON.parse(p.deviceInfo ?? '{}') as { language?: unknown }).language;
    return language === 'en' || language === 'pt' ? language : 'es';
  } catch {
    return 'es';
  }
}
