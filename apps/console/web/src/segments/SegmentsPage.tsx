import { Anchor, Badge, Button, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';

import { useLoad } from '../api/client';
import { statusColor } from '../checks/status';
import { startKeyOf } from '../customers/queries';
import { useI18n } from '../i18n/i18n';
import { EmptyState, Loading } from '../shared/states';
import { segmentsQueries } from './queries';

/** The tenant's segments with their last compute; a filter by name. */
export default function SegmentsPage() {
  const { t } = useI18n();
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState<{ name?: string; start_key?: string }>({});
  const loaded = useLoad(() => segmentsQueries.list(query), [query]);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setQuery({ name: draft.trim() || undefined });
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('segments.title')}</Title>
        <Button component={Link} to="/segments/new" id="new-segment">
          {t('segments.new')}
        </Button>
      </Group>
      <form onSubmit={apply} role="search">
        <Group align="end">
          <TextInput
            id="segment-filter"
            label={t('segments.filter')}
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
          />
          <Button type="submit" variant="light">
            {t('common.search')}
          </Button>
        </Group>
      </form>
      <Loading loaded={loaded}>
        {(page) =>
          page.segments.length === 0 ? (
            <EmptyState>{t('segments.empty')}</EmptyState>
          ) : (
            <>
              <Table.ScrollContainer minWidth={640}>
                <Table striped highlightOnHover data-testid="segments-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('common.name')}</Table.Th>
                      <Table.Th>{t('segments.members')}</Table.Th>
                      <Table.Th>{t('segments.compute')}</Table.Th>
                      <Table.Th>{t('segments.computedAt')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {page.segments.map((s) => (
                      <Table.Tr key={s.segment_id}>
                        <Table.Td>
                          <Anchor component={Link} to={`/segments/${s.segment_id}`}>
                            {s.name}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{s.members_count}</Table.Td>
                        <Table.Td>
                          <Badge variant="light" color={statusColor(s.compute.status)}>
                            {t(`segments.status.${s.compute.status}` as 'segments.status.completed')}
                          </Badge>
                        </Table.Td>
                        <Table.Td>{s.computed_at ? new Date(s.computed_at).toLocaleString() : '—'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Group>
                {query.start_key && (
                  <Button variant="default" onClick={() => setQuery({ name: query.name })}>
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
