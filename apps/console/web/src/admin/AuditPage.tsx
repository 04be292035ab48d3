import { Button, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';

import { api, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { EmptyState, Loading } from '../shared/states';

interface Query {
  actor?: string;
  action?: string;
  resource_type?: string;
  since?: string;
  until?: string;
  start_key?: string;
}
const startKeyOf = (next?: string) =>
  next ? (new URL(next, location.origin).searchParams.get('start_key') ?? undefined) : undefined;

/** The account's audit log with its filters (who, what, resource, dates) and paging. */
export default function AuditPage() {
  const { t } = useI18n();
  const [draft, setDraft] = useState<Query>({});
  const [query, setQuery] = useState<Query>({});
  const loaded = useLoad(() => call(api.account.GET('/v1/account/audit-log', { params: { query } })), [query]);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setQuery(Object.fromEntries(Object.entries(draft).filter(([, v]) => v)));
  };
  const input = (name: keyof Query, label: string, type = 'text') => (
    <TextInput
      type={type}
      label={label}
      value={draft[name] ?? ''}
      onChange={(e) => setDraft({ ...draft, [name]: e.currentTarget.value })}
    />
  );
  return (
    <Stack>
      <Title order={2}>{t('audit.title')}</Title>
      <form onSubmit={apply}>
        <Group align="end">
          {input('actor', t('audit.actor'))}
          {input('action', t('audit.action'))}
          {input('resource_type', 'resource_type')}
          {input('since', t('common.from'), 'date')}
          {input('until', t('common.to'), 'date')}
          <Button type="submit" variant="light">
            {t('common.search')}
          </Button>
        </Group>
      </form>
      <Loading loaded={loaded}>
        {(page) =>
          page.entries.length === 0 ? (
            <EmptyState />
          ) : (
            <>
              <Table.ScrollContainer minWidth={640}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('audit.when')}</Table.Th>
                      <Table.Th>{t('audit.actor')}</Table.Th>
                      <Table.Th>{t('audit.action')}</Table.Th>
                      <Table.Th>resource</Table.Th>
                      <Table.Th>{t('common.reason')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {page.entries.map((e) => (
                      <Table.Tr key={e.audit_id}>
                        <Table.Td>{new Date(e.creation_date).toLocaleString()}</Table.Td>
                        <Table.Td>{e.actor_username}</Table.Td>
                        <Table.Td>{e.action}</Table.Td>
                        <Table.Td>
                          {e.resource_type} {e.resource_id}
                        </Table.Td>
                        <Table.Td>{typeof e.reason === 'string' ? e.reason : ''}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              {page.next && (
                <Button variant="default" onClick={() => setQuery({ ...query, start_key: startKeyOf(page.next) })}>
                  {t('common.next')}
                </Button>
              )}
            </>
          )
        }
      </Loading>
    </Stack>
  );
}
