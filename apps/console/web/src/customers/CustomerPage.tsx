import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';

import { useLoad } from '../api/client';
import { statusColor } from '../checks/status';
import { useI18n } from '../i18n/i18n';
import { EmptyState, Loading } from '../shared/states';
import { Customer, customersQueries, sourceLink, startKeyOf } from './queries';

const date = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * A customer profile as the customers service folded it from the services' events: basic info and
 * summary, identities (identifiers and merges), transactions (each linked to the console page of
 * the check or identity process that made it) and tag history.
 */
export default function CustomerPage() {
  const { t } = useI18n();
  const { customerId = '' } = useParams();
  const loaded = useLoad(async () => {
    const [customer, identities] = await Promise.all([
      customersQueries.customer(customerId),
      customersQueries.identities(customerId),
    ]);
    return { customer: customer.customer, identities };
  }, [customerId]);
  return (
    <Loading loaded={loaded}>
      {({ customer, identities }) => (
        <Stack>
          <Title order={2}>{t('customer.title', { name: customer.basic_info.name ?? customer.customer_id })}</Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <BasicInfo customer={customer} />
            <Summary customer={customer} />
          </SimpleGrid>
          <Title order={3}>{t('customer.identities')}</Title>
          {identities.identities.length === 0 ? (
            <EmptyState />
          ) : (
            <Table data-testid="identities">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('customer.identity.kind')}</Table.Th>
                  <Table.Th>{t('customer.identity.value')}</Table.Th>
                  <Table.Th>{t('customer.identity.firstSeen')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {identities.identities.map((i) => (
                  <Table.Tr key={`${i.kind}:${i.value}`}>
                    <Table.Td>{t(`customer.identity.${i.kind}` as 'customer.identity.phone')}</Table.Td>
                    <Table.Td>{i.value}</Table.Td>
                    <Table.Td>{date(i.first_seen_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {identities.merges.length > 0 && (
            <Stack gap={4} data-testid="merges">
              {identities.merges.map((m) => (
                <Text size="sm" key={m.merged_customer_id}>
                  {t('customer.merged', {
                    id: m.merged_customer_id,
                    identifier: m.identifier,
                    when: date(m.merged_at),
                  })}
                </Text>
              ))}
            </Stack>
          )}
          <Transactions customerId={customer.customer_id} />
          <TagHistory customerId={customer.customer_id} tags={customer.tags} />
        </Stack>
      )}
    </Loading>
  );
}

function BasicInfo({ customer }: { customer: Customer }) {
  const { t } = useI18n();
  const b = customer.basic_info;
  const rows: [string, string | null][] = [
    [t('customer.field.name'), b.name],
    [t('customer.field.country'), b.country],
    [t('customer.field.phone'), b.phone],
    [t('customer.field.email'), b.email],
    [t('customer.field.document'), b.document_number ? `${b.document_type ?? ''} ${b.document_number}`.trim() : null],
    [t('customer.field.birthday'), b.birthday],
    [t('customer.field.gender'), b.gender],
  ];
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('customer.basicInfo')}
      </Title>
      <Table variant="vertical" data-testid="basic-info">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={160}>{label}</Table.Th>
              <Table.Td>{value ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

function Summary({ customer }: { customer: Customer }) {
  const { t } = useI18n();
  const s = customer.summary;
  const rows: [string, string | number | null][] = [
    [t('customer.summary.transactions'), s.transactions_count],
    [t('customer.summary.checks'), s.checks_count],
    [
      t('customer.summary.latestCheck'),
      s.latest_check_status && `${s.latest_check_status} (${s.latest_check_score ?? '—'})`,
    ],
    [t('customer.summary.validations'), `${s.validations_count} / ${s.failed_validations_count}`],
    [t('customer.summary.processes'), s.processes_count],
    [t('customer.summary.chats'), s.chats_count],
    [t('customer.summary.last'), date(s.last_transaction_date)],
  ];
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('customer.summary')}
      </Title>
      <Table variant="vertical" data-testid="summary">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={200}>{label}</Table.Th>
              <Table.Td>{value ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

/** The profile's transactions, a page at a time; each names the check or process it came from. */
function Transactions({ customerId }: { customerId: string }) {
  const { t } = useI18n();
  const [startKey, setStartKey] = useState<string>();
  const loaded = useLoad(() => customersQueries.transactions(customerId, startKey), [customerId, startKey]);
  return (
    <Stack gap="xs">
      <Title order={3}>{t('customer.transactions')}</Title>
      <Loading loaded={loaded}>
        {(page) =>
          page.transactions.length === 0 ? (
            <EmptyState />
          ) : (
            <>
              <Table.ScrollContainer minWidth={640}>
                <Table striped data-testid="transactions">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('customer.trx.product')}</Table.Th>
                      <Table.Th>{t('customer.trx.source')}</Table.Th>
                      <Table.Th>{t('common.status')}</Table.Th>
                      <Table.Th>{t('checks.score')}</Table.Th>
                      <Table.Th>{t('customer.trx.when')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {page.transactions.map((trx) => {
                      const link = sourceLink(trx);
                      return (
                        <Table.Tr key={trx.transaction_id}>
                          <Table.Td>{t(`customer.product.${trx.product}` as 'customer.product.check')}</Table.Td>
                          <Table.Td>
                            {link ? (
                              <Anchor component={Link} to={link}>
                                {trx.source_id}
                              </Anchor>
                            ) : (
                              trx.source_id
                            )}
                          </Table.Td>
                          <Table.Td>
                            {trx.status ? (
                              <Badge variant="light" color={statusColor(trx.status)}>
                                {trx.status}
                              </Badge>
                            ) : (
                              '—'
                            )}
                          </Table.Td>
                          <Table.Td>{trx.score ?? '—'}</Table.Td>
                          <Table.Td>{date(trx.occurred_at)}</Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Group>
                {startKey && (
                  <Button variant="default" size="xs" onClick={() => setStartKey(undefined)}>
                    {t('common.first')}
                  </Button>
                )}
                {page.next && (
                  <Button variant="default" size="xs" onClick={() => setStartKey(startKeyOf(page.next))}>
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

function TagHistory({ customerId, tags }: { customerId: string; tags: string[] }) {
  const { t } = useI18n();
  const [startKey, setStartKey] = useState<string>();
  const loaded = useLoad(() => customersQueries.tagHistory(customerId, startKey), [customerId, startKey]);
  return (
    <Stack gap="xs">
      <Title order={3}>{t('customer.tags')}</Title>
      <Group gap="xs" data-testid="tags">
        {tags.length ? (
          tags.map((tag) => <Badge key={tag}>{tag}</Badge>)
        ) : (
          <Text size="sm">{t('customer.noTags')}</Text>
        )}
      </Group>
      <Loading loaded={loaded}>
        {(page) =>
          page.tag_history.length === 0 ? (
            <EmptyState>{t('customer.noTagHistory')}</EmptyState>
          ) : (
            <>
              <Table data-testid="tag-history">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('customer.tag')}</Table.Th>
                    <Table.Th>{t('customer.tag.action')}</Table.Th>
                    <Table.Th>{t('customer.tag.source')}</Table.Th>
                    <Table.Th>{t('customer.trx.when')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.tag_history.map((h) => (
                    <Table.Tr key={`${h.tag}-${h.occurred_at}-${h.action}`}>
                      <Table.Td>{h.tag}</Table.Td>
                      <Table.Td>{h.action}</Table.Td>
                      <Table.Td>{h.source}</Table.Td>
                      <Table.Td>{date(h.occurred_at)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Group>
                {startKey && (
                  <Button variant="default" size="xs" onClick={() => setStartKey(undefined)}>
                    {t('common.first')}
                  </Button>
                )}
                {page.next && (
                  <Button variant="default" size="xs" onClick={() => setStartKey(startKeyOf(page.next))}>
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
