import { Anchor, Button, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import { api, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { EmptyState, Loading } from '../shared/states';
import { Rule } from './rules-api';

/** `start_key` of a `next` link. */
const startKeyOf = (next?: string) =>
  next ? (new URL(next, location.origin).searchParams.get('start_key') ?? undefined) : undefined;

/** The account's business rules: name, condition, version; a new rule. */
export default function RulesPage() {
  const { t } = useI18n();
  const [startKey, setStartKey] = useState<string>();
  const loaded = useLoad(
    () => call(api.account.GET('/v1/bre/rules', { params: { query: { limit: 50, start_key: startKey } } })),
    [startKey],
  );
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('rules.title')}</Title>
        <Button component={Link} to="/rules/new" id="new-rule">
          {t('rules.new')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('rules.intro')}
      </Text>
      <Loading loaded={loaded}>
        {(page) =>
          page.rules.length === 0 ? (
            <EmptyState>{t('rules.empty')}</EmptyState>
          ) : (
            <>
              <Table.ScrollContainer minWidth={640}>
                <Table striped highlightOnHover data-testid="rules-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('common.name')}</Table.Th>
                      <Table.Th>{t('rules.condition')}</Table.Th>
                      <Table.Th>{t('rules.version')}</Table.Th>
                      <Table.Th>{t('rules.updated')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {(page.rules as Rule[]).map((rule) => (
                      <Table.Tr key={rule.rule_id}>
                        <Table.Td>
                          <Anchor component={Link} to={`/rules/${rule.rule_id}`}>
                            {rule.name}
                          </Anchor>
                        </Table.Td>
                        <Table.Td maw={420}>
                          <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                            {JSON.stringify(rule.condition)}
                          </Code>
                        </Table.Td>
                        <Table.Td>{rule.version}</Table.Td>
                        <Table.Td>{new Date(rule.update_date).toLocaleString()}</Table.Td>
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
  );
}
