import { ProcessEntity, ProcessStep } from './process.entity';
import { processProofs } from './process.store';

const step = (over: Partial<ProcessStep>): ProcessStep => ({
  step_id: 'step-1',
  type: 'form',
  verification_id: 'VER1',
  status: 'success',
  expected_inputs: [],
  ...over,
});

describe('processProofs', () => {
  it('lists the validator steps that passed, e-mail and phone with the address their code went to, never a variable', () => {
    const p = {
      steps: [
        step({ type: 'form' }),
        step({ type: 'email', validation_id: 'VLD1', proven_value: 'ana@example.com', completed_date: '2026-01-01' }),
        step({ type: 'phone', validation_id: 'VLD2', completed_date: '2026-01-02' }),
        step({ type: 'document', validation_id: 'VLD3', completed_date: '2026-01-03' }),
        step({ type: 'face', validation_id: 'VLD4', status: 'failure' }),
        step({ type: 'face', status: 'success' }),
      ],
      variables: { email: 'typed@example.com', phone_number: '+573001112233' },
      finishedAt: new Date('2026-01-04T00:00:00Z'),
      updatedAt: new Date('2026-01-04T00:00:00Z'),
    } as unknown as ProcessEntity;
    expect(processProofs(p)).toEqual([
      { step_type: 'email', validation_id: 'VLD1', value: 'ana@example.com', proven_date: '2026-01-01' },
      { step_type: 'phone', validation_id: 'VLD2', proven_date: '2026-01-02' },
      { step_type: 'document', validation_id: 'VLD3', proven_date: '2026-01-03' },
    ]);
  });
});
