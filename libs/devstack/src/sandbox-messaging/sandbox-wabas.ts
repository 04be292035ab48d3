import { GraphAnswer, graphError, SandboxClock, SandboxWaba } from './sandbox-types';

/**
 * WhatsApp Business Accounts of the sandbox provider, each with one number: created by tests
 * (`POST /_sandbox/wabas`) or given at start; `GET /{waba-id}/phone_numbers` and
 * `POST /{waba-id}/subscribed_apps`.
 */
export function sandboxWabas(deps: Pick<SandboxClock, 'nextId'> & { initial: SandboxWaba[] }) {
  const wabas = new Map<string, SandboxWaba>();
  for (const w of deps.initial) wabas.set(w.id, w);

  const create = () => {
    const n = deps.nextId();
    const phone = `+5730${n.slice(-8)}`;
    const waba = { id: `waba${n}`, phoneNumbers: [{ id: `pn${n}`, display_phone_number: phone }] };
    wabas.set(waba.id, waba);
    return { waba_id: waba.id, phone_numbers: waba.phoneNumbers };
  };

  const ofNumber = (phoneNumberId: string) =>
    [...wabas.values()].find((w) => w.phoneNumbers.some((p) => p.id === phoneNumberId));

  /** The webhook metadata of a number of a WABA (digits only, as Meta sends them). */
  const metadata = (waba: SandboxWaba, phoneNumberId: string) => ({
    display_phone_number: waba.phoneNumbers
      .find((p) => p.id === phoneNumberId)!
      .display_phone_number.replace(/\D/g, ''),
    phone_number_id: phoneNumberId,
  });

  /** `/{waba-id}/phone_numbers` and `/{waba-id}/subscribed_apps`; undefined for another route. */
  const handle = (method: string, node: string, edge: string | undefined): GraphAnswer | undefined => {
    const isNumbers = edge === 'phone_numbers' && method === 'GET';
    if (!isNumbers && !(edge === 'subscribed_apps' && method === 'POST')) return undefined;
    const waba = wabas.get(node);
    if (!waba) return graphError(deps.nextId, 400, 100, `Object with ID '${node}' does not exist`);
    if (!isNumbers) return { status: 200, body: { success: true } };
    return {
      status: 200,
      body: {
        data: waba.phoneNumbers.map((p) => ({
          ...p,
          verified_name: 'Sandbox line',
          quality_rating: 'GREEN',
          code_verification_status: 'VERIFIED',
        })),
      },
    };
  };

  return { create, ofNumber, metadata, handle, get: (id: string) => wabas.get(id), has: (id: string) => wabas.has(id) };
}

export type SandboxWabas = ReturnType<typeof sandboxWabas>;
