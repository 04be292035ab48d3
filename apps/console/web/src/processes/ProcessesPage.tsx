import { Anchor, Badge, Button, Group, NativeSelect, Stack, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';

import { api, call, useLoad } from '../api/client';
import { statusColor } from '../checks/status';
import { useI18n } from '../i18n/i18n';
import { PagedTable, usePaging } from '../shared/PagedTable';

type Status = 'pending' | 'success' | 'failure';
interface Filters {
  status?: Status;
  search?: string;
  start_date?: string;
  end_date?: string;
}

/** Identity processes with the API's filters (status, dates, search) and paging. */
export default function ProcessesPage() {
  const { t } = useI18n();
  const [draft, setDraft] = useState<Filters>({});
  const paging = usePaging<Filters>({});
  const { query } = paging;
  const loaded = useLoad(() => call(api.identity.GET('/v1/processes', { params: { query } })), [query]);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    paging.apply(Object.fromEntries(Object.entries(draft).filter(([, v]) => v)));
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
      <PagedTable
        loaded={loaded}
        paging={paging}
        testId="processes-table"
        rows={(page) => page.processes}
        rowKey={(p) => p.process_id}
        columns={[
          {
            header: t('processes.id'),
            cell: (p) => (
              <Anchor component={Link} to={`/processes/${p.process_id}`}>
                {p.process_id}
              </Anchor>
            ),
          },
          { header: t('processes.flow'), cell: (p) => p.flow_id },
          {
            header: t('common.status'),
            cell: (p) => (
              <Badge variant="light" color={statusColor(p.status)}>
                {p.status}
              </Badge>
            ),
          },
          { header: t('common.created'), cell: (p) => new Date(p.creation_date).toLocaleString() },
        ]}
      />
    </Stack>
  );
}
