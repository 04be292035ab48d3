import { closeDb, CollectedTopic, collectTopic, db } from '@kyc/testing';

import { startValidationsStack, ValidationsStack } from './validations-helpers';

export let s: ValidationsStack;
export let finished: CollectedTopic;
export let created: CollectedTopic;

export const validationRows = async () =>
  Number(
    (await db().query('SELECT count(*) FROM validations.validations WHERE tenant_id = $1', [s.tenant.tenantId])).rows[0]
      .count,
  );

export const email = { type: 'email-verification', user_authorized: 'true', account_id: 'mail-user' };

/**
 * Registers a validations suite's setup and teardown: the validations stack (media up to 4 KiB), the
 * created and finished topics collected, and the account mail-user enrolled for e-mail verification.
 */
export function useValidationsSuite(env: Record<string, string> = {}): void {
  beforeAll(async () => {
    s = await startValidationsStack({ VALIDATIONS_MEDIA_MAX_BYTES: '4096', ...env });
    finished = await collectTopic('validations.validation.finished');
    created = await collectTopic('validations.validation.created');
    await s.api.post('/v1/accounts', { account_id: 'mail-user', first_name: 'Ana' });
    await s.api.post('/v1/enrollments', {
      type: 'email-verification',
      user_authorized: 'true',
      account_id: 'mail-user',
      email: 'ana@mail.test',
    });
  });

  afterAll(async () => {
    await Promise.all([finished?.stop(), created?.stop()]);
    await s?.close();
    await closeDb();
  });
}
