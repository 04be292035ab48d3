import { Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';

import { api, ApiError, call } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { ErrorState } from '../shared/states';
import { Action, ACTION_TYPES, ActionType, fieldError } from './rules-api';

type Form = Record<string, string>;

const text = (v: unknown): string =>
  v === undefined || v === null
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : JSON.stringify(v);

const lines = (entries: [string, unknown][], sep: string) => entries.map(([k, v]) => `${k}${sep}${text(v)}`).join('\n');
const list = (v: unknown) => (Array.isArray(v) ? v.map(text).join(', ') : text(v));

/** The form's fields from a stored configuration. */
function toForm(type: string, config: Record<string, unknown>): Form {
  const obj = (v: unknown) => Object.entries((v ?? {}) as Record<string, unknown>);
  switch (type) {
    case 'email':
      return {
        to: list(config.to),
        cc: list(config.cc),
        subject: text(config.subject),
        body: text(config.body),
        max_attempts: text(config.max_attempts),
      };
    case 'create_check':
      return {
        type: text(config.type) || 'person',
        country: text(config.country) || 'CO',
        inputs: lines(obj(config.inputs), '='),
      };
    default:
      return {
        url: text(config.url),
        method: text(config.method) || 'POST',
        headers: lines(obj(config.headers), ': '),
        body: text(config.body),
        timeout_ms: text(config.timeout_ms),
        max_attempts: text(config.max_attempts),
      };
  }
}

/** "Name<sep>value" lines as an object (blank lines skipped). */
function pairs(textValue: string, sep: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of textValue.split('\n')) {
    const at = line.indexOf(sep);
    if (!line.trim()) continue;
    if (at < 0) out[line.trim()] = '';
    else out[line.slice(0, at).trim()] = line.slice(at + sep.length).trim();
  }
  return out;
}

const splitList = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const num = (v: string) => (v.trim() === '' ? undefined : Number(v.trim()));

/** The configuration the API takes, from the form (empty optional fields left out). */
function toConfig(type: string, f: Form): Record<string, unknown> {
  const clean = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));
  switch (type) {
    case 'email':
      return clean({
        to: splitList(f.to ?? ''),
        cc: f.cc?.trim() ? splitList(f.cc) : undefined,
        subject: f.subject,
        body: f.body,
        max_attempts: num(f.max_attempts ?? ''),
      });
    case 'create_check':
      return clean({ type: f.type, country: f.country, inputs: pairs(f.inputs ?? '', '=') });
    default:
      return clean({
        url: f.url,
        method: f.method,
        headers: f.headers?.trim() ? pairs(f.headers, ':') : undefined,
        body: f.body,
        timeout_ms: num(f.timeout_ms ?? ''),
        max_attempts: num(f.max_attempts ?? ''),
      });
  }
}

/** Creates or changes an action of a rule: its name, type and the configuration form of its type. */
export function ActionForm({
  ruleId,
  action,
  onSaved,
  onCancel,
}: {
  ruleId: string;
  action?: Action;
  onSaved: () => void;
  onCancel?: () => void;
}) {
  const { t } = useI18n();
  const [name, setName] = useState(action?.name ?? '');
  const [type, setType] = useState<string>(action?.type ?? 'http_request');
  const [form, setForm] = useState<Form>(() => toForm(action?.type ?? 'http_request', action?.config ?? {}));
  const [error, setError] = useState<ApiError>();
  const [saving, setSaving] = useState(false);
  const prefix = action ? `action-${action.action_id}` : 'action-new';
  const field = (key: string) => ({
    id: `${prefix}-${key}`,
    value: form[key] ?? '',
    onChange: (e: { currentTarget: { value: string } }) => {
      const value = e.currentTarget.value;
      setForm((f) => ({ ...f, [key]: value }));
    },
    error: fieldError(error, `config.${key}`),
  });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    setSaving(true);
    const body = { name: name.trim(), type: type as ActionType, config: toConfig(type, form) };
    try {
      if (action)
        await call(
          api.account.PUT('/v1/bre/rules/{rule_id}/actions/{action_id}', {
            params: { path: { rule_id: ruleId, action_id: action.action_id } },
            body,
          }),
        );
      else
        await call(
          api.account.POST('/v1/bre/rules/{rule_id}/actions', { params: { path: { rule_id: ruleId } }, body }),
        );
      onSaved();
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setSaving(false);
    }
  };
  const shown = new Set(['name', 'type', 'config']);
  const configKeys = Object.keys(toForm(type, {}));
  const unplaced = error?.fields.filter(
    (f) => !shown.has(f.field) && !configKeys.some((k) => f.field.startsWith(`config.${k}`)),
  );
  return (
    <Paper withBorder p="md" component="section" aria-label={action ? t('rules.action.edit') : t('rules.action.new')}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <Title order={4}>{action ? t('rules.action.edit') : t('rules.action.new')}</Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              id={`${prefix}-name`}
              label={t('common.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={error?.field('name')}
            />
            <NativeSelect
              id={`${prefix}-type`}
              label={t('rules.action.type')}
              value={type}
              data={ACTION_TYPES.map((v) => ({ value: v, label: t(`rules.type.${v}`) }))}
              onChange={(e) => {
                const next = e.currentTarget.value;
                setType(next);
                setForm(toForm(next, {}));
              }}
              error={error?.field('type')}
            />
          </SimpleGrid>
          {type === 'http_request' && (
            <>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label={t('rules.config.url')}
                  placeholder="https://example.com/hooks/{{.check_id}}"
                  {...field('url')}
                />
                <NativeSelect
                  label={t('rules.config.method')}
                  data={['POST', 'GET', 'PUT', 'PATCH', 'DELETE']}
                  {...field('method')}
                />
              </SimpleGrid>
              <Textarea
                label={t('rules.config.headers')}
                description={t('rules.config.headersHint')}
                autosize
                minRows={2}
                placeholder="Authorization: Bearer {{.env.API_TOKEN}}"
                {...field('headers')}
              />
              <Textarea
                label={t('rules.config.body')}
                description={t('rules.config.bodyHint')}
                autosize
                minRows={2}
                {...field('body')}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label={t('rules.config.timeout')}
                  inputMode="numeric"
                  placeholder="10000"
                  {...field('timeout_ms')}
                />
                <TextInput
                  label={t('rules.config.attempts')}
                  inputMode="numeric"
                  placeholder="5"
                  {...field('max_attempts')}
                />
              </SimpleGrid>
            </>
          )}
          {type === 'email' && (
            <>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label={t('rules.config.to')} description={t('rules.config.listHint')} {...field('to')} />
                <TextInput label={t('rules.config.cc')} description={t('rules.config.listHint')} {...field('cc')} />
              </SimpleGrid>
              <TextInput label={t('rules.config.subject')} {...field('subject')} />
              <Textarea label={t('rules.config.body')} autosize minRows={3} {...field('body')} />
              <TextInput
                label={t('rules.config.attempts')}
                inputMode="numeric"
                placeholder="5"
                {...field('max_attempts')}
              />
            </>
          )}
          {type === 'create_check' && (
            <>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label={t('rules.config.checkType')} placeholder="person" {...field('type')} />
                <NativeSelect
                  label={t('rules.config.country')}
                  data={['CO', 'MX', 'BR', 'CL', 'PE', 'CR', 'ALL']}
                  {...field('country')}
                />
              </SimpleGrid>
              <Textarea
                label={t('rules.config.inputs')}
                description={t('rules.config.inputsHint')}
                autosize
                minRows={2}
                placeholder="national_id={{.national_id}}"
                {...field('inputs')}
              />
            </>
          )}
          {error && (!error.fields.length || !!unplaced?.length) && <ErrorState error={error} />}
          <Group>
            <Button type="submit" loading={saving} id={`${prefix}-save`}>
              {action ? t('common.save') : t('rules.action.add')}
            </Button>
            {onCancel && (
              <Button variant="default" onClick={onCancel}>
                {t('common.cancel')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
