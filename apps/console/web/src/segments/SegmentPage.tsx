import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { api, ApiError, call, download, useLoad } from '../api/client';
import { statusColor } from '../checks/status';
import { startKeyOf } from '../customers/queries';
import { useI18n } from '../i18n/i18n';
import { LogicEditor, LogicVariable } from '../shared/logic/LogicEditor';
import { EmptyState, ErrorState, Loading } from '../shared/states';
import { computing, Segment, segmentsQueries } from './queries';

/** What a new segment starts from: customers of Colombia. */
const STARTER_RULE = { '==': [{ var: 'country' }, 'CO'] };

/**
 * `/segments/new` builds a segment; `/segments/:segmentId` edits one, computes it (the durable job
 * watched until it ends), shows its count and a page of members, and exports them as CSV.
 */
export default function SegmentPage() {
  const { segmentId } = useParams();
  const loaded = useLoad(async () => {
    const [variables, segment] = await Promise.all([
      segmentsQueries.variables(),
      segmentId ? segmentsQueries.get(segmentId) : Promise.resolve(undefined),
    ]);
    return { variables, segment: segment?.segment };
  }, [segmentId]);
  return (
    <Loading loaded={loaded}>
      {({ variables, segment }) => (
        <SegmentEditor key={segment?.segment_id ?? 'new'} variables={variables} initial={segment} />
      )}
    </Loading>
  );
}

function SegmentEditor({ variables, initial }: { variables: LogicVariable[]; initial?: Segment }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [segment, setSegment] = useState(initial);
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [rule, setRule] = useState<unknown>(initial?.rule ?? STARTER_RULE);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<ApiError>();
  const fieldError = (field: string) =>
    error?.fields
      .filter((f) => f.field === field || f.field.startsWith(`${field}.`) || f.field.startsWith(`${field}:`))
      .map((f) => f.message)
      .join('; ') || undefined;

  // Watch a compute under way: the segment is read again every second until it ends.
  const watching = segment ? computing(segment) : false;
  useEffect(() => {
    if (!segment || !watching) return;
    const timer = setInterval(() => {
      segmentsQueries.get(segment.segment_id).then(
        (r) => setSegment(r.segment),
        (e: unknown) => setError(e as ApiError),
      );
    }, 1000);
    return () => clearInterval(timer);
  }, [segment?.segment_id, watching]);

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await work();
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const save = (e?: FormEvent) => {
    e?.preventDefault();
    return act(async () => {
      const body = {
        name: name.trim(),
        description: description.trim() || undefined,
        rule: rule as Record<string, unknown>,
      };
      if (!segment) {
        const created = await call(api.customers.POST('/v1/customers/segments', { body }));
        void navigate(`/segments/${created.segment.segment_id}`);
        return;
      }
      const updated = await call(
        api.customers.PUT('/v1/customers/segments/{segment_id}', {
          params: { path: { segment_id: segment.segment_id } },
          body,
        }),
      );
      setSegment(updated.segment);
      setSaved(true);
    });
  };
  const compute = () =>
    act(async () => {
      const started = await call(
        api.customers.POST('/v1/customers/segments/{segment_id}/compute', {
          params: { path: { segment_id: segment!.segment_id } },
          body: {},
        }),
      );
      setSegment(started.segment);
    });

  const placed = ['name', 'description', 'rule'];
  const unplaced = error?.fields.filter((f) => !placed.some((p) => f.field === p || f.field.startsWith(`${p}.`))) ?? [];

  return (
    <Stack>
      <Title order={2}>{segment ? t('segments.detail.title', { name: segment.name }) : t('segments.new')}</Title>
      {error && (!error.fields.length || unplaced.length) ? (
        <ErrorState
          error={unplaced.length ? new ApiError(error.status, error.message, error.errorCode, unplaced) : error}
        />
      ) : null}
      {saved && (
        <Alert color="green" role="status" data-testid="segment-saved">
          {t('segments.saved')}
        </Alert>
      )}
      <Card withBorder>
        <form onSubmit={(e) => void save(e)} noValidate>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                id="segment-name"
                label={t('common.name')}
                withAsterisk
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={fieldError('name')}
              />
              <Textarea
                id="segment-description"
                label={t('segments.description')}
                autosize
                value={description}
                onChange={(e) => setDescription(e.currentTarget.value)}
                error={fieldError('description')}
              />
            </SimpleGrid>
            <div data-testid="rule-editor">
              <LogicEditor value={rule} onChange={setRule} variables={variables} aria-label={t('segments.rule')} />
              {fieldError('rule') && (
                <Text c="red.9" size="sm" role="alert" id="rule-error" mt={4}>
                  {fieldError('rule')}
                </Text>
              )}
            </div>
            <Group>
              <Button id="save-segment" type="submit" loading={busy && !segment}>
                {segment ? t('common.save') : t('common.create')}
              </Button>
              <Button variant="default" component={Link} to="/segments">
                {t('segments.back')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      {segment && <ComputePanel segment={segment} busy={busy} onCompute={() => void compute()} onError={setError} />}
      {segment && segment.compute.status !== 'queued' && segment.compute.status !== 'running' && (
        <Members segment={segment} />
      )}
    </Stack>
  );
}

function ComputePanel(props: {
  segment: Segment;
  busy: boolean;
  onCompute: () => void;
  onError: (e: ApiError) => void;
}) {
  const { t } = useI18n();
  const { segment } = props;
  const c = segment.compute;
  const running = computing(segment);
  return (
    <Card withBorder data-testid="compute">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3}>{t('segments.compute')}</Title>
          <Badge size="lg" variant="light" color={statusColor(c.status)} data-testid="compute-status">
            {t(`segments.status.${c.status}` as 'segments.status.completed')}
          </Badge>
        </Group>
        {c.status !== 'not_computed' && (
          <>
            <Progress value={Math.round(c.progress * 100)} aria-label={t('segments.progress')} animated={running} />
            <Text size="sm" aria-live="polite">
              {t('segments.progressText', { processed: c.processed, total: c.total, matched: c.matched })}
            </Text>
          </>
        )}
        {c.evaluation && (
          <Text size="sm">
            {c.evaluation === 'sql' ? t('segments.evaluation.sql') : t('segments.evaluation.node')}
            {c.fallback_reason ? ` (${c.fallback_reason})` : ''}
          </Text>
        )}
        {c.error && (
          <Text c="red.9" size="sm" role="alert">
            {c.error}
          </Text>
        )}
        <Text size="lg" fw={700} data-testid="members-count">
          {segment.members_count === 1 ? t('segments.countOne') : t('segments.count', { count: segment.members_count })}
        </Text>
        {segment.computed_at && (
          <Text size="sm">{t('segments.computedOn', { when: new Date(segment.computed_at).toLocaleString() })}</Text>
        )}
        <Group>
          <Button id="compute-segment" onClick={props.onCompute} loading={props.busy} disabled={running}>
            {c.status === 'not_computed' ? t('segments.computeNow') : t('segments.computeAgain')}
          </Button>
          <Button
            id="export-segment"
            variant="default"
            disabled={!segment.computed_at}
            onClick={() =>
              void download(
                'customers',
                `/v1/customers/segments/${segment.segment_id}/export`,
                `segment-${segment.segment_id}.csv`,
              ).catch((e: ApiError) => props.onError(e))
            }
          >
            {t('segments.export')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** A page of the members of the last completed compute. */
function Members({ segment }: { segment: Segment }) {
  const { t } = useI18n();
  const [startKey, setStartKey] = useState<string>();
  const loaded = useLoad(
    () => segmentsQueries.members(segment.segment_id, startKey),
    [segment.segment_id, segment.computed_at, startKey],
  );
  return (
    <Stack gap="xs">
      <Title order={3}>{t('segments.members')}</Title>
      <Loading loaded={loaded}>
        {(page) =>
          page.profiles.length === 0 ? (
            <EmptyState>{segment.computed_at ? t('segments.noMembers') : t('segments.notComputed')}</EmptyState>
          ) : (
            <>
              <Table.ScrollContainer minWidth={640}>
                <Table striped data-testid="members">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('segments.customer')}</Table.Th>
                      <Table.Th>{t('common.name')}</Table.Th>
                      <Table.Th>{t('checks.country')}</Table.Th>
                      <Table.Th>{t('customer.summary.latestCheck')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {page.profiles.map((p) => (
                      <Table.Tr key={p.customer_id}>
                        <Table.Td>
                          <Anchor component={Link} to={`/customers/${p.customer_id}`}>
                            {p.customer_id}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{p.basic_info.name ?? '—'}</Table.Td>
                        <Table.Td>{p.basic_info.country ?? '—'}</Table.Td>
                        <Table.Td>{p.summary.latest_check_score ?? '—'}</Table.Td>
                      </Table.Tr>
                    ))}
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
