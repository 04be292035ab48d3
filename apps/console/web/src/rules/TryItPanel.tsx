import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { FormEvent, useState } from 'react';

import { api, ApiError, call, useLoad } from '../api/client';
import { MessageKey } from '../i18n/en';
import { useI18n } from '../i18n/i18n';
import { jsonEqual } from '../shared/logic/logic-tree';
import { ErrorState } from '../shared/states';
import { fieldError, Rule, typeLabel } from './rules-api';

interface DryRun {
  matched: boolean;
  draft: boolean;
  error: string | null;
  event_id: string;
  check_id: string;
  variables: Record<string, unknown>;
  actions: { action_id: string; name: string; type: string; would_run: boolean; reason: string | null }[];
}

const REASONS: Record<string, MessageKey> = {
  condition_false: 'rules.try.reason.condition_false',
  condition_failed: 'rules.try.reason.condition_failed',
  disabled: 'rules.try.reason.disabled',
  depth_limit: 'rules.try.reason.depth_limit',
};

/**
 * "Try it": the rule (with the condition being edited, when it differs from the saved one) against
 * a finished check, showing which actions would run; the account service runs nothing (dry-run).
 */
export function TryItPanel({ rule, draft }: { rule: Rule; draft: unknown }) {
  const { t } = useI18n();
  const recent = useLoad(async () => {
    const page = await call(api.checks.GET('/v1/checks', {}));
    return page.checks.filter((c) => c.status === 'completed' || c.status === 'error');
  }, []);
  const [checkId, setCheckId] = useState('');
  const [result, setResult] = useState<DryRun>();
  const [error, setError] = useState<ApiError>();
  const [running, setRunning] = useState(false);
  const unsaved = draft !== undefined && !jsonEqual(draft, rule.condition);

  const run = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    setResult(undefined);
    setRunning(true);
    try {
      const answer = await call(
        api.account.POST('/v1/bre/rules/{rule_id}/dry-run', {
          params: { path: { rule_id: rule.rule_id } },
          body: { check_id: checkId.trim(), ...(unsaved ? { condition: draft } : {}) },
        }),
      );
      setResult(answer.dry_run);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setRunning(false);
    }
  };

  const choices = recent.data ?? [];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="try-title" data-testid="try-it">
      <form onSubmit={(e) => void run(e)} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4" id="try-title">
            {t('rules.try.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('rules.try.intro')}
          </Text>
          <Group align="end" wrap="wrap">
            {choices.length > 0 && (
              <NativeSelect
                id="try-check"
                label={t('rules.try.recent')}
                value={choices.some((c) => c.check_id === checkId) ? checkId : ''}
                data={[
                  { value: '', label: t('rules.try.choose') },
                  ...choices.map((c) => ({
                    value: c.check_id,
                    label: `${c.check_id} · ${c.country} ${c.type} · ${c.status} · ${c.score ?? '—'}`,
                  })),
                ]}
                onChange={(e) => setCheckId(e.currentTarget.value)}
                maw={520}
              />
            )}
            <TextInput
              id="try-check-id"
              label={t('rules.try.checkId')}
              value={checkId}
              onChange={(e) => setCheckId(e.currentTarget.value)}
              error={fieldError(error, 'check_id')}
              w={340}
            />
            <Button type="submit" id="try-it" loading={running} variant="light">
              {t('rules.try.run')}
            </Button>
          </Group>
          {unsaved && (
            <Text size="xs" c="orange.9">
              {t('rules.try.unsaved')}
            </Text>
          )}
          {error && !fieldError(error, 'check_id') && <ErrorState error={error} />}
          {result && (
            <Stack gap="xs" data-testid="try-result">
              {result.error ? (
                <Alert color="red" title={t('rules.try.failed')}>
                  {result.error}
                </Alert>
              ) : (
                <Alert
                  color={result.matched ? 'green' : 'gray'}
                  title={result.matched ? t('rules.try.matched') : t('rules.try.notMatched')}
                  data-testid="try-verdict"
                >
                  {t('rules.try.nothingRan')}
                </Alert>
              )}
              {result.actions.length > 0 && (
                <Table data-testid="try-actions">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('rules.actions')}</Table.Th>
                      <Table.Th>{t('rules.action.type')}</Table.Th>
                      <Table.Th>{t('rules.try.wouldRun')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {result.actions.map((a) => (
                      <Table.Tr key={a.action_id}>
                        <Table.Td>{a.name}</Table.Td>
                        <Table.Td>{typeLabel(t, a.type)}</Table.Td>
                        <Table.Td>
                          <Badge color={a.would_run ? 'green' : 'gray'} variant="light">
                            {a.would_run ? t('rules.try.yes') : t('rules.try.no')}
                          </Badge>{' '}
                          {a.reason && (
                            <Text span size="sm">
                              {REASONS[a.reason] ? t(REASONS[a.reason]) : a.reason}
                            </Text>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              <details>
                <summary>{t('rules.try.variables')}</summary>
                <Code block>{JSON.stringify(result.variables, null, 2)}</Code>
              </details>
            </Stack>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
