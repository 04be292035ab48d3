import { closeDb, CollectedTopic, collectTopic, db, eventually } from '@kyc/testing';

import {
  closeTestRenderer,
  differentPeoplePhotos,
  faceCrop,
  recapturedFacePhoto,
  renderIdCard,
  renderPassport,
  samePersonPhotos,
  SAMPLE_FACES,
} from '../support/engines';
import {
  expectError,
  jpegLike,
  startValidationsStack,
  upload,
  ValidationsStack,
  waitFinished,
} from './validations-helpers';

const ENGINE_MS = 180_000;

/** The real engines (OCR/MRZ, face model) behind the HTTP surface; the review team is never on duty here. */
describe('validations end to end with the engines', () => {
  let s: ValidationsStack;
  let enrollmentsFinished: CollectedTopic;

  beforeAll(async () => {
    s = await startValidationsStack({ VALIDATIONS_REVIEW_HOURS: '0-0' });
    enrollmentsFinished = await collectTopic('validations.enrollment.finished');
  }, 120_000);

  afterAll(async () => {
    await enrollmentsFinished?.stop();
    await closeTestRenderer();
    await s?.close();
    await closeDb();
  });

  describe('face recognition', () => {
    let enrollmentId: string;

    beforeAll(async () => {
      const res = await s.api.post('/v1/enrollments', {
        type: 'face-recognition',
        user_authorized: 'true',
        account_id: 'face-user',
      });
      enrollmentId = res.body.enrollment_id;
      expect((await upload(res.body.file_upload_link, (await samePersonPhotos())[0])).status).toBe(200);
      await eventually(
        async () => expect((await s.api.get(`/v1/enrollments/${enrollmentId}`)).body.face_enrolled).toBe(true),
        { timeoutMs: ENGINE_MS, intervalMs: 500 },
      );
    }, ENGINE_MS);

    it(
      'validates a matching photo, and the enrollment is confirmed by it',
      async () => {
        const res = await s.api.post('/v1/validations', {
          type: 'face-recognition',
          user_authorized: 'true',
          account_id: 'face-user',
          subvalidations: ['similarity', 'passive_liveness'],
        });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ threshold: 0.65, subvalidations: ['similarity', 'passive_liveness'] });
        expect((await upload(res.body.instructions.file_upload_link, (await samePersonPhotos())[1])).status).toBe(200);
        const v = await waitFinished(s.api, res.body.validation_id, ENGINE_MS);
        expect(v).toMatchObject({
          validation_status: 'success',
          details: {
            face_recognition_validations: { similarity_status: 'success', passive_liveness_status: 'success' },
          },
        });
        expect(v.details.face_recognition_validations.confidence_score).toBeGreaterThanOrEqual(0.65);
        expect((await s.api.get(`/v1/enrollments/${enrollmentId}`)).body).toMatchObject({
          status: 'success',
          validation_id: res.body.validation_id,
        });
        await eventually(() =>
          expect(enrollmentsFinished.messages.filter((m) => m.key === enrollmentId)).toHaveLength(1),
        );
      },
      ENGINE_MS,
    );

    it(
      'declines a photo of someone else (similarity below the threshold)',
      async () => {
        const res = await s.api.post('/v1/validations', {
          type: 'face-recognition',
          user_authorized: 'true',
          account_id: 'face-user',
        });
        await upload(res.body.instructions.file_upload_link, (await differentPeoplePhotos())[1]);
        const v = await waitFinished(s.api, res.body.validation_id, ENGINE_MS);
        expect(v).toMatchObject({
          validation_status: 'failure',
          failure_status: 'declined',
          declined_reason: 'similarity_threshold_not_passed',
        });
        expect(v.details.face_recognition_validations.confidence_score).toBeLessThan(0.65);
      },
      ENGINE_MS,
    );

    it(
      'declines a re-captured photo (print on a screen) on passive liveness',
      async () => {
        const res = await s.api.post('/v1/validations', {
          type: 'face-recognition',
          user_authorized: 'true',
          account_id: 'face-user',
          subvalidations: ['passive_liveness'],
        });
        await upload(res.body.instructions.file_upload_link, await recapturedFacePhoto());
        const v = await waitFinished(s.api, res.body.validation_id, ENGINE_MS);
        expect(v).toMatchObject({
          validation_status: 'failure',
          declined_reason: 'passive_liveness_failed',
          details: { face_recognition_validations: { passive_liveness_status: 'failure' } },
        });
      },
      ENGINE_MS,
    );

    it(
      'fails a file that is not a decodable image with invalid_media',
      async () => {
        const res = await s.api.post('/v1/validations', {
          type: 'face-recognition',
          user_authorized: 'true',
          account_id: 'face-user',
        });
        // Bytes that only start like a JPEG are refused at the upload; a JPEG whose structure holds (start,
        // frame header, end) but has no pixel data passes it and fails in the engine.
        const link = res.body.instructions.file_upload_link;
        const truncated = await upload(
          link,
          Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]),
        );
        expect(truncated.status).toBe(415);
        expect((await upload(link, jpegLike(64))).status).toBe(200);
        const v = await waitFinished(s.api, res.body.validation_id, ENGINE_MS);
        expect(v).toMatchObject({
          validation_status: 'failure',
          failure_status: 'system_error',
          failure_reason: 'invalid_media',
        });
      },
      ENGINE_MS,
    );
  });

  describe('face search (the tenant blocklist)', () => {
    beforeAll(async () => {
      const res = await s.api.post('/v1/enrollments', {
        type: 'face-search',
        user_authorized: 'true',
        account_id: 'fraudster-1',
        country: 'CO',
        fraud_reason: 'fraudster',
      });
      await upload(res.body.file_upload_link, await faceCrop(SAMPLE_FACES.s5Right));
      await eventually(
        async () => expect((await s.api.get(`/v1/enrollments/${res.body.enrollment_id}`)).body.status).toBe('success'),
        { timeoutMs: ENGINE_MS, intervalMs: 500 },
      );
    }, ENGINE_MS);

    it(
      'finds a blocked face and passes another',
      async () => {
        const blocked = await s.api.post('/v1/validations', {
          type: 'face-search',
          user_authorized: 'true',
          account_id: 'face-user',
          country: 'CO',
        });
        const clean = await s.api.post('/v1/validations', {
          type: 'face-search',
          user_authorized: 'true',
          account_id: 'face-user',
          country: 'CO',
        });
        await upload(
          blocked.body.instructions.file_upload_link,
          await faceCrop(SAMPLE_FACES.s5Right, { margin: 1.1, width: 360, brightness: 25, quality: 60 }),
        );
        await upload(clean.body.instructions.file_upload_link, (await samePersonPhotos())[0]);
        const hit = await waitFinished(s.api, blocked.body.validation_id, ENGINE_MS);
        expect(hit).toMatchObject({
          validation_status: 'failure',
          declined_reason: 'face_found_in_blocklist',
          details: { face_search_validations: { fraud_reason: 'fraudster', matched_account_id: 'fraudster-1' } },
        });
        expect((await waitFinished(s.api, clean.body.validation_id, ENGINE_MS)).validation_status).toBe('success');
      },
      ENGINE_MS,
    );
  });

  describe('documents', () => {
    const createDoc = (body: Record<string, string> = {}) =>
      s.api.post('/v1/validations', {
        type: 'document-validation',
        user_authorized: 'true',
        country: 'CO',
        document_type: 'national-id',
        ...body,
      });

    it(
      'accepts an ID card with a valid MRZ and reads its data',
      async () => {
        const card = await renderIdCard({ encoding: 'jpeg' });
        const res = await createDoc();
        await upload(res.body.instructions.front_url, card.front);
        await upload(res.body.instructions.reverse_url, card.reverse);
        const v = await waitFinished(s.api, res.body.validation_id, ENGINE_MS);
        expect(v.validation_status).toBe('success');
        expect(v.details.document_details).toMatchObject({
          document_number: card.person.documentNumber,
          date_of_birth: card.person.dateOfBirth,
          expiration_date: card.person.expirationDate,
        });
        expect(v.details.document_details.mrz).toHaveLength(3);
        expect(v.details.subvalidations).toEqual(
          expect.arrayContaining([expect.objectContaining({ status: 'success' })]),
        );
      },
      ENGINE_MS,
    );

    it(
      'declines a passport whose MRZ has a wrong check digit, saying why',
      async () => {
        const res = await s.api.post('/v1/validations', {
          type: 'document-validation',
          user_authorized: 'true',
          country: 'ALL',
          document_type: 'passport',
        });
        await upload(
          res.body.instructions.front_url,
          (await renderPassport({ corruptCheckDigit: 'document_number', encoding: 'jpeg' })).image,
        );
        const v = await waitFinished(s.api, res.body.validation_id, ENGINE_MS);
        expect(v).toMatchObject({
          validation_status: 'failure',
          failure_status: 'declined',
          declined_reason: 'invalid_mrz_check_digit',
        });
      },
      ENGINE_MS,
    );

    it(
      'declines a document whose name differs from the account (data consistency)',
      async () => {
        await s.api.post('/v1/accounts', {
          account_id: 'carlos',
          first_name: 'Carlos Andrés',
          last_name: 'Rodríguez Silva',
        });
        const res = await s.api.post('/v1/validations', {
          type: 'document-validation',
          user_authorized: 'true',
          account_id: 'carlos',
          country: 'ALL',
          document_type: 'passport',
        });
        await upload(res.body.instructions.front_url, (await renderPassport({ encoding: 'jpeg' })).image);
        const v = await waitFinished(s.api, res.body.validation_id, ENGINE_MS);
        expect(v).toMatchObject({ validation_status: 'failure', declined_reason: 'data_mismatch' });
      },
      ENGINE_MS,
    );

    describe('manual review (the team is off duty per schedule in this suite)', () => {
      beforeAll(async () => {
        await s.api.put('/v1/config', { validator: 'document-validation', use_manual_review: 'enabled' });
      });
      afterAll(async () => {
        await s.api.delete('/v1/config?validator=document-validation&type=use_manual_review');
      });

      it(
        'queues the validation for operators, who approve or decline it',
        async () => {
          const passport = (await renderPassport({ encoding: 'jpeg' })).image;
          const ids: string[] = [];
          for (let i = 0; i < 2; i++) {
            const res = await s.api.post('/v1/validations', {
              type: 'document-validation',
              user_authorized: 'true',
              country: 'ALL',
              document_type: 'passport',
            });
            await upload(res.body.instructions.front_url, passport);
            ids.push(res.body.validation_id);
          }
          const queue = await eventually(
            async () => {
              const r = await s.operator.get(`/v1/admin/reviews?tenant_id=${s.tenant.tenantId}`);
              expect(r.body.reviews.map((v: { validation_id: string }) => v.validation_id).sort()).toEqual(
                [...ids].sort(),
              );
              return r.body.reviews;
            },
            { timeoutMs: ENGINE_MS, intervalMs: 500 },
          );
          expect(queue[0]).toMatchObject({ validation_status: 'pending', manual_review_status: 'pending' });
          expectError(await s.api.get(`/v1/admin/reviews?tenant_id=${s.tenant.tenantId}`), 403, 'forbidden');
          const detail = await s.operator.get(`/v1/admin/reviews/${ids[0]}`);
          expect(detail.body.media[0]).toMatchObject({ slot: 'front', content_type: 'image/jpeg' });
          const approved = await s.operator.post(`/v1/admin/reviews/${ids[0]}/approve`, { comment: 'looks fine' });
          expect(approved.body).toMatchObject({ validation_status: 'success', manual_review_status: 'approved' });
          const declined = await s.operator.post(`/v1/admin/reviews/${ids[1]}/decline`);
          expect(declined.body).toMatchObject({
            validation_status: 'failure',
            manual_review_status: 'declined',
            declined_reason: 'declined_by_manual_review',
          });
          expectError(await s.operator.post(`/v1/admin/reviews/${ids[1]}/approve`), 409, 'review_not_pending');
        },
        ENGINE_MS * 2,
      );

      it(
        'skips the review when unavailable per schedule and asked to, without changing the status',
        async () => {
          const res = await s.api.post('/v1/validations', {
            type: 'document-validation',
            user_authorized: 'true',
            country: 'ALL',
            document_type: 'passport',
            skip_unavailable_manual_review: 'true',
          });
          await upload(res.body.instructions.front_url, (await renderPassport({ encoding: 'jpeg' })).image);
          const v = await waitFinished(s.api, res.body.validation_id, ENGINE_MS);
          expect(v).toMatchObject({ validation_status: 'success', manual_review_status: 'unavailable' });
        },
        ENGINE_MS,
      );
    });

    it(
      'lets a failed document validation be retried within retry_ttl when retries are active',
      async () => {
        await s.api.put('/v1/config', { validator: 'document-validation', allowed_retries: '1', retry_ttl: '600' });
        const first = await s.api.post('/v1/validations', {
          type: 'document-validation',
          user_authorized: 'true',
          country: 'ALL',
          document_type: 'passport',
        });
        await upload(
          first.body.instructions.front_url,
          (await renderPassport({ corruptCheckDigit: 'birth_date', encoding: 'jpeg' })).image,
        );
        expect((await waitFinished(s.api, first.body.validation_id, ENGINE_MS)).validation_status).toBe('failure');
        // Its finished event says how many retries are left and until when (identity sends a flow's step back to capture by them).
        const finished = await eventually(async () => {
          const r = await db().query(
            `SELECT envelope->'payload'->'validation' AS v FROM validations.outbox
              WHERE topic = 'validations.validation.finished' AND message_key = $1`,
            [first.body.validation_id],
          );
          expect(r.rows).toHaveLength(1);
          return r.rows[0].v;
        });
        expect(finished).toMatchObject({ validation_status: 'failure', retries_left: 1 });
        expect(Date.parse(finished.retry_until) - Date.parse(finished.finished_date)).toBe(600_000);
        const retry = await s.api.post('/v1/validations', {
          type: 'document-validation',
          user_authorized: 'true',
          country: 'ALL',
          document_type: 'passport',
          account_id: first.body.account_id,
          retry_of_id: first.body.validation_id,
        });
        expect(retry.status).toBe(201);
        expect(retry.body.retry_of_id).toBe(first.body.validation_id);
        expectError(
          await s.api.post('/v1/validations', {
            type: 'document-validation',
            user_authorized: 'true',
            country: 'ALL',
            document_type: 'passport',
            account_id: 'someone-else',
            retry_of_id: first.body.validation_id,
          }),
          400,
          'validation_failed',
          'retry_of_id',
        );
        await upload(retry.body.instructions.front_url, (await renderPassport({ encoding: 'jpeg' })).image);
        expect((await waitFinished(s.api, retry.body.validation_id, ENGINE_MS)).validation_status).toBe('success');
        await s.api.delete('/v1/config?validator=document-validation');
      },
      ENGINE_MS * 2,
    );
  });
});
