import { Badge, Button, Card, Group, Image, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useParams } from 'react-router-dom';

import { api, ApiError, call, download, useLoad } from '../api/client';
import { statusColor } from '../checks/status';
import { useI18n } from '../i18n/i18n';
import { PagedTable, usePaging } from '../shared/PagedTable';
import { ErrorState, Loading } from '../shared/states';
import { Decision } from './Decision';

interface Validation {
  step_id?: string;
  type?: string;
  validation_id?: string;
  validation_status?: string;
  declined_reason?: string;
  failure_status?: string;
}

/** The validations of a process answer (its items are open objects in the API's schema). */
const asValidations = (items: unknown): Validation[] => (items ?? []) as Validation[];

interface Media {
  slot: string;
  content_type: string | null;
  url: string;
}

/** The images of a document or face validation: its show_details media links (signed, valid 15 minutes). */
function ValidationImages({ validation }: { validation: Validation }) {
  const { t } = useI18n();
  const loaded = useLoad(async () => {
    const v = (await call(
      api.validations.GET('/v1/validations/{validation_id}', {
        params: { path: { validation_id: validation.validation_id! }, query: { show_details: true } },
      }),
    )) as { media?: Media[] };
    return (v.media ?? []).filter((m) => m.content_type?.startsWith('image/'));
  }, [validation.validation_id]);
  return (
    <Loading loaded={loaded}>
      {(media) =>
        media.length === 0 ? (
          <Text size="sm">{t('processes.detail.noImages')}</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {media.map((m) => (
              <figure key={m.slot} style={{ margin: 0 }}>
                <Image
                  src={m.url}
                  alt={t('processes.detail.image', { type: validation.type ?? '', slot: m.slot })}
                  radius="sm"
                  mah={320}
                  fit="contain"
                  data-testid="validation-image"
                />
                <Text component="figcaption" size="xs">
                  {validation.type} · {m.slot}
                </Text>
              </figure>
            ))}
          </SimpleGrid>
        )
      }
    </Loading>
  );
}

/** The process's log entries (identity's enqueue-log), newest first. */
function ProcessLogs({ processId }: { processId: string }) {
  const { t } = useI18n();
  const paging = usePaging<object>({});
  const { query } = paging;
  const loaded = useLoad(
    () =>
      call(
        api.identity.GET('/v1/processes/{process_id}/logs', {
          params: { path: { process_id: processId }, query },
        }),
      ),
    [processId, query],
  );
  return (
    <PagedTable
      loaded={loaded}
      paging={paging}
      testId="process-logs"
      empty={t('processes.detail.noLogs')}
      rows={(page) => page.logs}
      rowKey={(l) => l.log_id}
      columns={[
        { header: t('audit.when'), cell: (l) => new Date(l.creation_date).toLocaleString() },
        {
          header: t('processes.detail.level'),
          cell: (l) => (
            <Badge variant="light" color={l.level === 'error' ? 'red' : l.level === 'warn' ? 'orange' : 'gray'}>
              {l.level}
            </Badge>
          ),
        },
        { header: t('processes.detail.message'), cell: (l) => l.message },
      ]}
    />
  );
}

/** A process: its steps, each validation's result with its images, who decided what, the PDF, the logs and a decision. */
export default function ProcessPage() {
  const { t } = useI18n();
  const { processId = '' } = useParams();
  const [round, setRound] = useState(0);
  const [error, setError] = useState<ApiError>();
  const [downloading, setDownloading] = useState(false);
  const path = { path: { process_id: processId } };
  const loaded = useLoad(async () => {
    const [process, validations] = await Promise.all([
      call(api.identity.GET('/v1/processes/{process_id}', { params: path })),
      call(api.identity.GET('/v1/processes/{process_id}/validations', { params: path })),
    ]);
    return { process, validations: asValidations(validations.validations) };
  }, [processId, round]);
  const pdf = async () => {
    setError(undefined);
    setDownloading(true);
    try {
      await download('identity', `/v1/processes/${processId}/pdf`, `${processId}.pdf`);
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Loading loaded={loaded}>
      {({ process, validations }) => (
        <Stack>
          <Group justify="space-between">
            <Title order={2}>{t('processes.detail.title', { id: process.process_id })}</Title>
            <Badge size="lg" variant="light" color={statusColor(process.status)} data-testid="process-status">
              {process.status}
            </Badge>
          </Group>
          {(process.declined_reason ?? process.expired_reason) && (
            <Text size="sm">
              {t('processes.detail.reason')}: {process.failure_status} ·{' '}
              {process.declined_reason ?? process.expired_reason}
            </Text>
          )}
          {error && <ErrorState error={error} />}
          <Group>
            <Button id="process-pdf" variant="default" loading={downloading} onClick={() => void pdf()}>
              {t('processes.detail.pdf')}
            </Button>
          </Group>
          <Title order={3}>{t('processes.detail.stepsTitle')}</Title>
          <Table.ScrollContainer minWidth={560}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>step</Table.Th>
                  <Table.Th>type</Table.Th>
                  <Table.Th>{t('common.status')}</Table.Th>
                  <Table.Th>{t('processes.detail.reason')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {process.steps.map((s) => (
                  <Table.Tr key={s.step_id}>
                    <Table.Td>{s.step_id}</Table.Td>
                    <Table.Td>{s.type}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={statusColor(s.status)}>
                        {s.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{s.declined_reason ?? s.retry_reason ?? ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {validations.length > 0 && <Title order={3}>{t('processes.detail.steps')}</Title>}
          {validations.map((v) => (
            <Card withBorder key={v.validation_id ?? v.step_id} data-testid="validation">
              <Group justify="space-between" mb="xs">
                <Text fw={600}>
                  {v.type} · {v.validation_id}
                </Text>
                <Badge variant="light" color={statusColor(v.validation_status)}>
                  {v.validation_status}
                </Badge>
              </Group>
              {v.declined_reason && (
                <Text size="sm" mb="xs">
                  {t('processes.detail.reason')}: {v.declined_reason}
                </Text>
              )}
              {v.validation_id && (v.type === 'document' || v.type === 'face') && <ValidationImages validation={v} />}
            </Card>
          ))}
          <Title order={3}>{t('processes.detail.decisions')}</Title>
          {(process.override_status_history ?? []).length === 0 ? (
            <Text size="sm">{t('processes.detail.noDecisions')}</Text>
          ) : (
            <Table data-testid="decisions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('audit.when')}</Table.Th>
                  <Table.Th>{t('audit.actor')}</Table.Th>
                  <Table.Th>{t('common.status')}</Table.Th>
                  <Table.Th>{t('common.reason')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(process.override_status_history as Record<string, string | null>[]).map((h, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{h.date ? new Date(h.date).toLocaleString() : ''}</Table.Td>
                    <Table.Td>{h.user_id ?? '—'}</Table.Td>
                    <Table.Td>
                      {h.previous ? `${h.previous} → ` : ''}
                      {h.override_status}
                    </Table.Td>
                    <Table.Td>{h.reason ?? ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {process.status !== 'pending' && <Decision processId={processId} onDecided={() => setRound((r) => r + 1)} />}
          <Title order={3}>{t('processes.detail.logs')}</Title>
          <ProcessLogs processId={processId} />
        </Stack>
      )}
    </Loading>
  );
}
