import { ProcessEntity } from '../processes/process.entity';
import { walletValidations } from './wallet.service';

const process = (variables: Record<string, string>, status = 'success') =>
  ({
    id: 'IDP1',
    variables,
    steps: [
      { step_id: 'step-1', type: 'form', verification_id: 'VER1', status: 'success', expected_inputs: [] },
      {
        step_id: 'step-2',
        type: 'document',
        verification_id: 'VER2',
        status,
        expected_inputs: [],
        validation_id: 'VLD2',
      },
      {
        step_id: 'step-3',
        type: 'face',
        verification_id: 'VER3',
        status: 'success',
        expected_inputs: [],
        validation_id: 'VLD3',
      },
    ],
  }) as unknown as ProcessEntity;

describe('walletValidations', () => {
  it('writes each successful document step with the collected document data, idempotent per verification', () => {
    expect(walletValidations(process({ document_number: '123', document_type: 'national-id', country: 'CO' }))).toEqual(
      [
        {
          type: 'document',
          resource_id: 'VLD2',
          verified: true,
          process_id: 'IDP1:VER2',
          document: { document_number: '123', document_type: 'national-id', country: 'CO' },
        },
      ],
    );
  });

  it('writes nothing without a document number or with a type the wallet does not know, or a failed step', () => {
    expect(walletValidations(process({ document_type: 'national-id' }))).toEqual([]);
    expect(walletValidations(process({ document_number: '1', document_type: 'pep' }))).toEqual([]);
    expect(walletValidations(process({ document_number: '1', document_type: 'passport' }, 'failure'))).toEqual([]);
    expect(
      walletValidations(process({ document_number: '1', document_type: 'passport', country: 'ALL' }))[0].document,
    ).toEqual({
      document_number: '1',
      document_type: 'passport',
    });
  });
});
