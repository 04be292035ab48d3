import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  TextInput,
  Title,
} from '@mantine/core';
import { FormEvent, ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';

import { ApiError, useLoad } from '../api/client';
import { EmptyState, ErrorState, Loading } from '../shared/states';
import { useInboxT } from './messages';
import { inbox } from './queries';

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

/** The signed download link of an export, through the console (the page never calls a service itself). */
const downloadPath = (url: string) => {
  const u = new URL(url, location.origin);
  return `/api/services/engagement${u.pathname}${u.search}`;
};

/** Runs a change, keeps its refusal to show in words, reloads on success. */
function useChange(after: () => void) {
  const [error, setError] = useState<ApiError>();
  const run = async (work: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await work();
      after();
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, String(err), 'unreachable'));
    }
  };
  return { error, run };
}

/** Managers: agents' load against capacity, capacities, the assignment ruleset, agent templates, chat exports. */
export default function ManagePage() {
  const t = useInboxT();
  const [round, setRound] = useState(0);
  const reload = () => setRound((r) => r + 1);
  const agents = useLoad(() => inbox.agents(), [round]);
  const ruleset = useLoad(() => inbox.ruleset(), [round]);
  const templates = useLoad(() => inbox.templates(), [round]);
  const exports = useLoad(() => inbox.exports(), [round]);

  const [capType, setCapType] = useState<'user' | 'default' | 'toggle_capacity'>('user');
  const [capacity, setCapacity] = useState<number | string>(5);
  const [targets, setTargets] = useState('');
  const cap = useChange(reload);
  const strategy = useChange(reload);
  const [templateName, setTemplateName] = useState('');
  const tpl = useChange(() => {
    setTemplateName('');
    reload();
  });
  const [month, setMonth] = useState(new Date().toISOString().slice(0, 7));
  const [language, setLanguage] = useState<string | null>('es');
  const exp = useChange(reload);

  const setCap = (e: FormEvent) => {
    e.preventDefault();
    void cap.run(() =>
      inbox.setCapacity({
        update_type: capType,
        ...(capType !== 'toggle_capacity' ? { capacity: Number(capacity) } : {}),
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

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('manage.title')}</Title>
        <Anchor component={Link} to="/inbox">
          {t('chat.back')}
        </Anchor>
      </Group>
      <Section title={t('manage.agents')}>
        <Loading loaded={agents}>
          {(list) =>
            list.length === 0 ? (
              <EmptyState />
            ) : (
              <Table.ScrollContainer minWidth={480}>
                <Table data-testid="agents-load">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('manage.agent')}</Table.Th>
                      <Table.Th>{t('manage.status')}</Table.Th>
                      <Table.Th>{t('manage.load')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {list.map((a) => (
                      <Table.Tr key={a.username}>
                        <Table.Td>{a.username}</Table.Td>
                        <Table.Td>
                          <Badge color={a.status === 'online' ? 'green' : 'gray'} variant="light">
                            {a.status === 'online' ? t('me.online') : t('me.offline')}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          {a.active_chats} / {a.capacity}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )
          }
        </Loading>
      </Section>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Section title={t('manage.setCapacity')}>
          <form onSubmit={setCap}>
            <Stack gap="xs">
              <Select
                label={t('manage.capacityType')}
                value={capType}
                onChange={(v) => setCapType(v ?? 'user')}
                data={[
                  { value: 'user', label: t('manage.capacityUser') },
                  { value: 'default', label: t('manage.capacityDefault') },
                  { value: 'toggle_capacity', label: t('manage.capacityToggle') },
                ]}
                allowDeselect={false}
              />
              {capType !== 'toggle_capacity' && (
                <NumberInput
                  label={t('manage.capacity')}
                  value={capacity}
                  onChange={setCapacity}
                  min={0}
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
              <Group>
                <Button type="submit">{t('manage.setCapacity')}</Button>
              </Group>
            </Stack>
          </form>
        </Section>
        <Section title={t('manage.ruleset')}>
          <Loading loaded={ruleset}>
            {(r) => (
              <Stack gap="xs">
                <Select
                  label={`${t('manage.ruleset')} (${r.ruleset_id})`}
                  value={r.strategy}
                  data={['round_robin', 'least_busy']}
                  allowDeselect={false}
                  onChange={(v) => v && void strategy.run(() => inbox.setStrategy(v))}
                />
                <Group gap="xs">
                  <Badge variant="light">capacity_enabled: {String(r.capacity_enabled)}</Badge>
                  <Badge variant="light">default_capacity: {r.default_capacity}</Badge>
                  <Badge variant="light">online_only: {String(r.online_only)}</Badge>
                </Group>
                {strategy.error && <ErrorState error={strategy.error} />}
              </Stack>
            )}
          </Loading>
        </Section>
        <Section title={t('manage.templates')}>
          <Stack gap="xs">
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void tpl.run(() => inbox.addTemplate(templateName));
              }}
            >
              <Group align="end">
                <TextInput
                  label={t('manage.templateName')}
                  value={templateName}
                  onChange={(e) => setTemplateName(e.currentTarget.value)}
                  error={tpl.error?.field('template_name')}
                />
                <Button type="submit" variant="light">
                  {t('manage.templateAdd')}
                </Button>
              </Group>
            </form>
            {tpl.error && <ErrorState error={tpl.error} />}
            <Loading loaded={templates}>
              {(list) =>
                list.length === 0 ? (
                  <EmptyState />
                ) : (
                  <Table>
                    <Table.Tbody>
                      {list.map((x) => (
                        <Table.Tr key={x.template_name}>
                          <Table.Td>{x.template_name}</Table.Td>
                          <Table.Td>{x.template_type}</Table.Td>
                          <Table.Td>
                            <Button
                              size="xs"
                              variant="subtle"
                              color="red"
                              onClick={() => void tpl.run(() => inbox.deleteTemplate(x.template_name))}
                            >
                              {t('manage.templateDelete')}
                            </Button>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )
              }
            </Loading>
          </Stack>
        </Section>
        <Section title={t('manage.exports')}>
          <Stack gap="xs">
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void exp.run(() =>
                  inbox.requestExport({
                    language,
                    export_type: 'all_chats',
                    export_format: 'tsv',
                    time_range_start_date: month,
                    time_range_end_date: month,
                  }),
                );
              }}
            >
              <Group align="end">
                <TextInput
                  label={t('manage.exportMonth')}
                  value={month}
                  onChange={(e) => setMonth(e.currentTarget.value)}
                  error={exp.error?.field('time_range_start_date')}
                />
                <Select
                  label={t('manage.exportLanguage')}
                  value={language}
                  onChange={setLanguage}
                  data={['es', 'en', 'pt']}
                  allowDeselect={false}
                />
                <Button type="submit" variant="light">
                  {t('manage.exportRequest')}
                </Button>
              </Group>
            </form>
            {exp.error && <ErrorState error={exp.error} />}
            <Loading loaded={exports}>
              {(page) =>
                page.exports.length === 0 ? (
                  <EmptyState />
                ) : (
                  <Table>
                    <Table.Tbody>
                      {page.exports.map((x) => (
                        <Table.Tr key={x.export_id}>
                          <Table.Td>{x.export_id}</Table.Td>
                          <Table.Td>
                            <Badge variant="light">{x.status}</Badge>
                          </Table.Td>
                          <Table.Td>{new Date(x.creation_date).toLocaleString()}</Table.Td>
                          <Table.Td>
                            {x.status === 'completed' && x.download_url && (
                              <Anchor href={downloadPath(x.download_url)} download>
                                {t('manage.exportDownload')}
                              </Anchor>
                            )}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )
              }
            </Loading>
            <Group>
              <Button size="xs" variant="subtle" onClick={reload}>
                {t('manage.refresh')}
              </Button>
            </Group>
          </Stack>
        </Section>
      </SimpleGrid>
    </Stack>
  );
}
