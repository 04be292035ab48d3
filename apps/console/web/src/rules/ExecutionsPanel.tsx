import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import { api, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { EmptyState, Loading } from '../shared/states';
import { Rule, typeLabel } from './rules-api';

const OUTCOME_COLOR: Record<string, string> = {
  succeeded: 'green',
  failed: 'red',
  retrying: 'orange',
  running: 'blue',
  pending: 'yellow',
  skipped: 'gray',
};

const OUTCOMES = ['succeeded', 'failed', 'retrying', 'running', 'pending', 'skipped'] as const;

const startKeyOf = (next?: string) =>
  next ? (new URL(next, location.origin).searchParams.get('start_key') ?? undefined) : undefined;

/** The rule's executions, newest first: outcome, attempts (retries), the delivery's answer and error. */
export function ExecutionsPanel({ rule }: { rule: Rule }) {
  const { t } = useI18n();
  const [round, setRound] = useState(0);
  const [startKey, setStartKey] = useState<string>();
  const loaded = useLoad(
    () =>
      call(
        api.account.GET('/v1/bre/rules/{rule_id}/executions', {
          params: { path: { rule_id: rule.rule_id }, query: { limit: 20, start_key: startKey } },
        }),
      ),
    [rule.rule_id, startKey, round],
  );
  const names = new Map((rule.actions ?? []).map((a) => [a.action_id, a.name]));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="executions-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4" id="executions-title">
            {t('rules.executions')}
          </Title>
          <Button size="xs" variant="default" id="reload-executions" onClick={() => setRound((r) => r + 1)}>
            {t('rules.reload')}
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {t('rules.executionsHint')}
        </Text>
        <Loading loaded={loaded}>
          {(page) =>
            page.executions.length === 0 ? (
              <EmptyState>{t('rules.executionsEmpty')}</EmptyState>
            ) : (
              <>
                <Table.ScrollContainer minWidth={820}>
                  <Table striped data-testid="executions-table">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('common.created')}</Table.Th>
                        <Table.Th>{t('rules.actions')}</Table.Th>
                        <Table.Th>{t('checks.id')}</Table.Th>
                        <Table.Th>{t('rules.exec.outcome')}</Table.Th>
                        <Table.Th>{t('rules.exec.attempts')}</Table.Th>
                        <Table.Th>{t('rules.exec.response')}</Table.Th>
                        <Table.Th>{t('rules.exec.error')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {page.executions.map((x) => (
                        <Table.Tr key={x.execution_id} data-testid="execution-row">
                          <Table.Td>{new Date(x.creation_date).toLocaleString()}</Table.Td>
                          <Table.Td>
                            {names.get(x.action_id) ?? x.action_id}
                            <Text size="xs" c="dimmed">
                              {typeLabel(t, x.action_type)} · v{x.rule_version}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <Anchor component={Link} to={`/checks/${x.check_id}`} size="sm">
                              {x.check_id}
                            </Anchor>
                            {x.created_check_id && (
                              <Text size="xs">
                                →{' '}
                                <Anchor component={Link} to={`/checks/${x.created_check_id}`}>
                                  {x.created_check_id}
                                </Anchor>
                              </Text>
                            )}
                          </Table.Td>
                          <Table.Td>
                            <Badge color={OUTCOME_COLOR[x.outcome] ?? 'gray'} variant="light">
                              {OUTCOMES.includes(x.outcome) ? t(`rules.outcome.${x.outcome}`) : x.outcome}
                            </Badge>
                          </Table.Td>
                          <Table.Td>{x.attempts}</Table.Td>
                          <Table.Td>{x.response_status ?? '—'}</Table.Td>
                          <Table.Td maw={320} style={{ wordBreak: 'break-word' }}>
                            {x.error ?? '—'}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
                <Group>
                  {startKey && (
                    <Button variant="default" onClick={() => setStartKey(undefined)}>
                      {t('common.first')}
                    </Button>
                  )}
                  {page.next && (
                    <Button variant="default" onClick={() => setStartKey(startKeyOf(page.next))}>
                      {t('common.next')}
                    </Button>
                  )}
                </Group>
              </>
            )
          }
        </Loading>
      </Stack>
    </Paper>
  );
}
