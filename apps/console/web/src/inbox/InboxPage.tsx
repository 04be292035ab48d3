import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { ReactElement, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';

import { ApiError, useLoad } from '../api/client';
import { useSession } from '../auth/session';
import { EmptyState, ErrorState, Loading } from '../shared/states';
import { Activity, ChannelState, InboxEvent, useChannel, useInboxEvents } from './channel';
import { CountersTable } from './CountersTable';
import { useInboxT } from './messages';
import { Chat, inbox } from './queries';

const FEED_SIZE = 100;

interface FeedItem {
  activity: Activity;
  owner: string | null;
}

export function ChannelBadge({ state }: { state: ChannelState }) {
  const t = useInboxT();
  const color = state === 'open' ? 'green' : state === 'connecting' ? 'gray' : 'orange';
  return (
    <Badge color={color} variant="light" aria-live="polite" data-testid="channel-state" data-state={state}>
      {t(`channel.${state}`)}
    </Badge>
  );
}

/**
 * The agent's inbox: her status, the queues' counters, her open chats and the queued ones, and the
 * latest messages as they arrive (pushed by the server; the lists reload on each chat event).
 */
export default function InboxPage() {
  const t = useInboxT();
  const session = useSession();
  const username = session.me!.username.toLowerCase();
  const channel = useChannel();
  const [round, setRound] = useState(0);
  const lists = useLoad(
    () =>
      Promise.all([inbox.me(username), inbox.myChats(username), inbox.queued(), inbox.counters()]).then(
        ([me, mine, queued, counters]) => ({ me, mine, queued, counters }),
      ),
    [username, channel.generation, round],
  );
  const [unread, setUnread] = useState<Record<string, number>>({});
  const [feed, setFeed] = useState<FeedItem[]>([]);
  const [statusError, setStatusError] = useState<ApiError>();
  const [takeError, setTakeError] = useState<ApiError>();
  const reloadTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // Chat events change the lists: reload them once the burst is over.
  const reloadSoon = useCallback(() => {
    clearTimeout(reloadTimer.current);
    reloadTimer.current = setTimeout(() => setRound((r) => r + 1), 250);
  }, []);
  useEffect(() => () => clearTimeout(reloadTimer.current), []);

  useInboxEvents((e: InboxEvent) => {
    if (e.type === 'message.received' && e.data.activity) {
      const activity = e.data.activity;
      setFeed((f) =>
        f.some((x) => x.activity.activity_id === activity.activity_id)
          ? f
          : [{ activity, owner: e.data.owner }, ...f].slice(0, FEED_SIZE),
      );
      setUnread((u) => ({ ...u, [e.data.chat_id]: (u[e.data.chat_id] ?? 0) + 1 }));
    } else if (e.type !== 'message.status') reloadSoon();
  });

  const setStatus = async (online: boolean) => {
    setStatusError(undefined);
    try {
      await inbox.setStatus(username, online ? 'online' : 'offline');
      setRound((r) => r + 1);
    } catch (err) {
      setStatusError(err as ApiError);
    }
  };
  const take = async (chat: Chat) => {
    setTakeError(undefined);
    try {
      await inbox.update(chat.chat_id, { owner: username });
      setRound((r) => r + 1);
    } catch (err) {
      setTakeError(err as ApiError);
    }
  };

  const chatTable = (chats: Chat[], testId: string, action?: (c: Chat) => ReactElement) => (
    <Table.ScrollContainer minWidth={480}>
      <Table striped highlightOnHover data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('chat.contact')}</Table.Th>
            <Table.Th>{t('chat.lastActivity')}</Table.Th>
            {action && <Table.Th />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {chats.map((c) => (
            <Table.Tr key={c.chat_id} data-chat-id={c.chat_id}>
              <Table.Td>
                <Anchor component={Link} to={`/inbox/chats/${c.chat_id}`}>
                  {c.contact.name ?? c.contact.phone}
                </Anchor>{' '}
                {unread[c.chat_id] ? (
                  <Badge size="sm" color="blue">
                    {t('chat.unread', { count: unread[c.chat_id] })}
                  </Badge>
                ) : null}
                <Text size="xs" c="dimmed">
                  {c.contact.phone}
                </Text>
              </Table.Td>
              <Table.Td>{new Date(c.last_activity.date).toLocaleTimeString()}</Table.Td>
              {action && <Table.Td>{action(c)}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Group>
          <Title order={2}>{t('title')}</Title>
          <ChannelBadge state={channel.state} />
        </Group>
        {session.can('engagement.agents.manage') && (
          <Button component={Link} to="/inbox/manage" variant="light">
            {t('manage.link')}
          </Button>
        )}
      </Group>
      <Loading loaded={lists}>
        {({ me, mine, queued, counters }) => (
          <Stack>
            <Card withBorder>
              <Group justify="space-between">
                <Switch
                  label={t('me.statusLabel')}
                  checked={me?.status === 'online'}
                  onChange={(e) => void setStatus(e.currentTarget.checked)}
                  data-testid="online-switch"
                />
                <Group gap="xs">
                  <Badge color={me?.status === 'online' ? 'green' : 'gray'} variant="light" data-testid="my-status">
                    {me?.status === 'online' ? t('me.online') : t('me.offline')}
                  </Badge>
                  {me && <Text size="sm">{t('me.load', { active: me.active_chats, capacity: me.capacity })}</Text>}
                </Group>
              </Group>
              {!me && (
                <Text size="sm" c="dimmed" mt="xs">
                  {t('me.notAgent')}
                </Text>
              )}
              {statusError && <ErrorState error={statusError} />}
            </Card>
            <SimpleGrid cols={{ base: 1, lg: 2 }}>
              <Stack gap="xs">
                <Title order={3} size="h4">
                  {t('mine.title', { count: mine.length })}
                </Title>
                {mine.length ? chatTable(mine, 'my-chats') : <EmptyState>{t('mine.empty')}</EmptyState>}
              </Stack>
              <Stack gap="xs">
                <Title order={3} size="h4">
                  {t('queue.title', { count: queued.length })}
                </Title>
                {takeError && <ErrorState error={takeError} />}
                {queued.length ? (
                  chatTable(queued, 'queued-chats', (c) => (
                    <Button size="xs" variant="light" onClick={() => void take(c)}>
                      {t('queue.take')}
                    </Button>
                  ))
                ) : (
                  <EmptyState>{t('queue.empty')}</EmptyState>
                )}
              </Stack>
            </SimpleGrid>
            <Stack gap="xs">
              <Title order={3} size="h4">
                {t('counters.title')}
              </Title>
              <CountersTable groups={counters.groups} total={counters.total} />
            </Stack>
          </Stack>
        )}
      </Loading>
      <Stack gap="xs">
        <Title order={3} size="h4">
          {t('feed.title')}
        </Title>
        {feed.length === 0 ? (
          <EmptyState>{t('feed.empty')}</EmptyState>
        ) : (
          <ul className="inbox-feed" data-testid="feed" aria-live="polite">
            {feed.map(({ activity, owner }) => (
              <li key={activity.activity_id} data-message-id={activity.message_id ?? ''} data-owner={owner ?? ''}>
                <Anchor component={Link} to={`/inbox/chats/${activity.chat_id}`} size="sm">
                  {activity.actor}
                </Anchor>{' '}
                <Text span size="sm">
                  {activity.text}
                </Text>{' '}
                <Text span size="xs" c="dimmed">
                  {new Date(activity.creation_date).toLocaleTimeString()}
                </Text>
              </li>
            ))}
          </ul>
        )}
      </Stack>
    </Stack>
  );
}
