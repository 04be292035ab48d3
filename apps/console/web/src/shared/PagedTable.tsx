import { Button, Group, Table } from '@mantine/core';
import { ReactNode, useState } from 'react';

import { Loaded } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { EmptyState, Loading } from './states';

/** A list answer of the services: its items under some name, and a `next` link while there are more. */
export interface ListPage {
  next?: string;
}

/** The `start_key` of a list answer's `next` link (the one pagination helper of the console). */
export const startKeyOf = (next?: string): string | undefined =>
  next ? (new URL(next, location.origin).searchParams.get('start_key') ?? undefined) : undefined;

/**
 * The filters of a list page and the page it shows: `apply` sets new filters from the first page,
 * `next` moves on with the answer's `next` link, `first` goes back to the first page.
 */
export function usePaging<F extends object>(initial: F) {
  const [query, setQuery] = useState<F & { start_key?: string }>(initial);
  return {
    query,
    apply: (filters: F) => setQuery({ ...filters }),
    next: (page: ListPage) => setQuery({ ...query, start_key: startKeyOf(page.next) }),
    first: () => setQuery({ ...query, start_key: undefined }),
  };
}

export interface Column<T> {
  header: ReactNode;
  cell: (row: T) => ReactNode;
}

/**
 * Every list page's table: the loading, error (with retry) and empty states, the rows, and the
 * first/next page buttons of the API's keyset paging.
 */
export function PagedTable<P extends ListPage, T>({
  loaded,
  rows,
  rowKey,
  columns,
  paging,
  testId,
  empty,
}: {
  loaded: Loaded<P>;
  rows: (page: P) => T[];
  rowKey: (row: T) => string;
  columns: Column<T>[];
  paging: { query: { start_key?: string }; next: (page: P) => void; first: () => void };
  testId?: string;
  empty?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Loading loaded={loaded}>
      {(page) =>
        rows(page).length === 0 && !paging.query.start_key ? (
          <EmptyState>{empty}</EmptyState>
        ) : (
          <>
            <Table.ScrollContainer minWidth={640}>
              <Table striped highlightOnHover data-testid={testId}>
                <Table.Thead>
                  <Table.Tr>
                    {columns.map((c, i) => (
                      <Table.Th key={i}>{c.header}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows(page).map((row) => (
                    <Table.Tr key={rowKey(row)}>
                      {columns.map((c, i) => (
                        <Table.Td key={i}>{c.cell(row)}</Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Group>
              {paging.query.start_key && (
                <Button variant="default" onClick={paging.first}>
                  {t('common.first')}
                </Button>
              )}
              {page.next && (
                <Button variant="default" onClick={() => paging.next(page)} data-testid="next-page">
                  {t('common.next')}
                </Button>
              )}
            </Group>
          </>
        )
      }
    </Loading>
  );
}
