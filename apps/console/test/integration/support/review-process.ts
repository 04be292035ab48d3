import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ApiClient, eventually, putJsonUnpooled, repoRoot } from '@kyc/testing';

/** The identity page's test photos (an id card and two selfies). */
const photo = (name: string) =>
  readFileSync(path.join(repoRoot, 'apps/identity/test/fixtures', name)).toString('base64');

const ENGINE_MS = 180_000;

/**
 * A process waiting for a person's decision, made as an end user makes it (identity's page API and
 * the validations service's real engines): a document and a selfie of another person, so the face
 * comparison declines it and the process finishes as a failure with its reason. Its client-side log
 * has an entry. Resolves with the process id once it has failed.
 */
export async function failedFaceProcess(identity: ApiClient, identityUrl: string): Promise<string> {
  const flow = await identity.postJson('/v1/flows', {
    name: 'Document and selfie',
    timeout_seconds: 3600,
    steps: [{ type: 'document' }, { type: 'face' }],
  });
  if (flow.status !== 201) throw new Error(`flow: ${flow.status} ${JSON.stringify(flow.body)}`);
  const key = await identity.post('/v1/api-keys', {
    key_type: 'web',
    grant: 'digital-identity',
    flow_id: flow.body.flow_id,
    country: 'CO',
    redirect_url: 'https://example.test/done',
  });
  if (key.status !== 201) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
  const webKey = key.body.api_key as string;
  const web = identity.withKey(webKey);
  const created = await web.post('/v1/processes');
  const id = created.body.process_id as string;
  const state = async () => (await web.get(`/v1/processes/${id}`)).body;
  const upload = async (slot: string, name: string) => {
    const res = await putJsonUnpooled(`${identityUrl}/web/processes/${id}/uploads/${slot}`, webKey, {
      file: photo(name),
    });
    if (res.status !== 200) throw new Error(`upload ${slot}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  try {
    await web.post('/v1/processes/enqueue-log', { process_id: id, level: 'warn', message: 'camera permission asked' });
    const [documentStep] = created.body.steps;
    const sent = await web.postJson(`/v1/processes/${id}`, {
      step_id: documentStep.step_id,
      verification_id: documentStep.verification_id,
      type: 'document',
      expected_inputs: [
        { name: 'country', value: 'CO' },
        { name: 'document_type', value: 'national-id' },
      ],
    });
    if (sent.status !== 200) throw new Error(`document step: ${sent.status} ${JSON.stringify(sent.body)}`);
    await eventually(async () => expect((await state()).steps[0].instructions).toBeDefined(), { timeoutMs: 60_000 });
    await upload('front', 'id-card-front.jpg');
    await upload('reverse', 'id-card-reverse.jpg');
    // The document is read; the face step opens (its reference: the portrait on the document).
    const faceStep = await eventually(
      async () => {
        const p = await state();
        expect(p.steps[0].status).toBe('success');
        return p.steps[1];
      },
      { timeoutMs: ENGINE_MS, intervalMs: 500 },
    );
    const face = await web.postJson(`/v1/processes/${id}`, {
      step_id: faceStep.step_id,
      verification_id: faceStep.verification_id,
      type: 'face',
    });
    if (face.status !== 200) throw new Error(`face step: ${face.status} ${JSON.stringify(face.body)}`);
    await eventually(async () => expect((await state()).steps[1].instructions).toBeDefined(), {
      timeoutMs: ENGINE_MS,
      intervalMs: 500,
    });
    await upload('selfie', 'selfie-other.jpg');
    await eventually(async () => expect((await state()).status).toBe('failure'), {
      timeoutMs: ENGINE_MS,
      intervalMs: 500,
    });
    return id;
  } catch (err) {
    throw new Error(`${(err as Error).message}\nprocess: ${JSON.stringify(await state())}`);
  }
}
