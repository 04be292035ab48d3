import { Table } from '@mantine/core';

import { useInboxT } from './messages';
import { GroupCounters } from './queries';

/**
 * The queues' counters (engagement's GET /v1/engagement/agent/groups/counters): one row per queue, then
 * the account's total (agents of no group serve every queue, so they count in the total only).
 */
export function CountersTable({ groups, total }: { groups: GroupCounters[]; total?: Omit<GroupCounters, 'group'> }) {
  const t = useInboxT();
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table data-testid="counters">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('counters.group')}</Table.Th>
            <Table.Th>{t('counters.online')}</Table.Th>
            <Table.Th>{t('counters.offline')}</Table.Th>
            <Table.Th>{t('counters.enqueued')}</Table.Th>
            <Table.Th>{t('counters.assigned')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((g) => (
            <Table.Tr key={g.group} data-group={g.group}>
              <Table.Td>{g.group}</Table.Td>
              <Table.Td>{g.agents_online}</Table.Td>
              <Table.Td>{g.agents_offline}</Table.Td>
              <Table.Td data-testid="enqueued">{g.chats_enqueued}</Table.Td>
              <Table.Td>{g.chats_assigned}</Table.Td>
            </Table.Tr>
          ))}
          {total && (
            <Table.Tr data-group="" fw={600}>
              <Table.Td>{t('counters.total')}</Table.Td>
              <Table.Td>{total.agents_online}</Table.Td>
              <Table.Td>{total.agents_offline}</Table.Td>
              <Table.Td data-testid="enqueued">{total.chats_enqueued}</Table.Td>
              <Table.Td>{total.chats_assigned}</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
