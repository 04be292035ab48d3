import { Alert, Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';

import { api, ApiError, call, download, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { EmptyState, ErrorState, Loading } from '../shared/states';
import { fieldsFor, TYPES } from './check-form';
import { statusColor } from './status';

/** A record's cell as text (values are strings, numbers, or nested objects shown as JSON). */
const cellText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : value === null || value === undefined
        ? ''
        : JSON.stringify(value);

const RUNNING = new Set(['not_started', 'in_progress', 'delayed', 'pending']);

interface RecordTable {
  title?: string;
  data_set?: string;
  found_by?: string;
  severity?: string;
  rows?: { cells: { label: string; value: unknown }[] }[];
}

/** A check: its scores as the report draws them, each dataset's result, the records found, the PDF and a re-run. */
export default function CheckPage() {
  const { t, language } = useI18n();
  const { checkId = '' } = useParams();
  const navigate = useNavigate();
  const [round, setRound] = useState(0);
  const path = { path: { check_id: checkId } };
  const loaded = useLoad(async () => {
    const [{ check }, details] = await Promise.all([
      call(api.checks.GET('/v1/checks/{check_id}', { params: path })),
      call(
        api.checks.GET('/v1/checks/{check_id}/details', { params: { ...path, query: { lang: language } as never } }),
      ),
    ]);
    return { check, details: details.details };
  }, [checkId, round, language]);
  const running = RUNNING.has((loaded.data?.check.status ?? '').toLowerCase());
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => setRound((r) => r + 1), 1500);
    return () => clearTimeout(timer);
  }, [running, loaded.data]);

  const [pdfState, setPdfState] = useState<'idle' | 'generating' | 'ready'>('idle');
  const [actionError, setActionError] = useState<ApiError>();
  const generatePdf = async () => {
    setActionError(undefined);
    try {
      await call(api.checks.POST('/v1/checks/{check_id}/pdf', { params: path }));
      setPdfState('generating');
    } catch (err) {
      setActionError(err as ApiError);
    }
  };
  useEffect(() => {
    if (pdfState !== 'generating') return;
    let live = true;
    const poll = async () => {
      const res = await fetch(`/api/services/checks/v1/checks/${checkId}/pdf`).catch(() => undefined);
      if (!live) return;
      if (res?.status === 200) setPdfState('ready');
      else setTimeout(() => void poll(), 1000);
    };
    void poll();
    return () => {
      live = false;
    };
  }, [pdfState, checkId]);
  const downloadPdf = () =>
    download('checks', `/v1/checks/${checkId}/pdf?lang=${language}`, `${checkId}.pdf`).catch((err: ApiError) =>
      setActionError(err),
    );

  const rerun = async () => {
    const check = loaded.data!.check as unknown as Record<string, unknown>;
    const type = TYPES.includes(check.type as 'person') ? (check.type as 'person') : 'person';
    const inputs: Record<string, string> = {};
    for (const f of fieldsFor(String(check.country), type)) {
      const value = check[f.name];
      if (typeof value === 'string' && value) inputs[f.name] = value;
    }
    setActionError(undefined);
    try {
      const created = await call(
        api.checks.POST('/v1/checks', {
          body: {
            country: check.country as 'CO',
            type: String(check.type),
            user_authorized: true,
            force_creation: true,
            ...inputs,
          },
        }),
      );
      void navigate(`/checks/${created.check.check_id}`);
    } catch (err) {
      setActionError(err as ApiError);
    }
  };

  return (
    <Loading loaded={loaded}>
      {({ check, details }) => (
        <Stack>
          <Group justify="space-between">
            <Title order={2}>{t('checks.detail.title', { id: check.check_id })}</Title>
            <Badge size="lg" variant="light" color={statusColor(check.status)} data-testid="check-status">
              {check.status}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {check.country} · {check.type} · {new Date(check.creation_date).toLocaleString()}
          </Text>
          {running && <Alert color="yellow">{t('checks.detail.inProgress')}</Alert>}
          {actionError && <ErrorState error={actionError} />}
          <Group>
            {pdfState === 'ready' ? (
              <Button id="download-pdf" onClick={() => void downloadPdf()}>
                {t('checks.detail.downloadPdf')}
              </Button>
            ) : (
              <Button
                id="generate-pdf"
                onClick={() => void generatePdf()}
                loading={pdfState === 'generating'}
                disabled={running}
              >
                {t('checks.detail.generatePdf')}
              </Button>
            )}
            {pdfState === 'generating' && (
              <Text size="sm" aria-live="polite">
                {t('checks.detail.pdfPending')}
              </Text>
            )}
            <Button variant="default" id="rerun" onClick={() => void rerun()} disabled={running}>
              {t('checks.detail.rerun')}
            </Button>
          </Group>

          <Title order={3}>{t('checks.detail.scores')}</Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {(
              [
                ['score', check.score],
                ['id_score', check.id_score],
                ['homonym_score', check.homonym_score],
              ] as const
            ).map(([name, value]) => (
              <Card withBorder key={name}>
                <Text size="sm" c="dimmed">
                  {name}
                </Text>
                <Text fw={700} size="xl">
                  {value ?? '—'}
                </Text>
                <Progress
                  value={typeof value === 'number' ? value * 100 : 0}
                  color={typeof value === 'number' && value < 0.5 ? 'red' : 'green'}
                  aria-label={name}
                />
              </Card>
            ))}
          </SimpleGrid>

          <Title order={3}>{t('checks.detail.datasets')}</Title>
          <Table.ScrollContainer minWidth={560}>
            <Table data-testid="datasets">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>data_set</Table.Th>
                  <Table.Th>{t('common.status')}</Table.Th>
                  <Table.Th>result</Table.Th>
                  <Table.Th>severity</Table.Th>
                  <Table.Th>{t('checks.score')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(check.scores ?? []).map((s) => (
                  <Table.Tr key={s.data_set}>
                    <Table.Td>{s.data_set}</Table.Td>
                    <Table.Td>
                      {(check.statuses ?? [])
                        .filter((x) => x.data_set === s.data_set)
                        .map((x) => x.status)
                        .join(', ')}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={statusColor(s.result)}>
                        {s.result}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{s.severity}</Table.Td>
                    <Table.Td>{s.score}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>

          <Title order={3}>{t('checks.detail.records')}</Title>
          {details.every((d) => !d.tables.length) ? (
            <EmptyState>{t('checks.detail.noRecords')}</EmptyState>
          ) : (
            details.flatMap((d) =>
              (d.tables as RecordTable[]).map((table, i) => (
                <Card withBorder key={`${d.id}-${i}`} data-testid="record-table">
                  <Text fw={600}>
                    {table.title} · {d.database_name}
                  </Text>
                  <Table>
                    <Table.Tbody>
                      {(table.rows ?? []).flatMap((row, r) =>
                        row.cells.map((cell, c) => (
                          <Table.Tr key={`${r}-${c}`}>
                            <Table.Th scope="row" w="40%">
                              {cell.label}
                            </Table.Th>
                            <Table.Td>{cellText(cell.value)}</Table.Td>
                          </Table.Tr>
                        )),
                      )}
                    </Table.Tbody>
                  </Table>
                </Card>
              )),
            )
          )}
        </Stack>
      )}
    </Loading>
  );
}
