import { Anchor, Badge, Button, Card, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { api, ApiError, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { LogicEditor, LogicVariable } from '../shared/logic/LogicEditor';
import { ErrorState, Loading } from '../shared/states';
import { ActionForm } from './ActionForm';
import { EnvVarsDisclosure } from './EnvVarsPanel';
import { ExecutionsPanel } from './ExecutionsPanel';
import { Action, EVENT_TYPE, loadVariables, Rule, typeLabel } from './rules-api';
import { TryItPanel } from './TryItPanel';

/** A rule: its name and condition (the visual editor), its actions, "try it" and its executions. `/rules/new` creates one. */
export default function RulePage() {
  const { ruleId } = useParams();
  const creating = !ruleId || ruleId === 'new';
  const [round, setRound] = useState(0);
  const loaded = useLoad(async () => {
    const [variables, rule] = await Promise.all([
      loadVariables(),
      creating
        ? Promise.resolve(undefined)
        : call(api.account.GET('/v1/bre/rules/{rule_id}', { params: { path: { rule_id: ruleId } } })).then(
            (r) => r.rule as Rule,
          ),
    ]);
    return { variables, rule };
  }, [ruleId, round]);
  return (
    <Loading loaded={loaded}>
      {({ variables, rule }) => (
        <RuleView
          key={rule?.rule_id ?? 'new'}
          rule={rule}
          variables={variables}
          reload={() => setRound((r) => r + 1)}
        />
      )}
    </Loading>
  );
}

function RuleView({ rule, variables, reload }: { rule?: Rule; variables: LogicVariable[]; reload: () => void }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [name, setName] = useState(rule?.name ?? '');
  const [condition, setCondition] = useState<unknown>(rule?.condition);
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  useEffect(() => setSaved(false), [name, condition]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    setSaving(true);
    try {
      if (rule) {
        await call(
          api.account.PUT('/v1/bre/rules/{rule_id}', {
            params: { path: { rule_id: rule.rule_id } },
            body: { name: name.trim(), condition },
          }),
        );
        setSaved(true);
        reload();
      } else {
        const created = await call(
          api.account.POST('/v1/bre/rules', { body: { name: name.trim(), event_type: EVENT_TYPE, condition } }),
        );
        void navigate(`/rules/${created.rule.rule_id}`);
      }
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!rule || !window.confirm(t('rules.deleteConfirm'))) return;
    try {
      await call(api.account.DELETE('/v1/bre/rules/{rule_id}', { params: { path: { rule_id: rule.rule_id } } }));
      void navigate('/rules');
    } catch (err) {
      setError(err as ApiError);
    }
  };

  const conditionError = error?.field('condition');
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{rule ? rule.name : t('rules.new')}</Title>
        <Anchor component={Link} to="/rules">
          {t('rules.back')}
        </Anchor>
      </Group>
      {rule && (
        <Text size="sm" c="dimmed" data-testid="rule-meta">
          {rule.rule_id} · {t('rules.version')} {rule.version} · {EVENT_TYPE}
        </Text>
      )}
      <Paper withBorder p="md" component="section" aria-labelledby="rule-form-title">
        <form onSubmit={(e) => void save(e)} noValidate>
          <Stack gap="sm">
            <Title order={3} size="h4" id="rule-form-title">
              {t('rules.definition')}
            </Title>
            <TextInput
              id="rule-name"
              label={t('common.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={error?.field('name')}
              maw={480}
            />
            <Text size="sm" fw={500}>
              {t('rules.condition')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('rules.conditionHint')}
            </Text>
            <LogicEditor
              value={condition}
              onChange={setCondition}
              variables={variables}
              aria-label={t('rules.condition')}
            />
            {conditionError && (
              <Text size="sm" c="red" role="alert" id="rule-condition-error">
                {conditionError}
              </Text>
            )}
            {error && !error.fields.length && <ErrorState error={error} />}
            <Group>
              <Button type="submit" id="save-rule" loading={saving}>
                {rule ? t('common.save') : t('common.create')}
              </Button>
              {saved && (
                <Text size="sm" c="green.8" role="status">
                  {t('rules.saved')}
                </Text>
              )}
              {rule && (
                <Button variant="subtle" color="red" onClick={() => void remove()}>
                  {t('rules.delete')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Paper>
      {rule && (
        <>
          <ActionsSection rule={rule} reload={reload} />
          <TryItPanel rule={rule} draft={condition} />
          <ExecutionsPanel rule={rule} />
        </>
      )}
    </Stack>
  );
}

function ActionsSection({ rule, reload }: { rule: Rule; reload: () => void }) {
  const { t } = useI18n();
  const [editing, setEditing] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const actions = rule.actions ?? [];
  const setStatus = async (action: Action, enabled: boolean) => {
    setError(undefined);
    try {
      await call(
        api.account.PUT('/v1/bre/rules/{rule_id}/actions/{action_id}', {
          params: { path: { rule_id: rule.rule_id, action_id: action.action_id } },
          body: { status: enabled ? 'enabled' : 'disabled' },
        }),
      );
      reload();
    } catch (err) {
      setError(err as ApiError);
    }
  };
  const remove = async (action: Action) => {
    if (!window.confirm(t('rules.action.deleteConfirm'))) return;
    setError(undefined);
    try {
      await call(
        api.account.DELETE('/v1/bre/rules/{rule_id}/actions/{action_id}', {
          params: { path: { rule_id: rule.rule_id, action_id: action.action_id } },
        }),
      );
      reload();
    } catch (err) {
      setError(err as ApiError);
    }
  };
  return (
    <Stack component="section" aria-labelledby="actions-title" gap="sm">
      <Title order={3} size="h4" id="actions-title">
        {t('rules.actions')}
      </Title>
      {actions.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="empty-state">
          {t('rules.actionsEmpty')}
        </Text>
      )}
      {error && <ErrorState error={error} />}
      {actions.map((action) =>
        editing === action.action_id ? (
          <ActionForm
            key={action.action_id}
            ruleId={rule.rule_id}
            action={action}
            onSaved={() => {
              setEditing(undefined);
              reload();
            }}
            onCancel={() => setEditing(undefined)}
          />
        ) : (
          <Card withBorder key={action.action_id} data-testid="action-item">
            <Group justify="space-between" wrap="wrap">
              <Group gap="sm">
                <Text fw={600}>{action.name}</Text>
                <Badge variant="light">{typeLabel(t, action.type)}</Badge>
                <Text size="xs" c="dimmed">
                  {action.action_id}
                </Text>
              </Group>
              <Group gap="sm">
                <Switch
                  id={`enabled-${action.action_id}`}
                  label={action.status === 'enabled' ? t('rules.action.enabled') : t('rules.action.disabled')}
                  checked={action.status === 'enabled'}
                  onChange={(e) => void setStatus(action, e.currentTarget.checked)}
                />
                <Button size="xs" variant="light" onClick={() => setEditing(action.action_id)}>
                  {t('rules.action.editButton')}
                </Button>
                <Button size="xs" variant="subtle" color="red" onClick={() => void remove(action)}>
                  {t('logic.remove')}
                </Button>
              </Group>
            </Group>
            <Text size="xs" c="dimmed" mt={4} style={{ wordBreak: 'break-all' }}>
              {summary(action)}
            </Text>
            <EnvVarsDisclosure ruleId={rule.rule_id} actionId={action.action_id} />
          </Card>
        ),
      )}
      <ActionForm key={actions.length} ruleId={rule.rule_id} onSaved={reload} />
    </Stack>
  );
}

/** One line about what an action does. */
function summary(action: Action): string {
  const c = action.config;
  const s = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  if (action.type === 'http_request') return `${s(c.method ?? 'POST')} ${s(c.url)}`;
  if (action.type === 'email') return `→ ${Array.isArray(c.to) ? c.to.map(s).join(', ') : s(c.to)}: ${s(c.subject)}`;
  return `${s(c.type)} ${s(c.country)} ${JSON.stringify(c.inputs ?? {})}`;
}
