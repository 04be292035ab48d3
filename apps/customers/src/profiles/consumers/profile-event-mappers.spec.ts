import { TOPICS } from '@kyc/contracts';

import { PROFILE_EVENT_MAPPERS, PROFILE_TOPICS } from './profile-event-mappers';
import { identifierKeys } from './profile-facts';

const envelope = (type: string, payload: unknown) => ({
  id: 'e1',
  type,
  version: 1,
  tenant_id: 't1',
  occurred_at: '2026-01-02T03:04:05.000Z',
  aggregate_id: 'a1',
  payload,
});

describe('profile event mappers', () => {
  it('subscribes only to mapped topics that exist in libs/contracts', () => {
    const known = new Set<string>(Object.values(TOPICS));
    expect(PROFILE_TOPICS).toContain(TOPICS.checkFinished);
    expect(PROFILE_TOPICS.every((t) => known.has(t))).toBe(true);
    expect(Object.keys(PROFILE_EVENT_MAPPERS)).toEqual(
      expect.arrayContaining([
        'identity.process.finished',
        'engagement.chat.closed',
        'validations.enrollment.finished',
      ]),
    );
  });

  it('maps a finished check to a check transaction identified by its document (national_id → national-id)', () => {
    const fact = PROFILE_EVENT_MAPPERS[TOPICS.checkFinished](
      envelope(TOPICS.checkFinished, {
        check: {
          check_id: 'CHK1',
          country: 'CO',
          type: 'person',
          status: 'completed',
          score: 0.7,
          inputs: { national_id: '1.020.304', first_name: 'Ana', last_name: 'Perez', date_of_birth: '1990-01-01' },
          update_date: '2026-01-01T00:00:00.000Z',
        },
      }),
    )!;
    expect(fact).toMatchObject({ product: 'check', sourceId: 'CHK1', status: 'completed', score: 0.7 });
    expect(fact.basicInfo).toMatchObject({ name: 'Ana Perez', country: 'CO', birthday: '1990-01-01' });
    expect(identifierKeys(fact.identifiers)).toEqual([{ key: 'document:CO:national-id:1020304', kind: 'document' }]);
  });

  it('maps a validation with document, phone and e-mail to the same document key as a check', () => {
    const fact = PROFILE_EVENT_MAPPERS['validations.validation.finished'](
      envelope('validations.validation.finished', {
        validation_id: 'VLD1',
        validation_status: 'failure',
        document_number: '1020304',
        country: 'co',
        document_type: 'national-id',
        phone_number: '+57 300 1234567',
        email: 'Ana@Example.com',
      }),
    )!;
    expect(fact).toMatchObject({ product: 'validation', sourceId: 'VLD1', status: 'failure' });
    expect(identifierKeys(fact.identifiers).map((k) => k.key)).toEqual([
      'document:CO:national-id:1020304',
      'phone:+573001234567',
      'email:ana@example.com',
    ]);
  });

  it('ignores events that concern no record', () => {
    expect(PROFILE_EVENT_MAPPERS[TOPICS.checkFinished](envelope(TOPICS.checkFinished, {}))).toBeNull();
    expect(
      PROFILE_EVENT_MAPPERS['engagement.chat.opened'](envelope('engagement.chat.opened', { tags: [] })),
    ).toBeNull();
  });

  it('maps chats with their tags and line, and processes', () => {
    const chat = PROFILE_EVENT_MAPPERS['engagement.chat.closed'](
      envelope('engagement.chat.closed', {
        chat: { chat_id: 'C1', user_phone_number: '+573001', waba_phone_number: '+571', tags: ['a', 3] },
      }),
    )!;
    expect(chat).toMatchObject({ product: 'engagement-chat', status: 'closed', tags: ['a'], wabaPhoneNumber: '+571' });
    const process = PROFILE_EVENT_MAPPERS['identity.process.finished'](
      envelope('identity.process.finished', { process_id: 'P1', status: 'success', email: 'x@y.z' }),
    )!;
    expect(process).toMatchObject({ product: 'process', sourceId: 'P1', status: 'success' });
  });
});
