import { ApiClient, ApiResponse, eventually } from '@kyc/testing';

/** What an input names of a step, as GET /v1/processes/{id} shows it. */
export interface StepRef {
  step_id: string;
  verification_id: string;
  type: string;
}

/** A step's inputs: name → value, or the list as sent (to send a name twice or an unknown one). */
export type StepInputs = Record<string, string> | { name: string; value: string }[];

/** The document step's inputs of the suites: a Colombian national id. */
export const DOCUMENT_INPUTS = { country: 'CO', document_type: 'national-id' };

/** A temporary web key of the digital-identity grant bound to `flowId`. */
export async function webKeyFor(api: ApiClient, flowId: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await api.post('/v1/api-keys', {
    key_type: 'web',
    grant: 'digital-identity',
    flow_id: flowId,
    country: 'CO',
    redirect_url: 'https://example.test/done',
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.api_key as string;
}

/** A process of `flowId` started with a web key of its own: the key, a client on it, the process id and body. */
export async function processOf(api: ApiClient, flowId: string, extra: Record<string, string> = {}) {
  const key = await webKeyFor(api, flowId, extra);
  const web = api.withKey(key);
  const res = await web.post('/v1/processes');
  expect(res.status).toBe(201);
  return { key, web, id: res.body.process_id as string, body: res.body };
}

/** POST /v1/processes/{id}: `inputs` for `step`. */
export function submitStep(web: ApiClient, id: string, step: StepRef, inputs: StepInputs): Promise<ApiResponse> {
  return web.postJson(`/v1/processes/${id}`, {
    step_id: step.step_id,
    verification_id: step.verification_id,
    type: step.type,
    expected_inputs: Array.isArray(inputs) ? inputs : Object.entries(inputs).map(([name, value]) => ({ name, value })),
  });
}

/** The process's step `index` once its validation exists (the job that creates it has run). */
export function stepWithValidation(web: ApiClient, id: string, index = 0): Promise<any> {
  return eventually(async () => {
    const step = (await web.get(`/v1/processes/${id}`)).body.steps[index];
    if (!step.validation_id) throw new Error(`no validation yet: ${JSON.stringify(step)}`);
    return step;
  });
}
