import { DOCUMENT_TYPES } from '@kyc/contracts';

import { ProcessStep } from './process.entity';
import { invalidStepInputs } from './step-inputs';

const documentStep = { step_id: 's1', type: 'document', verification_id: 'v1', status: 'pending' } as ProcessStep;
const fields = (country: string, documentType: string) =>
  invalidStepInputs(
    documentStep,
    new Map([
      ['country', country],
      ['document_type', documentType],
    ]),
  ).map((e) => e.field);

describe('invalidStepInputs: the document step', () => {
  it.each(DOCUMENT_TYPES.map((t) => [t]))('takes %s, a document type of the validations contract', (type) => {
    expect(fields('CO', type)).toEqual([]);
  });

  it('refuses a type and a country the validations service does not read, and ALL but for passports', () => {
    expect(fields('CO', 'selfie')).toEqual(['expected_inputs.document_type']);
    expect(fields('AR', 'passport')).toEqual(['expected_inputs.country']);
    expect(fields('ALL', 'national-id')).toEqual(['expected_inputs.country']);
    expect(fields('ALL', 'passport')).toEqual([]);
  });
});
