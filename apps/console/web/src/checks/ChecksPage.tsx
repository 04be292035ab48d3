import { Anchor, Badge, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';

import { api, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { PagedTable, usePaging } from '../shared/PagedTable';
import { statusColor } from './status';

/** The tenant's checks, newest first, with the list's filter (a batch's report) and paging. */
export default function ChecksPage() {
  const { t } = useI18n();
  const [reportDraft, setReportDraft] = useState('');
  const paging = usePaging<{ report_id?: string }>({});
  const { query } = paging;
  const loaded = useLoad(() => call(api.checks.GET('/v1/checks', { params: { query } })), [query]);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    paging.apply({ report_id: reportDraft.trim() || undefined });
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('checks.title')}</Title>
        <Group>
          <Button component={Link} to="/checks/batches" variant="default">
            {t('nav.batches')}
          </Button>
          <Button component={Link} to="/checks/continuous" variant="default">
            {t('nav.continuous')}
          </Button>
          <Button component={Link} to="/checks/new">
            {t('checks.new')}
          </Button>
        </Group>
      </Group>
      <form onSubmit={apply}>
        <Group align="end">
          <TextInput label="report_id" value={reportDraft} onChange={(e) => setReportDraft(e.currentTarget.value)} />
          <Button type="submit" variant="light">
            {t('common.search')}
          </Button>
        </Group>
      </form>
      <PagedTable
        loaded={loaded}
        paging={paging}
        testId="checks-table"
        rows={(page) => page.checks}
        rowKey={(check) => check.check_id}
        columns={[
          {
            header: t('checks.id'),
            cell: (check) => (
              <Anchor component={Link} to={`/checks/${check.check_id}`}>
                {check.check_id}
              </Anchor>
            ),
          },
          { header: t('checks.country'), cell: (check) => check.country },
          { header: t('checks.type'), cell: (check) => check.type },
          {
            header: t('common.status'),
            cell: (check) => (
              <Badge color={statusColor(check.status)} variant="light">
                {check.status}
              </Badge>
            ),
          },
          { header: t('checks.score'), cell: (check) => check.score ?? '—' },
          { header: t('common.created'), cell: (check) => new Date(check.creation_date).toLocaleString() },
        ]}
      />
    </Stack>
  );
}
