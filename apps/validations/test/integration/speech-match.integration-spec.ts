import { closeDb, eventually } from '@kyc/testing';

import { closeTestRenderer, samePersonPhotos } from '../support/engines';
import { startValidationsStack, upload, ValidationsStack, waitFinished } from './validations-helpers';

const ENGINE_MS = 180_000;

/**
 * A video the sandbox speech provider understands: an MP4 container header (what the upload's
 * content sniffing takes as video/mp4) carrying the transcript as `SPEECH:<words>`.
 */
const spokenVideo = (words: string) =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom', 'latin1'),
    Buffer.alloc(12),
    Buffer.from(`SPEECH:${words}\n`, 'latin1'),
  ]);

/** face-recognition with speech_match over HTTP: the face model on the photo, the sandbox speech provider on the video. */
describe('validations: face recognition with speech match, end to end', () => {
  let s: ValidationsStack;

  beforeAll(async () => {
    s = await startValidationsStack({ VALIDATIONS_REVIEW_HOURS: '0-0' });
    const res = await s.api.post('/v1/enrollments', {
      type: 'face-recognition',
      user_authorized: 'true',
      account_id: 'speaker',
    });
    expect((await upload(res.body.file_upload_link, (await samePersonPhotos())[0])).status).toBe(200);
    await eventually(
      async () => expect((await s.api.get(`/v1/enrollments/${res.body.enrollment_id}`)).body.face_enrolled).toBe(true),
      { timeoutMs: ENGINE_MS, intervalMs: 500 },
    );
  }, ENGINE_MS);

  afterAll(async () => {
    await closeTestRenderer();
    await s?.close();
    await closeDb();
  });

  /** Creates the validation, uploads the matching photo and a video saying `say(token)`, and waits for the result. */
  const validate = async (precision: string, say: (token: string) => string) => {
    const res = await s.api.post('/v1/validations', {
      type: 'face-recognition',
      user_authorized: 'true',
      account_id: 'speaker',
      subvalidations: ['similarity', 'speech_match'],
      speech_precision: precision,
    });
    expect(res.status).toBe(201);
    const { speech_token: token, file_upload_link: photoLink, video_upload_link: videoLink } = res.body.instructions;
    expect(token).toMatch(/^[a-z]+ [a-z]+ [a-z]+$/);
    expect(videoLink).toEqual(expect.any(String));
    expect((await upload(photoLink, (await samePersonPhotos())[1])).status).toBe(200);
    // Only the photo is in: the validation waits for its video.
    expect((await s.api.get(`/v1/validations/${res.body.validation_id}`)).body.validation_status).toBe('pending');
    const video = await upload(videoLink, spokenVideo(say(token)));
    expect(video.status).toBe(200);
    expect(video.body).toMatchObject({ slot: 'video', content_type: 'video/mp4' });
    return waitFinished(s.api, res.body.validation_id, ENGINE_MS);
  };

  it(
    'succeeds when the video says the speech_token (and the face matches)',
    async () => {
      const v = await validate('high', (token) => token.toUpperCase());
      expect(v).toMatchObject({
        validation_status: 'success',
        details: { face_recognition_validations: { similarity_status: 'success', speech_match_status: 'success' } },
      });
      expect(v.details.subvalidations).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'speech_match', status: 'success' })]),
      );
    },
    ENGINE_MS,
  );

  it(
    'declines with speech_not_matched when the video says other words, though the face matches',
    async () => {
      const v = await validate('low', () => 'hola buenos dias');
      expect(v).toMatchObject({
        validation_status: 'failure',
        failure_status: 'declined',
        declined_reason: 'speech_not_matched',
        details: { face_recognition_validations: { similarity_status: 'success', speech_match_status: 'failure' } },
      });
    },
    ENGINE_MS,
  );

  it(
    'applies speech_precision: one word of three wrong passes low, fails very_high',
    async () => {
      const oneWrong = (token: string) => token.replace(/^[a-z]+/, 'xxxx');
      const low = await validate('low', oneWrong);
      expect(low.details.face_recognition_validations.speech_match_status).toBe('success');
      const strict = await validate('very_high', oneWrong);
      expect(strict).toMatchObject({ validation_status: 'failure', declined_reason: 'speech_not_matched' });
    },
    ENGINE_MS * 2,
  );
});
