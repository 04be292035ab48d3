import { JobQueueService, ManualClock } from '@kyc/platform';
import { closeDb, db, eventually } from '@kyc/testing';

import { expectError, jpegLike, startValidationsStack, upload, ValidationsStack } from './validations-helpers';

/** Time-bound rules on a clock the test moves: media links (15 minutes) and the restore window of deletes. */
describe('validations: media link expiry and the restore window', () => {
  let s: ValidationsStack;
  const clock = new ManualClock();

  beforeAll(async () => {
    s = await startValidationsStack({ VALIDATIONS_RESTORE_DAYS: '2' }, { clock });
  });

  afterAll(async () => {
    await s?.close();
    await closeDb();
  });

  it('serves a show_details link for 15 minutes only', async () => {
    const res = await s.api.post('/v1/validations', {
      type: 'document-validation',
      user_authorized: 'true',
      country: 'ALL',
      document_type: 'passport',
      timeout: '21600',
    });
    await upload(res.body.instructions.front_url, jpegLike());
    const [media] = (await s.api.get(`/v1/validations/${res.body.validation_id}?show_details=true`)).body.media;
    clock.advance(14 * 60_000);
    expect((await fetch(media.url)).status).toBe(200);
    clock.advance(2 * 60_000);
    const expired = await fetch(media.url);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { error_code: string }).error_code).toBe('upload_link_expired');
  });

  it('purges a deleted validation and its media once the restore window has passed', async () => {
    const res = await s.api.post('/v1/validations', {
      type: 'document-validation',
      user_authorized: 'true',
      country: 'ALL',
      document_type: 'passport',
    });
    const id = res.body.validation_id;
    await upload(res.body.instructions.front_url, jpegLike());
    expect((await s.api.delete(`/v1/validations/${id}`)).status).toBe(200);
    clock.advance(86_400_000);
    expect((await s.api.post(`/v1/validations/${id}/restore`)).status).toBe(200);
    expect((await s.api.delete(`/v1/validations/${id}`)).status).toBe(200);
    const rows = (table: string, column: string) =>
      db()
        .query(`SELECT count(*) FROM validations.${table} WHERE ${column} = $1`, [id])
        .then((r) => Number(r.rows[0].count));
    // the first delete's window ends: the validation, deleted again since, stays restorable
    clock.advance(86_400_000 + 60_000);
    await s.validations.app.get(JobQueueService).drain();
    expect(await rows('validations', 'id')).toBe(1);
    // the second delete's window ends
    clock.advance(86_400_000);
    await eventually(async () => expect(await rows('validations', 'id')).toBe(0), { timeoutMs: 15_000 });
    expect(await rows('media', 'owner_id')).toBe(0);
    expectError(await s.api.post(`/v1/validations/${id}/restore`), 404, 'validation_not_found');
  });
});
