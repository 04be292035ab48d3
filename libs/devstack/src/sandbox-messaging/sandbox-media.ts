import { GraphAnswer, graphError, SandboxClock } from './sandbox-types';
import { SandboxWabas } from './sandbox-wabas';

/**
 * Media of the sandbox provider: `POST /{phone-number-id}/media` takes a multipart upload of any
 * content for a sandbox number and answers a media id (the bytes are not kept).
 */
export function sandboxMedia(deps: Pick<SandboxClock, 'nextId'> & { wabas: SandboxWabas }) {
  const upload = (phoneNumberId: string, contentType: string | undefined): GraphAnswer => {
    if (!deps.wabas.ofNumber(phoneNumberId))
      return graphError(deps.nextId, 400, 100, `Object with ID '${phoneNumberId}' does not exist`);
    if (!String(contentType ?? '').startsWith('multipart/form-data'))
      return graphError(deps.nextId, 400, 100, 'media must be multipart/form-data');
    return { status: 200, body: { id: `media${deps.nextId()}` } };
  };
  return { upload };
}
