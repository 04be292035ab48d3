import { Anchor, Badge, Button, Group, NativeSelect, Stack, Table, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';

import { api, call, useLoad } from '../api/client';
import { statusColor } from '../checks/status';
import { useI18n } from '../i18n/i18n';
import { EmptyState, Loading } from '../shared/states';

type Status = 'pending' | 'success' | 'failure';
interface Query {
  status?: Status;
  search?: string;
  start_date?: string;
  end_date?: string;
  start_key?: string;
}

const startKeyOf = (next?: string) =>
  next ? (new URL(next, location.origin).searchParams.get('start_key') ?? undefined) : undefined;

/** Identity processes with the API's filters (status, dates, search) and paging. */
export default function ProcessesPage() {
  const { t } = useI18n();
  const [draft, setDraft] = useState<Query>({});
  const [query, setQuery] = useState<Query>({});
  const loaded = useLoad(() => call(api.identity.GET('/v1/processes', { params: { query } })), [query]);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setQuery(Object.fromEntries(Object.entries(draft).filter(([, v]) => v)));
  };
  return (
    <Stack>
      <Title order={2}>{t('processes.title')}</Title>
      <form onSubmit={apply}>
        <Group align="end">
          <NativeSelect
            id="status-filter"
            label={t('common.status')}
            data={[
              { value: '', label: t('common.all') },
              { value: 'pending', label: 'pending' },
              { value: 'success', label: 'success' },
              { value: 'failure', label: 'failure' },
            ]}
            value={draft.status ?? ''}
            onChange={(e) => setDraft({ ...draft, status: (e.currentTarget.value || undefined) as Status })}
          />
          <TextInput
            label="search"
            value={draft.search ?? ''}
            onChange={(e) => setDraft({ ...draft, search: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label={t('common.from')}
            value={draft.start_date ?? ''}
            onChange={(e) => setDraft({ ...draft, start_date: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label={t('common.to')}
            value={draft.end_date ?? ''}
            onChange={(e) => setDraft({ ...draft, end_date: e.currentTarget.value })}
          />
          <Button type="submit" variant="light">
            {t('common.search')}
          </Button>
        </Group>
      </form>
      <Loading loaded={loaded}>
        {(page) =>
          page.processes.length === 0 ? (
            <EmptyState />
          ) : (
            <>
              <Table.ScrollContainer minWidth={640}>
                <Table striped highlightOnHover>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('processes.id')}</Table.Th>
                      <Table.Th>{t('processes.flow')}</Table.Th>
                      <Table.Th>{t('common.status')}</Table.Th>
                      <Table.Th>{t('common.created')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {page.processes.map((p) => (
                      <Table.Tr key={p.process_id}>
                        <Table.Td>
                          <Anchor component={Link} to={`/processes/${p.process_id}`}>
                            {p.process_id}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{p.flow_id}</Table.Td>
                        <Table.Td>
                          <Badge variant="light" color={statusColor(p.status)}>
                            {p.status}
                          </Badge>
                        </Table.Td>
                        <Table.Td>{new Date(p.creation_date).toLocaleString()}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Group>
                {query.start_key && (
                  <Button variant="default" onClick={() => setQuery({ ...query, start_key: undefined })}>
                    {t('common.first')}
                  </Button>
                )}
                {page.next && (
                  <Button variant="default" onClick={() => setQuery({ ...query, start_key: startKeyOf(page.next) })}>
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
