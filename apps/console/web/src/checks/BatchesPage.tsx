import {
  Badge,
  Button,
  Code,
  FileInput,
  Group,
  NativeSelect,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { FormEvent, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';

import { api, ApiError, call, download, uploadTo, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { ErrorState, Loading } from '../shared/states';
import { COUNTRIES } from './check-form';
import { statusColor } from './status';

const FINISHED = ['completed', 'stopped', 'failed'];

/**
 * Batches: a spreadsheet of check inputs (xlsx, one check per row). The form creates the batch,
 * uploads the file to its signed link (through the console) and starts it; the batch's page shows
 * its progress until it finishes, then makes and downloads its report.
 */
export default function BatchesPage() {
  const { batchId } = useParams();
  return batchId ? <BatchView batchId={batchId} /> : <NewBatch />;
}

function NewBatch() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [country, setCountry] = useState('CO');
  const [type, setType] = useState('person');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [missingFile, setMissingFile] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    setMissingFile(!file);
    if (!file) return;
    setBusy(true);
    try {
      const created = await call(
        api.checks.POST('/v1/batches', { body: { country: country as 'CO', service: 'checks', type } }),
      );
      await uploadTo('checks', created.file_upload_link, file);
      await call(
        api.checks.POST('/v1/batches/{batch_id}/start', { params: { path: { batch_id: created.batch.batch_id } } }),
      );
      void navigate(`/checks/batches/${created.batch.batch_id}`);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      <Title order={2}>{t('batches.title')}</Title>
      <Text size="sm">{t('batches.help')}</Text>
      <Paper withBorder p="md">
        <form onSubmit={(e) => void submit(e)} noValidate>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NativeSelect
              id="batch-country"
              label={t('checks.country')}
              data={COUNTRIES.filter((c) => c !== 'ALL')}
              value={country}
              onChange={(e) => setCountry(e.currentTarget.value)}
              error={error?.field('country')}
            />
            <TextInput
              id="batch-type"
              label={t('checks.type')}
              description={t('batches.typeHelp')}
              value={type}
              onChange={(e) => setType(e.currentTarget.value)}
              error={error?.field('type')}
            />
            <FileInput
              id="batch-file"
              label={t('batches.file')}
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              value={file}
              onChange={setFile}
              clearable
              error={missingFile ? t('batches.fileRequired') : (error?.field('file') ?? undefined)}
            />
          </SimpleGrid>
          <Group mt="md">
            <Button id="start-batch" type="submit" loading={busy}>
              {t('batches.start')}
            </Button>
          </Group>
        </form>
      </Paper>
      {error && !error.fields.length && <ErrorState error={error} />}
    </Stack>
  );
}

function BatchView({ batchId }: { batchId: string }) {
  const { t } = useI18n();
  const [round, setRound] = useState(0);
  const [error, setError] = useState<ApiError>();
  const [downloading, setDownloading] = useState(false);
  const path = { params: { path: { batch_id: batchId } } };
  const loaded = useLoad(() => call(api.checks.GET('/v1/batches/{batch_id}', path)), [batchId, round]);
  const batch = loaded.data?.batch;
  // A batch is `completed` once its rows are read and its checks created; its checks may still run.
  const running =
    batch !== undefined && (!FINISHED.includes(batch.status) || (batch.progress?.checks_in_progress ?? 0) > 0);
  // Progress: asked again every 2 s until the batch and its checks finish.
  useEffect(() => {
    if (!running || loaded.loading) return;
    const timer = setTimeout(() => setRound((r) => r + 1), 2000);
    return () => clearTimeout(timer);
  }, [running, loaded.loading, loaded.data]);
  const report = async () => {
    setError(undefined);
    setDownloading(true);
    try {
      if (!batch?.report)
        await call(api.checks.POST('/v1/batches/{batch_id}/report', { ...path, body: { format: 'xlsx' } }));
      await download('checks', `/v1/batches/${batchId}/report`, `${batchId}-report.xlsx`);
      setRound((r) => r + 1);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Loading loaded={loaded}>
      {({ batch: b }) => {
        const p = b.progress;
        const done = p ? p.checks_completed + p.checks_error + p.rows_failed + p.rows_stopped : 0;
        const percent = p && p.rows_total > 0 ? Math.round((done / p.rows_total) * 100) : 0;
        return (
          <Stack>
            <Group justify="space-between">
              <Title order={2}>{t('batches.detail.title', { id: b.batch_id })}</Title>
              <Badge size="lg" variant="light" color={statusColor(b.status)} data-testid="batch-status">
                {b.status}
              </Badge>
            </Group>
            <Text size="sm">
              {b.country} · {b.type} · {t('batches.columns')}: <Code>{b.columns.filter(Boolean).join(', ')}</Code>
            </Text>
            {b.error && <ErrorState error={new ApiError(422, b.error)} />}
            <Paper withBorder p="md">
              <Text size="sm" mb="xs">
                {t('batches.progress', { done, total: p?.rows_total ?? 0 })}
              </Text>
              <Progress
                value={percent}
                aria-label={t('batches.progress', { done, total: p?.rows_total ?? 0 })}
                data-testid="batch-progress"
              />
              {p && (
                <SimpleGrid cols={{ base: 2, sm: 4 }} mt="sm">
                  <Text size="sm">
                    {t('batches.created')}: {p.rows_created}
                  </Text>
                  <Text size="sm">
                    {t('batches.failedRows')}: {p.rows_failed}
                  </Text>
                  <Text size="sm">
                    {t('batches.completed')}: {p.checks_completed}
                  </Text>
                  <Text size="sm">
                    {t('batches.inProgress')}: {p.checks_in_progress}
                  </Text>
                </SimpleGrid>
              )}
            </Paper>
            {running && <Text size="sm">{t('batches.running')}</Text>}
            {error && <ErrorState error={error} />}
            <Group>
              <Button id="batch-report" onClick={() => void report()} loading={downloading} disabled={running}>
                {t('batches.report')}
              </Button>
            </Group>
          </Stack>
        );
      }}
    </Loading>
  );
}
