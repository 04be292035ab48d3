import { DOCUMENT_COUNTRIES, DOCUMENT_TYPES } from '@kyc/contracts';

import { FlowStep } from '../flows/flow.entity';
import { StepInputDto } from './dto/process.dto';
import { ProcessStep } from './process.entity';
import { ProcessErrorCode, ProcessException } from './processes.exception';

/**
 * The rules of a step's input, without I/O: which step an input is for, the code of an e-mail or
 * phone step, the form's required fields, and the e-mail, phone and document inputs.
 */

/** The code the user received for an e-mail or phone step: six digits. */
export const CODE = /^\d{6}$/;

/** An e-mail or phone step whose code the user can now send (its validation exists, attempts remain). */
export const awaitsCode = (s: ProcessStep | undefined): boolean =>
  !!s &&
  (s.type === 'email' || s.type === 'phone') &&
  s.status === 'awaiting_validation' &&
  !!s.validation_id &&
  s.code_status !== 'accepted' &&
  s.attempts_left !== 0;

/** Throws 400 `wrong_step` unless the input names the step (its step_id, verification_id and type). */
export function requireInputFor(step: ProcessStep, dto: StepInputDto): void {
  const mismatch = (['step_id', 'verification_id', 'type'] as const).filter((f) => dto[f] !== step[f]);
  if (mismatch.length)
    throw new ProcessException(
      ProcessErrorCode.WrongStep,
      `the input is not for the current step ${step.step_id}`,
      mismatch.map((field) => ({ field, message: `${field} must be ${step[field]}` })),
    );
}

export function requiredFields(flowSteps: FlowStep[] | undefined, step: ProcessStep): string[] {
  const def = flowSteps?.find((s) => s.step_id === step.step_id);
  return def?.fields?.filter((f) => f.required).map((f) => f.name) ?? [];
}

/** Countries whose numbers the validations service's phone provider serves (by calling code). */
export const PHONE_CALLING_CODES = ['+593', '+57', '+56', '+52', '+55', '+58', '+51', '+54', '+1'];
const E164 = /^\+[1-9]\d{7,14}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The e-mail step's address, the phone step's number (E.164, a country the phone provider serves) and
 * the document step's country and type (those the validations service reads, from its contract; ALL for
 * passports only).
 */
export function invalidStepInputs(step: ProcessStep, given: Map<string, string>) {
  const errors: { field: string; message: string }[] = [];
  if (step.type === 'document') {
    const country = given.get('country')?.trim();
    const type = given.get('document_type')?.trim();
    if (country !== undefined && !(DOCUMENT_COUNTRIES as readonly string[]).includes(country))
      errors.push({
        field: 'expected_inputs.country',
        message: `country must be one of ${DOCUMENT_COUNTRIES.join(', ')}`,
      });
    if (type !== undefined && !(DOCUMENT_TYPES as readonly string[]).includes(type))
      errors.push({
        field: 'expected_inputs.document_type',
        message: `document_type must be one of ${DOCUMENT_TYPES.join(', ')}`,
      });
    else if (country === 'ALL' && type !== 'passport')
      errors.push({ field: 'expected_inputs.country', message: 'country ALL is only for document_type passport' });
  }
  const email = given.get('email')?.trim();
  if (step.type === 'email' && email !== undefined && (!EMAIL.test(email) || email.length > 254))
    errors.push({ field: 'expected_inputs.email', message: 'email must be an e-mail address' });
  const phone = given.get('phone_number')?.trim();
  if (step.type === 'phone' && phone !== undefined) {
    if (!E164.test(phone))
      errors.push({
        field: 'expected_inputs.phone_number',
        message: 'phone_number must be E.164 (+ and 8 to 15 digits)',
      });
    else if (!PHONE_CALLING_CODES.some((c) => phone.startsWith(c)))
      errors.push({
        field: 'expected_inputs.phone_number',
        message: 'phone_number must be of CO, CL, MX, BR, VE, PE, EC, AR or US (the countries codes are sent to)',
      });
  }
  return errors;
}
