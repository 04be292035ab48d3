import { Anchor, Badge, Button, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';

import { api, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { EmptyState, Loading } from '../shared/states';
import { statusColor } from './status';

/** `start_key` of a `next` link. */
const startKeyOf = (next?: string) =>
  next ? (new URL(next, location.origin).searchParams.get('start_key') ?? undefined) : undefined;

/** The tenant's checks, newest first, with the list's filter (a batch's report) and paging. */
export default function ChecksPage() {
  const { t } = useI18n();
  const [reportDraft, setReportDraft] = useState('');
  const [query, setQuery] = useState<{ report_id?: string; start_key?: string }>({});
  const loaded = useLoad(() => call(api.checks.GET('/v1/checks', { params: { query } })), [query]);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setQuery({ report_id: reportDraft.trim() || undefined });
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('checks.title')}</Title>
        <Button component={Link} to="/checks/new">
          {t('checks.new')}
        </Button>
      </Group>
      <form onSubmit={apply}>
        <Group align="end">
          <TextInput label="report_id" value={reportDraft} onChange={(e) => setReportDraft(e.currentTarget.value)} />
          <Button type="submit" variant="light">
            {t('common.search')}
          </Button>
        </Group>
      </form>
      <Loading loaded={loaded}>
        {(page) =>
          page.checks.length === 0 ? (
            <EmptyState />
          ) : (
            <>
              <Table.ScrollContainer minWidth={640}>
                <Table striped highlightOnHover data-testid="checks-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('checks.id')}</Table.Th>
                      <Table.Th>{t('checks.country')}</Table.Th>
                      <Table.Th>{t('checks.type')}</Table.Th>
                      <Table.Th>{t('common.status')}</Table.Th>
                      <Table.Th>{t('checks.score')}</Table.Th>
                      <Table.Th>{t('common.created')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {page.checks.map((check) => (
                      <Table.Tr key={check.check_id}>
                        <Table.Td>
                          <Anchor component={Link} to={`/checks/${check.check_id}`}>
                            {check.check_id}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{check.country}</Table.Td>
                        <Table.Td>{check.type}</Table.Td>
                        <Table.Td>
                          <Badge color={statusColor(check.status)} variant="light">
                            {check.status}
                          </Badge>
                        </Table.Td>
                        <Table.Td>{check.score ?? '—'}</Table.Td>
                        <Table.Td>{new Date(check.creation_date).toLocaleString()}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Group>
                {query.start_key && (
                  <Button variant="default" onClick={() => setQuery({ report_id: query.report_id })}>
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
