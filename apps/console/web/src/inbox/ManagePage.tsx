import {
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { FormEvent, ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';

import { ApiError, useLoad } from '../api/client';
import { PagedTable, usePaging } from '../shared/PagedTable';
import { EmptyState, ErrorState, Loading } from '../shared/states';
import { InboxEvent, useChannel, useInboxEvents } from './channel';
import { CountersTable } from './CountersTable';
import { useInboxT } from './messages';
import { Agent, AgentTemplate, Chat, ChatExport, inbox } from './queries';

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Card withBorder data-testid={testId}>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** The signed download link of an export, through the console (the page never calls a service itself). */
const downloadPath = (url: string) => {
  const u = new URL(url, location.origin);
  return `/api/services/engagement${u.pathname}${u.search}`;
};

/** Runs a change, keeps its refusal to show in words, calls `after` on success. */
function useChange(after: () => void) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>) => {
    setError(undefined);
    setBusy(true);
    try {
      await work();
      after();
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, String(err), 'unreachable'));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run };
}

/**
 * An agent's row as an `agent.status` or `agent.capacity` event of hers gives it (none for other
 * events). Not her load: the event's `active_chats` is a snapshot of when it was written, and the
 * feed does not order an agent's events against the chats' (other keys), so a chat assigned by the
 * same change may already be in the loaded figures; the load comes from the reload every chat event
 * starts.
 */
function agentChange(e: InboxEvent): { username: string; row: AgentChange['row'] } | undefined {
  if (e.type === 'agent.status') {
    const { username, status, groups, capacity } = e.data;
    return { username, row: { status, groups, capacity } };
  }
  if (e.type === 'agent.capacity' && e.data.username && e.data.capacity !== undefined) {
    const { username, capacity } = e.data;
    return { username, row: { capacity, own_capacity: true } };
  }
  return undefined;
}

/** What an agent's event says of her row, and the first load round that knows it. */
interface AgentChange {
  row: Partial<Pick<Agent, 'status' | 'groups' | 'capacity' | 'own_capacity'>>;
  knownFrom: number;
}

/**
 * Live figures: agents' load, the queues' counters and the queued chats, reloaded on each chat or
 * agent event. An agent's status or capacity change is shown in her row at once (from the event),
 * until a load started after it answers.
 */
function useLiveFigures() {
  const channel = useChannel();
  const [round, setRound] = useState(0);
  const roundRef = useRef(round);
  roundRef.current = round;
  const loaded = useLoad(
    () =>
      Promise.all([inbox.agents(), inbox.counters(), inbox.queued()]).then(([agents, counters, queued]) => ({
        agents,
        counters,
        queued,
        round,
      })),
    [channel.generation, round],
  );
  const [changes, setChanges] = useState<Record<string, AgentChange>>({});
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const reload = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setRound((r) => r + 1), 250);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  // A manager's channel carries every chat and agent of the account: a chat opened, assigned or
  // closed, an agent going online or offline, a capacity changed, moves the figures.
  useInboxEvents((e: InboxEvent) => {
    const change = agentChange(e);
    if (change) setChanges((c) => ({ ...c, [change.username]: { row: change.row, knownFrom: roundRef.current + 1 } }));
    if (e.type !== 'message.status') reload();
  });
  const data = loaded.data;
  const figures: typeof loaded = data
    ? {
        ...loaded,
        data: {
          ...data,
          agents: data.agents.map((a) => {
            const change = changes[a.username];
            if (!change || data.round >= change.knownFrom) return a;
            const row = { ...a, ...change.row };
            return { ...row, free_capacity: Math.max(0, row.capacity - row.active_chats) };
          }),
        },
      }
    : loaded;
  return { figures, reload: () => setRound((r) => r + 1) };
}

/**
 * Managers: the queues (counters and the chats waiting, force-dequeue), agents' load against capacity
 * (pushed), capacities, the assignment ruleset, agent templates, chat exports (request, then download).
 */
export default function ManagePage() {
  const t = useInboxT();
  const { figures, reload: reloadFigures } = useLiveFigures();
  const [rulesetRound, setRulesetRound] = useState(0);
  const ruleset = useLoad(() => inbox.ruleset(), [rulesetRound]);
  const agentNames = figures.data?.agents.map((a) => a.username) ?? [];

  // Capacities.
  const [capType, setCapType] = useState<'user' | 'default' | 'toggle_capacity'>('user');
  const [capacity, setCapacity] = useState<number | string>(5);
  const [targets, setTargets] = useState('');
  const [capDone, setCapDone] = useState(false);
  const cap = useChange(() => {
    setCapDone(true);
    reloadFigures();
    setRulesetRound((r) => r + 1);
  });
  const setCap = (e: FormEvent) => {
    e.preventDefault();
    setCapDone(false);
    void cap.run(() =>
      inbox.setCapacity({
        update_type: capType,
        ...(capType !== 'toggle_capacity' ? { capacity: capacity === '' ? Number.NaN : Number(capacity) } : {}),
        ...(capType === 'user'
          ? {
              targets: targets
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            }
          : {}),
      }),
    );
  };

  // Ruleset.
  const strategy = useChange(() => setRulesetRound((r) => r + 1));

  // Force-dequeue of a waiting chat.
  const [dequeueTo, setDequeueTo] = useState<Record<string, string>>({});
  const dequeue = useChange(reloadFigures);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('manage.title')}</Title>
        <Anchor component={Link} to="/inbox">
          {t('chat.back')}
        </Anchor>
      </Group>
      <Loading loaded={figures}>
        {({ agents, counters, queued }) => (
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <Section title={t('manage.agents')} testId="agents-section">
              {agents.length === 0 ? (
                <EmptyState />
              ) : (
                <Table.ScrollContainer minWidth={480}>
                  <Table data-testid="agents-load">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('manage.agent')}</Table.Th>
                        <Table.Th>{t('manage.status')}</Table.Th>
                        <Table.Th>{t('manage.load')}</Table.Th>
                        <Table.Th />
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {agents.map((a) => (
                        <Table.Tr key={a.username} data-agent={a.username}>
                          <Table.Td>{a.username}</Table.Td>
                          <Table.Td style={{ whiteSpace: 'nowrap' }}>
                            <Badge
                              color={a.status === 'online' ? 'green' : 'gray'}
                              variant="light"
                              styles={{ label: { overflow: 'visible' } }}
                            >
                              {a.status === 'online' ? t('me.online') : t('me.offline')}
                            </Badge>
                          </Table.Td>
                          <Table.Td>
                            <Text size="sm" data-testid="load">
                              {a.active_chats} / {a.capacity}
                            </Text>
                            <Progress
                              value={a.capacity ? Math.min(100, (100 * a.active_chats) / a.capacity) : 100}
                              color={a.active_chats >= a.capacity ? 'orange' : 'blue'}
                              size="sm"
                              aria-label={t('manage.loadOf', { agent: a.username })}
                            />
                            <Text size="xs" c="dimmed">
                              {a.own_capacity ? t('manage.ownCapacity') : t('manage.defaultCapacity')}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <Button
                              size="xs"
                              variant="subtle"
                              onClick={() => {
                                setCapType('user');
                                setTargets(a.username);
                                setCapacity(a.capacity);
                              }}
                            >
                              {t('manage.editCapacity')}
                            </Button>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Section>
            <Section title={t('counters.title')} testId="queues-section">
              <Stack gap="xs">
                <CountersTable groups={counters.groups} total={counters.total} />
                <Title order={4} size="h6">
                  {t('queue.title', { count: queued.length })}
                </Title>
                {queued.length === 0 ? (
                  <EmptyState>{t('queue.empty')}</EmptyState>
                ) : (
                  <Table data-testid="queued">
                    <Table.Tbody>
                      {queued.map((c: Chat) => (
                        <Table.Tr key={c.chat_id} data-chat-id={c.chat_id}>
                          <Table.Td>
                            <Anchor component={Link} to={`/inbox/chats/${c.chat_id}`}>
                              {c.contact.name ?? c.contact.phone}
                            </Anchor>
                            <Text size="xs" c="dimmed">
                              {c.contact.phone} · {new Date(c.last_activity.date).toLocaleTimeString()}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <Group gap="xs" align="end" wrap="nowrap">
                              <NativeSelect
                                size="xs"
                                label={t('actions.forceDequeue')}
                                data={['', ...agentNames]}
                                value={dequeueTo[c.chat_id] ?? ''}
                                onChange={(e) => setDequeueTo({ ...dequeueTo, [c.chat_id]: e.currentTarget.value })}
                              />
                              <Button
                                size="xs"
                                variant="light"
                                color="orange"
                                disabled={!dequeueTo[c.chat_id]}
                                loading={dequeue.busy}
                                onClick={() =>
                                  void dequeue.run(() => inbox.forceDequeue(c.chat_id, dequeueTo[c.chat_id] ?? ''))
                                }
                              >
                                {t('actions.forceDequeueButton')}
                              </Button>
                            </Group>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
                {dequeue.error && <ErrorState error={dequeue.error} />}
              </Stack>
            </Section>
          </SimpleGrid>
        )}
      </Loading>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Section title={t('manage.setCapacity')} testId="capacity-section">
          <form onSubmit={setCap} noValidate>
            <Stack gap="xs">
              <NativeSelect
                label={t('manage.capacityType')}
                value={capType}
                onChange={(e) => setCapType(e.currentTarget.value as typeof capType)}
                data={[
                  { value: 'user', label: t('manage.capacityUser') },
                  { value: 'default', label: t('manage.capacityDefault') },
                  { value: 'toggle_capacity', label: t('manage.capacityToggle') },
                ]}
              />
              {capType !== 'toggle_capacity' && (
                <NumberInput
                  label={t('manage.capacity')}
                  value={capacity}
                  onChange={setCapacity}
                  allowDecimal={false}
                  error={cap.error?.field('capacity')}
                />
              )}
              {capType === 'user' && (
                <TextInput
                  label={t('manage.capacityTargets')}
                  value={targets}
                  onChange={(e) => setTargets(e.currentTarget.value)}
                  error={cap.error?.field('targets')}
                />
              )}
              {cap.error && <ErrorState error={cap.error} />}
              {capDone && (
                <Text size="sm" role="status" data-testid="capacity-saved">
                  {t('actions.done')}
                </Text>
              )}
              <Group>
                <Button type="submit" loading={cap.busy}>
                  {t('manage.setCapacity')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Section>
        <Section title={t('manage.ruleset')} testId="ruleset-section">
          <Loading loaded={ruleset}>
            {(r) => (
              <Stack gap="xs">
                <NativeSelect
                  label={t('manage.strategy')}
                  value={r.strategy}
                  data={[
                    { value: 'round_robin', label: t('manage.roundRobin') },
                    { value: 'least_busy', label: t('manage.leastBusy') },
                  ]}
                  onChange={(e) => {
                    const v = e.currentTarget.value;
                    void strategy.run(() => inbox.setStrategy(v));
                  }}
                  data-testid="strategy"
                  data-strategy={r.strategy}
                />
                <Text size="sm">
                  {t(r.strategy === 'least_busy' ? 'manage.leastBusyHelp' : 'manage.roundRobinHelp')}
                </Text>
                <Table data-testid="ruleset">
                  <Table.Tbody>
                    <Table.Tr>
                      <Table.Th>{t('manage.rulesetId')}</Table.Th>
                      <Table.Td>{r.ruleset_id}</Table.Td>
                    </Table.Tr>
                    <Table.Tr>
                      <Table.Th>{t('manage.capacityLimits')}</Table.Th>
                      <Table.Td>{r.capacity_enabled ? t('manage.on') : t('manage.off')}</Table.Td>
                    </Table.Tr>
                    <Table.Tr>
                      <Table.Th>{t('manage.defaultCapacity')}</Table.Th>
                      <Table.Td>{r.default_capacity}</Table.Td>
                    </Table.Tr>
                    <Table.Tr>
                      <Table.Th>{t('manage.onlineOnly')}</Table.Th>
                      <Table.Td>{r.online_only ? t('manage.yes') : t('manage.no')}</Table.Td>
                    </Table.Tr>
                  </Table.Tbody>
                </Table>
                {strategy.error && <ErrorState error={strategy.error} />}
              </Stack>
            )}
          </Loading>
        </Section>
      </SimpleGrid>
      <TemplatesSection />
      <ExportsSection />
    </Stack>
  );
}

/** Agent templates: a page at a time (by name, a prefix filter), create, edit the text, delete one or the selected. */
function TemplatesSection() {
  const t = useInboxT();
  const paging = usePaging<{ prefix?: string }>({});
  const [round, setRound] = useState(0);
  const list = useLoad(() => inbox.templates(paging.query), [paging.query, round]);
  const [prefix, setPrefix] = useState('');
  const [editing, setEditing] = useState<string>();
  const [name, setName] = useState('');
  const [content, setContent] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const reset = () => {
    setEditing(undefined);
    setName('');
    setContent('');
    setRound((r) => r + 1);
  };
  const save = useChange(reset);
  const remove = useChange(() => {
    setSelected([]);
    setRound((r) => r + 1);
  });
  const edit = (x: AgentTemplate) => {
    setEditing(x.template_name);
    setName(x.template_name);
    setContent(x.content ?? '');
  };
  const toggle = (n: string) => setSelected((s) => (s.includes(n) ? s.filter((x) => x !== n) : [...s, n]));

  return (
    <Section title={t('manage.templates')} testId="templates-section">
      <Stack gap="xs">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save.run(() => (editing ? inbox.editTemplate(editing, content) : inbox.addTemplate(name, content)));
          }}
        >
          <Stack gap="xs">
            <TextInput
              label={t('manage.templateName')}
              value={name}
              disabled={!!editing}
              onChange={(e) => setName(e.currentTarget.value)}
              error={save.error?.field('template_name')}
            />
            <Textarea
              label={t('manage.templateContent')}
              value={content}
              autosize
              minRows={2}
              onChange={(e) => setContent(e.currentTarget.value)}
              error={save.error?.field('content')}
            />
            {save.error && <ErrorState error={save.error} />}
            <Group>
              <Button type="submit" variant="light" loading={save.busy}>
                {editing ? t('manage.templateSave') : t('manage.templateAdd')}
              </Button>
              {editing && (
                <Button variant="subtle" onClick={reset}>
                  {t('manage.cancel')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            paging.apply({ prefix: prefix || undefined });
          }}
        >
          <Group align="end">
            <TextInput
              label={t('manage.templatePrefix')}
              value={prefix}
              onChange={(e) => setPrefix(e.currentTarget.value)}
              error={list.error?.field('prefix')}
            />
            <Button type="submit" variant="default">
              {t('manage.search')}
            </Button>
            <Button
              color="red"
              variant="light"
              disabled={selected.length === 0}
              onClick={() => void remove.run(() => inbox.deleteTemplates(selected))}
            >
              {t('manage.templateDeleteSelected', { count: selected.length })}
            </Button>
          </Group>
        </form>
        {remove.error && <ErrorState error={remove.error} />}
        <PagedTable
          loaded={list}
          rows={(page) => page.templates}
          rowKey={(x) => x.template_name}
          paging={paging}
          testId="templates"
          columns={[
            {
              header: <VisuallyHidden>{t('manage.select')}</VisuallyHidden>,
              cell: (x) => (
                <Checkbox
                  aria-label={t('manage.selectTemplate', { name: x.template_name })}
                  checked={selected.includes(x.template_name)}
                  onChange={() => toggle(x.template_name)}
                />
              ),
            },
            { header: t('manage.templateName'), cell: (x) => x.template_name },
            { header: t('manage.templateContent'), cell: (x) => x.content ?? '' },
            {
              header: <VisuallyHidden>{t('manage.actions')}</VisuallyHidden>,
              cell: (x) => (
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="subtle" onClick={() => edit(x)}>
                    {t('manage.templateEdit')}
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => void remove.run(() => inbox.deleteTemplate(x.template_name))}
                  >
                    {t('manage.templateDelete')}
                  </Button>
                </Group>
              ),
            },
          ]}
        />
      </Stack>
    </Section>
  );
}

/** Chat exports: request one (every chat or one chat, a range of months, a language), then the list, a page at a time, and download. */
function ExportsSection() {
  const t = useInboxT();
  const paging = usePaging<object>({});
  const [round, setRound] = useState(0);
  const list = useLoad(() => inbox.exports(paging.query), [paging.query, round]);
  const thisMonth = new Date().toISOString().slice(0, 7);
  const [from, setFrom] = useState(thisMonth);
  const [to, setTo] = useState(thisMonth);
  const [type, setType] = useState<'all_chats' | 'single_chat'>('all_chats');
  const [chatId, setChatId] = useState('');
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('es');
  const request = useChange(() => {
    setName('');
    paging.first();
    setRound((r) => r + 1);
  });

  // An export is made in the background: while one on the page is pending, the page is asked again every second.
  const pending = list.data?.exports.some((x) => x.status === 'pending');
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => setRound((r) => r + 1), 1000);
    return () => clearTimeout(timer);
  }, [pending, list.data]);

  const statusColor = (s: ChatExport['status']) => (s === 'completed' ? 'green' : s === 'failed' ? 'red' : 'gray');

  return (
    <Section title={t('manage.exports')} testId="exports-section">
      <Stack gap="xs">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void request.run(() =>
              inbox.requestExport({
                language,
                export_type: type,
                export_format: 'tsv',
                time_range_start_date: from,
                time_range_end_date: to,
                ...(type === 'single_chat' ? { chat_id: chatId } : {}),
                ...(name ? { name } : {}),
              }),
            );
          }}
        >
          <Group align="start">
            <NativeSelect
              label={t('manage.exportType')}
              value={type}
              onChange={(e) => setType(e.currentTarget.value as typeof type)}
              data={[
                { value: 'all_chats', label: t('manage.exportAll') },
                { value: 'single_chat', label: t('manage.exportSingle') },
              ]}
            />
            {type === 'single_chat' && (
              <TextInput
                label={t('manage.exportChat')}
                value={chatId}
                onChange={(e) => setChatId(e.currentTarget.value)}
                error={request.error?.field('chat_id')}
              />
            )}
            <TextInput
              label={t('manage.exportFrom')}
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
              error={request.error?.field('time_range_start_date')}
            />
            <TextInput
              label={t('manage.exportTo')}
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              error={request.error?.field('time_range_end_date')}
            />
            <NativeSelect
              label={t('manage.exportLanguage')}
              value={language}
              onChange={(e) => setLanguage(e.currentTarget.value)}
              data={['es', 'en', 'pt']}
            />
            <TextInput
              label={t('manage.exportName')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={request.error?.field('name')}
            />
          </Group>
          <Group mt="xs">
            <Button type="submit" variant="light" loading={request.busy}>
              {t('manage.exportRequest')}
            </Button>
            <Button variant="subtle" onClick={() => setRound((r) => r + 1)}>
              {t('manage.refresh')}
            </Button>
          </Group>
        </form>
        {request.error && <ErrorState error={request.error} />}
        <PagedTable
          loaded={list}
          rows={(page) => page.exports}
          rowKey={(x) => x.export_id}
          paging={paging}
          testId="exports"
          columns={[
            {
              header: t('manage.exportName'),
              cell: (x) => (
                <>
                  <Text size="sm">{x.name ?? x.export_id}</Text>
                  <Text size="xs" c="dimmed">
                    {x.export_type === 'single_chat'
                      ? `${t('manage.exportSingle')}: ${x.chat_id}`
                      : t('manage.exportAll')}
                  </Text>
                </>
              ),
            },
            {
              header: t('manage.exportRange'),
              cell: (x) =>
                x.time_range_start_date === x.time_range_end_date
                  ? x.time_range_start_date
                  : `${x.time_range_start_date} – ${x.time_range_end_date}`,
            },
            { header: t('manage.exportLanguage'), cell: (x) => x.language },
            {
              header: t('manage.status'),
              cell: (x) => (
                <Badge variant="light" color={statusColor(x.status)} data-testid="export-status">
                  {t(`manage.export.${x.status}`)}
                </Badge>
              ),
            },
            { header: t('manage.exportRows'), cell: (x) => x.rows ?? '' },
            { header: t('manage.exportRequested'), cell: (x) => new Date(x.creation_date).toLocaleString() },
            {
              header: <VisuallyHidden>{t('manage.exportDownload')}</VisuallyHidden>,
              cell: (x) =>
                x.status === 'completed' && x.download_url ? (
                  <Anchor
                    size="sm"
                    href={downloadPath(x.download_url)}
                    download={`${x.export_id}.tsv`}
                    data-testid="download"
                  >
                    {t('manage.exportDownload')}
                  </Anchor>
                ) : null,
            },
          ]}
        />
      </Stack>
    </Section>
  );
}
