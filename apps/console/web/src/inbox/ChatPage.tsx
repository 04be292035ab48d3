import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { FormEvent, ReactNode, useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';

import { ApiError, useLoad } from '../api/client';
import { useSession } from '../auth/session';
import { EmptyState, ErrorState, Loading } from '../shared/states';
import { Activity, useChannel, useInboxEvents } from './channel';
import { ChannelBadge } from './InboxPage';
import { useInboxT } from './messages';
import { Chat, inbox, SESSION_WINDOW_MS, templateVariables } from './queries';

/** A button's action: runs it, shows its refusal in words next to it, or "done". */
function useAction(after: () => void) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const run = async (work: () => Promise<unknown>) => {
    setError(undefined);
    setDone(false);
    setBusy(true);
    try {
      await work();
      setDone(true);
      after();
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, String(err), 'unreachable'));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, done, run };
}

function Bubble({ a }: { a: Activity }) {
  const t = useInboxT();
  if (a.activity_type === 'note')
    return (
      <Alert color="yellow" title={`${t('chat.note')} · ${a.actor ?? ''}`} data-activity-id={a.activity_id}>
        {a.text}
      </Alert>
    );
  if (a.activity_type !== 'message') {
    const text =
      a.activity_type === 'assignment'
        ? t('chat.assignedTo', { owner: a.owner ?? '' })
        : a.chat_status
          ? t('chat.statusChange', { status: a.chat_status })
          : t('chat.messageStatus', { status: a.message_status ?? '' });
    return (
      <Text size="xs" c="dimmed" ta="center" data-activity-id={a.activity_id}>
        {text} · {new Date(a.creation_date).toLocaleTimeString()}
        {a.activity_type === 'status_change' && a.text ? ` · ${a.text}` : ''}
      </Text>
    );
  }
  const mine = a.actor_type !== 'user';
  return (
    <Group justify={mine ? 'flex-end' : 'flex-start'}>
      <Card
        withBorder
        padding="xs"
        maw="75%"
        bg={mine ? 'var(--mantine-color-blue-light)' : undefined}
        data-activity-id={a.activity_id}
        data-message-id={a.message_id ?? ''}
      >
        <MessageText text={a.text ?? ''} />
        <Text size="xs" c="dimmed">
          {a.actor} · {new Date(a.creation_date).toLocaleTimeString()}
          {mine && a.message_status ? (
            <Badge
              ml="xs"
              size="xs"
              variant="light"
              color={a.message_status === 'failed' ? 'red' : 'gray'}
              data-testid="message-status"
            >
              {a.message_status}
            </Badge>
          ) : null}
        </Text>
      </Card>
    </Group>
  );
}

/** A message's text; links to media (images, video, documents) shown as such. */
function MessageText({ text }: { text: string }) {
  const media = /^https?:\/\/\S+$/.test(text.trim()) ? text.trim() : undefined;
  if (media && /\.(png|jpe?g|gif|webp)(\?|$)/i.test(media))
    return <img src={media} alt="" style={{ maxWidth: '100%', maxHeight: 240 }} />;
  if (media && /\.(mp4|3gp)(\?|$)/i.test(media)) return <video src={media} controls style={{ maxWidth: '100%' }} />;
  if (media)
    return (
      <Anchor href={media} target="_blank" rel="noreferrer">
        {media}
      </Anchor>
    );
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
      {text}
    </Text>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/**
 * A chat: the conversation (pushed as it happens), the 24-hour window's state, the reply (free text
 * inside the window, an approved template with its variables at any time), internal notes, tags,
 * close and reopen, hand over, force-dequeue (managers). Every refusal is shown in words.
 */
export default function ChatPage() {
  const t = useInboxT();
  const { chatId = '' } = useParams();
  const session = useSession();
  const me = session.me!.username.toLowerCase();
  const manager = session.can('engagement.agents.manage');
  const channel = useChannel();
  const [round, setRound] = useState(0);
  const reload = () => setRound((r) => r + 1);
  const chat = useLoad(() => inbox.chat(chatId), [chatId, round, channel.generation]);
  const loaded = useLoad(() => inbox.activities(chatId), [chatId, channel.generation]);
  const [activities, setActivities] = useState<Activity[]>([]);
  useEffect(() => {
    if (loaded.data) setActivities(loaded.data);
  }, [loaded.data]);
  const agents = useLoad(() => inbox.agents(), []);

  const add = (a: Activity) =>
    setActivities((list) => (list.some((x) => x.activity_id === a.activity_id) ? list : [...list, a]));
  useInboxEvents((e) => {
    if (e.type === 'agent.status' || e.type === 'agent.capacity' || e.data.chat_id !== chatId) return;
    if (e.type === 'message.received' && e.data.activity) add(e.data.activity);
    else if (e.type === 'message.status')
      setActivities((list) =>
        list.map((a) =>
          a.message_id === e.data.message_id && a.activity_type === 'message'
            ? { ...a, message_status: e.data.status ?? a.message_status }
            : a,
        ),
      );
    else reload();
  });

  const lastUser = useMemo(() => {
    const times = activities
      .filter((a) => a.actor_type === 'user' && a.activity_type === 'message')
      .map((a) => Date.parse(a.creation_date));
    return times.length ? Math.max(...times) : undefined;
  }, [activities]);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const windowOpen = lastUser !== undefined && now - lastUser < SESSION_WINDOW_MS;

  return (
    <Stack>
      <Group justify="space-between">
        <Anchor component={Link} to="/inbox">
          {t('chat.back')}
        </Anchor>
        <ChannelBadge state={channel.state} />
      </Group>
      <Loading loaded={chat}>
        {(c) => (
          <ChatView
            chat={c}
            me={me}
            manager={manager}
            activities={activities}
            activitiesError={loaded.error}
            windowOpen={windowOpen}
            windowUntil={lastUser !== undefined ? new Date(lastUser + SESSION_WINDOW_MS) : undefined}
            agents={(agents.data ?? []).map((a) => a.username)}
            onSent={add}
            reload={reload}
          />
        )}
      </Loading>
    </Stack>
  );
}

function ChatView(props: {
  chat: Chat;
  me: string;
  manager: boolean;
  activities: Activity[];
  activitiesError?: ApiError;
  windowOpen: boolean;
  windowUntil?: Date;
  agents: string[];
  onSent: (a: Activity) => void;
  reload: () => void;
}) {
  const t = useInboxT();
  const { chat, me, manager, activities } = props;
  const others = props.agents.filter((a) => a !== chat.owner);
  // Free text while the window is open (unless she picked a template), a template once it closed.
  const [choice, setMode] = useState<'text' | 'template'>();
  const mode = props.windowOpen ? (choice ?? 'text') : 'template';
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const [tags, setTags] = useState<string[]>(chat.tags);
  const [handTo, setHandTo] = useState<string | null>(null);
  const [dequeueTo, setDequeueTo] = useState<string | null>(null);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const templates = useLoad(() => inbox.approvedTemplates(chat.line), [chat.line]);
  const template = templates.data?.find((o) => o.outbound_id === templateId);
  const variables = templateVariables(template?.content);

  const send = useAction(() => setText(''));
  const addNote = useAction(() => setNote(''));
  const saveTags = useAction(props.reload);
  const status = useAction(props.reload);
  const handOver = useAction(props.reload);
  const dequeue = useAction(props.reload);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send.run(async () => {
      const a =
        mode === 'text'
          ? await inbox.send(chat.chat_id, { text })
          : await inbox.send(chat.chat_id, { outbound_id: templateId ?? '', var: values });
      props.onSent(a);
    });
  };

  return (
    <Stack>
      <Group justify="space-between" align="start">
        <Stack gap={2}>
          <Title order={2}>{chat.contact.name ?? chat.contact.phone}</Title>
          <Text size="sm" c="dimmed">
            {chat.contact.phone} · {t('chat.line')} {chat.line}
          </Text>
        </Stack>
        <Group gap="xs">
          <Badge color={chat.status === 'open' ? 'green' : 'gray'} variant="light" data-testid="chat-status">
            {chat.status}
          </Badge>
          <Badge variant="outline" color="gray" data-testid="chat-owner">
            {t('chat.owner')}: {chat.owner ?? t('chat.unassigned')}
          </Badge>
        </Group>
      </Group>
      <Alert color={props.windowOpen ? 'green' : 'orange'} data-testid="window-state" data-open={props.windowOpen}>
        {props.windowOpen
          ? t('chat.windowOpen', { until: props.windowUntil!.toLocaleString() })
          : t('chat.windowClosed')}
      </Alert>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Section title={t('chat.conversation')}>
          {props.activitiesError && <ErrorState error={props.activitiesError} />}
          {activities.length === 0 ? (
            <EmptyState />
          ) : (
            <Stack gap="xs" data-testid="conversation">
              {activities.map((a) => (
                <Bubble key={a.activity_id} a={a} />
              ))}
            </Stack>
          )}
        </Section>
        <Stack>
          <Section title={t('compose.title')}>
            <form onSubmit={submit}>
              <Stack gap="xs">
                <SegmentedControl
                  value={mode}
                  onChange={(v) => setMode(v)}
                  data={[
                    { value: 'text', label: t('compose.text'), disabled: !props.windowOpen },
                    { value: 'template', label: t('compose.template') },
                  ]}
                  aria-label={t('compose.title')}
                />
                {mode === 'text' ? (
                  <Textarea
                    label={t('compose.message')}
                    value={text}
                    onChange={(e) => setText(e.currentTarget.value)}
                    error={send.error?.field('text')}
                    autosize
                    minRows={2}
                    data-testid="compose-text"
                  />
                ) : templates.error ? (
                  <ErrorState error={templates.error} onRetry={templates.reload} />
                ) : (
                  <>
                    <Select
                      label={t('compose.pickTemplate')}
                      data={(templates.data ?? []).map((o) => ({ value: o.outbound_id, label: o.outbound_name }))}
                      value={templateId}
                      onChange={(v) => {
                        setTemplateId(v);
                        setValues({});
                      }}
                      error={send.error?.field('outbound_id')}
                      nothingFoundMessage={t('compose.noTemplates')}
                    />
                    {template?.content && (
                      <Text size="sm" c="dimmed">
                        {template.content}
                      </Text>
                    )}
                    {variables.map((name) => (
                      <TextInput
                        key={name}
                        label={t('compose.variable', { name })}
                        value={values[name] ?? ''}
                        onChange={(e) => setValues((v) => ({ ...v, [name]: e.currentTarget.value }))}
                        error={send.error?.field(`var.${name}`)}
                      />
                    ))}
                  </>
                )}
                {send.error && <ErrorState error={send.error} />}
                <Group>
                  <Button type="submit" loading={send.busy} data-testid="send">
                    {t('compose.send')}
                  </Button>
                </Group>
              </Stack>
            </form>
          </Section>
          <Section title={t('note.title')}>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void addNote.run(async () => props.onSent(await inbox.note(chat.chat_id, note)));
              }}
            >
              <Stack gap="xs">
                <Textarea
                  label={t('chat.note')}
                  value={note}
                  onChange={(e) => setNote(e.currentTarget.value)}
                  error={addNote.error?.field('text')}
                />
                {addNote.error && <ErrorState error={addNote.error} />}
                <Group>
                  <Button type="submit" variant="light" loading={addNote.busy}>
                    {t('note.add')}
                  </Button>
                </Group>
              </Stack>
            </form>
          </Section>
          <Section title={t('tags.title')}>
            <Stack gap="xs">
              <TagsInput
                label={t('tags.title')}
                value={tags}
                onChange={setTags}
                error={saveTags.error?.field('tags')}
              />
              {saveTags.error && <ErrorState error={saveTags.error} />}
              <Group>
                <Button
                  variant="light"
                  loading={saveTags.busy}
                  onClick={() => void saveTags.run(() => inbox.update(chat.chat_id, { tags }))}
                >
                  {t('tags.save')}
                </Button>
              </Group>
            </Stack>
          </Section>
          <Section title={t('actions.title')}>
            <Stack gap="sm">
              <Group>
                {chat.status === 'open' ? (
                  <Button
                    color="red"
                    variant="light"
                    loading={status.busy}
                    onClick={() => void status.run(() => inbox.update(chat.chat_id, { status: 'closed' }))}
                  >
                    {t('actions.close')}
                  </Button>
                ) : (
                  <Button
                    variant="light"
                    loading={status.busy}
                    onClick={() => void status.run(() => inbox.update(chat.chat_id, { status: 'open' }))}
                  >
                    {t('actions.reopen')}
                  </Button>
                )}
                {chat.status === 'open' && !chat.owner && (
                  <Button
                    variant="light"
                    loading={status.busy}
                    onClick={() => void status.run(() => inbox.update(chat.chat_id, { owner: me }))}
                  >
                    {t('actions.take')}
                  </Button>
                )}
              </Group>
              {status.error && <ErrorState error={status.error} />}
              <Group align="end">
                <Select
                  label={t('actions.handOver')}
                  data={others}
                  value={handTo}
                  onChange={setHandTo}
                  searchable
                  error={handOver.error?.field('owner')}
                />
                <Button
                  variant="light"
                  disabled={!handTo}
                  loading={handOver.busy}
                  onClick={() => void handOver.run(() => inbox.update(chat.chat_id, { owner: handTo ?? '' }))}
                >
                  {t('actions.handOverButton')}
                </Button>
              </Group>
              {handOver.error && <ErrorState error={handOver.error} />}
              {manager && (
                <>
                  <Group align="end">
                    <Select
                      label={t('actions.forceDequeue')}
                      data={props.agents}
                      value={dequeueTo}
                      onChange={setDequeueTo}
                      searchable
                      error={dequeue.error?.field('target')}
                    />
                    <Button
                      variant="light"
                      color="orange"
                      disabled={!dequeueTo}
                      loading={dequeue.busy}
                      onClick={() => void dequeue.run(() => inbox.forceDequeue(chat.chat_id, dequeueTo ?? ''))}
                    >
                      {t('actions.forceDequeueButton')}
                    </Button>
                  </Group>
                  {dequeue.error && <ErrorState error={dequeue.error} />}
                </>
              )}
            </Stack>
          </Section>
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
