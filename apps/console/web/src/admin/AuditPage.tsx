import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';

import { api, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { PagedTable, usePaging } from '../shared/PagedTable';

interface Query {
  actor?: string;
  action?: string;
  resource_type?: string;
  since?: string;
  until?: string;
}

/** The account's audit log with its filters (who, what, resource, dates) and paging. */
export default function AuditPage() {
  const { t } = useI18n();
  const [draft, setDraft] = useState<Query>({});
  const paging = usePaging<Query>({});
  const { query } = paging;
  const loaded = useLoad(() => call(api.account.GET('/v1/account/audit-log', { params: { query } })), [query]);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    paging.apply(Object.fromEntries(Object.entries(draft).filter(([, v]) => v)));
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
      <PagedTable
        loaded={loaded}
        paging={paging}
        rows={(page) => page.entries}
        rowKey={(e) => e.audit_id}
        columns={[
          { header: t('audit.when'), cell: (e) => new Date(e.creation_date).toLocaleString() },
          { header: t('audit.actor'), cell: (e) => e.actor_username },
          { header: t('audit.action'), cell: (e) => e.action },
          { header: 'resource', cell: (e) => `${e.resource_type} ${e.resource_id}` },
          { header: t('common.reason'), cell: (e) => (typeof e.reason === 'string' ? e.reason : '') },
        ]}
      />
    </Stack>
  );
}
