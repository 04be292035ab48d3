import { ControlBody, GraphAnswer, GraphBody, graphError, SandboxClock, SandboxTemplate } from './sandbox-types';
import { SandboxWebhooks } from './sandbox-webhooks';

/**
 * Message templates of the sandbox provider: `GET|POST|DELETE /{waba-id}/message_templates`, the
 * review after `reviewDelayMs` (posted as a `message_template_status_update` webhook), and the
 * quality a test reports (`POST /_sandbox/quality`, posted as `message_template_quality_update`).
 */
export function sandboxTemplates(deps: SandboxClock & { reviewDelayMs: number; webhooks: SandboxWebhooks }) {
  const templates = new Map<string, SandboxTemplate>();
  const error = (status: number, code: number, message: string) => graphError(deps.nextId, status, code, message);

  const bodyText = (t: SandboxTemplate) => String(t.components.find((c) => c.type === 'BODY')?.text ?? '').trim();

  const review = (t: SandboxTemplate) => {
    const body = bodyText(t);
    if (/sandbox-reject/i.test(t.name) || /sandbox-reject/i.test(body)) {
      t.status = 'REJECTED';
      t.rejected_reason = 'ABUSIVE_CONTENT';
    } else if (t.category !== 'AUTHENTICATION' && (/^\{\{\d+\}\}/.test(body) || /\{\{\d+\}\}[.!?]?$/.test(body))) {
      t.status = 'REJECTED';
      t.rejected_reason = 'INVALID_FORMAT';
    } else t.status = 'APPROVED';
    if (t.status === 'APPROVED') t.quality_score = 'GREEN';
    deps.webhooks.post(t.waba_id, 'message_template_status_update', {
      event: t.status,
      message_template_id: Number(t.id),
      message_template_name: t.name,
      message_template_language: t.language,
      reason: t.rejected_reason ?? 'NONE',
    });
  };

  const submit = (wabaId: string, b: GraphBody | undefined): GraphAnswer => {
    if (!b || typeof b.name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(b.name))
      return error(400, 100, 'Invalid parameter: name');
    if (!['MARKETING', 'UTILITY', 'AUTHENTICATION'].includes(String(b.category)))
      return error(400, 100, 'Invalid parameter: category');
    if (!Array.isArray(b.components)) return error(400, 100, 'Invalid parameter: components');
    if ([...templates.values()].some((t) => t.waba_id === wabaId && t.name === b.name && t.language === b.language))
      return error(400, 2388024, 'Content in this language already exists');
    const t: SandboxTemplate = {
      id: deps.nextId(),
      waba_id: wabaId,
      name: b.name,
      language: String(b.language),
      category: String(b.category),
      components: b.components as SandboxTemplate['components'],
      status: 'PENDING',
      quality_score: 'UNKNOWN',
    };
    templates.set(t.id, t);
    deps.later(deps.reviewDelayMs, () => review(t));
    return { status: 200, body: { id: t.id, status: 'PENDING', category: t.category } };
  };

  /** `/{waba-id}/message_templates` of a known WABA; undefined for a method it does not serve. */
  const handle = (method: string, wabaId: string, url: URL, body: () => GraphBody | undefined) => {
    const name = url.searchParams.get('name');
    if (method === 'GET')
      return {
        status: 200,
        body: { data: [...templates.values()].filter((t) => t.waba_id === wabaId && (!name || t.name === name)) },
      };
    if (method === 'DELETE') {
      if (!name) return error(400, 100, 'name is required');
      const matching = [...templates.values()].filter((t) => t.waba_id === wabaId && t.name === name);
      if (!matching.length) return error(404, 100, `Template ${name} not found`);
      for (const t of matching) templates.delete(t.id);
      return { status: 200, body: { success: true } };
    }
    if (method === 'POST') return submit(wabaId, body());
    return undefined;
  };

  /** The template a send names, if the WABA has it in that language. */
  const find = (wabaId: string, name: unknown, language: unknown) =>
    [...templates.values()].find((x) => x.waba_id === wabaId && x.name === name && x.language === language);

  /** POST /_sandbox/quality: the provider rates a template. */
  const rate = (b: ControlBody): GraphAnswer => {
    const t = [...templates.values()].find((x) => x.id === String(b.template_id) || x.name === b.template_name);
    if (!t || typeof b.quality !== 'string' || !['GREEN', 'YELLOW', 'RED'].includes(b.quality))
      return {
        status: 400,
        body: { error: 'template_name or template_id of a template, and quality GREEN|YELLOW|RED' },
      };
    const previous = t.quality_score;
    t.quality_score = b.quality;
    deps.webhooks.post(t.waba_id, 'message_template_quality_update', {
      previous_quality_score: previous,
      new_quality_score: b.quality,
      message_template_id: Number(t.id),
      message_template_name: t.name,
      message_template_language: t.language,
    });
    return { status: 200, body: { template_id: t.id, quality: b.quality } };
  };

  return { handle, find, rate, list: () => [...templates.values()] };
}

export type SandboxTemplates = ReturnType<typeof sandboxTemplates>;
