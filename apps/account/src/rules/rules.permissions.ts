/** Managing rules, actions, env vars, executions and the signing secret is account administration. */
export const RULES_PERMISSION = 'svc.users';
