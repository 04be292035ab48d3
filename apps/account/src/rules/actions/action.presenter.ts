import { ActionEntity } from './action.entity';
import { HttpRequestConfig } from './action-config';

export function presentAction(a: ActionEntity) {
  return {
    action_id: a.id,
    rule_id: a.ruleId,
    name: a.name,
    type: a.type,
    status: a.status,
    config: a.config,
    creation_date: a.createdAt.toISOString(),
    update_date: a.updatedAt.toISOString(),
  };
}

const SENSITIVE_HEADER = /authorization|cookie|token|secret|key|signature|password/i;

/** What the audit log keeps of an action: header values that look like credentials are redacted. */
export function actionSnapshot(a: Pick<ActionEntity, 'name' | 'type' | 'status' | 'config'>) {
  const config = a.type === 'http_request' ? { ...(a.config as HttpRequestConfig) } : a.config;
  if (a.type === 'http_request') {
    const headers = (config as HttpRequestConfig).headers ?? {};
    (config as HttpRequestConfig).headers = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [
        k,
        SENSITIVE_HEADER.test(k) && !/^\{\{[^}]*\}\}$/.test(v.trim()) ? '[secret]' : v,
      ]),
    );
  }
  return { name: a.name, type: a.type, status: a.status, config };
}
