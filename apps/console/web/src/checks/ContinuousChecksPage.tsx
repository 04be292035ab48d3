import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';

import { api, ApiError, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { PagedTable, usePaging } from '../shared/PagedTable';
import { ErrorState } from '../shared/states';

/** A year from today, YYYY-MM-DD: the form's default end date. */
const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

/**
 * Continuous checks: a check repeated with the same inputs at a frequency until an end date. The
 * list with paging; create one from a check; pause (disabled) and resume (enabled).
 */
export default function ContinuousChecksPage() {
  const { t } = useI18n();
  const [round, setRound] = useState(0);
  const paging = usePaging<object>({});
  const { query } = paging;
  const loaded = useLoad(() => call(api.checks.GET('/v1/continuous-checks', { params: { query } })), [query, round]);
  const [form, setForm] = useState({ check_id: '', frequency: 'monthly', end_date: inAYear() });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const act = async (work: () => Promise<unknown>) => {
    setError(undefined);
    setBusy(true);
    try {
      await work();
      setRound((r) => r + 1);
      return true;
    } catch (err) {
      setError(err as ApiError);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const create = async (e: FormEvent) => {
    e.preventDefault();
    const body = { check_id: form.check_id.trim(), frequency: form.frequency.trim(), end_date: form.end_date };
    if (await act(() => call(api.checks.POST('/v1/continuous-checks', { body })))) setForm({ ...form, check_id: '' });
  };
  const setStatus = (id: string, frequency: string, status: 'enabled' | 'disabled') =>
    act(() =>
      call(
        api.checks.PUT('/v1/continuous-checks/{continuous_check_id}', {
          params: { path: { continuous_check_id: id } },
          body: { frequency, status },
        }),
      ),
    );
  const field = (name: keyof typeof form, label: string, type = 'text', description?: string) => (
    <TextInput
      id={`cc-${name}`}
      type={type}
      label={label}
      description={description}
      value={form[name]}
      onChange={(e) => setForm({ ...form, [name]: e.currentTarget.value })}
      error={error?.field(name)}
    />
  );
  return (
    <Stack>
      <Title order={2}>{t('continuous.title')}</Title>
      <Paper withBorder p="md">
        <form onSubmit={(e) => void create(e)} noValidate>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {field('check_id', t('checks.id'))}
            {field('frequency', t('continuous.frequency'), 'text', t('continuous.frequencyHelp'))}
            {field('end_date', t('continuous.endDate'), 'date')}
          </SimpleGrid>
          <Group mt="md">
            <Button id="create-continuous" type="submit" loading={busy}>
              {t('continuous.create')}
            </Button>
          </Group>
        </form>
      </Paper>
      {error && !error.fields.length && <ErrorState error={error} />}
      <PagedTable
        loaded={loaded}
        paging={paging}
        testId="continuous-table"
        empty={t('continuous.empty')}
        rows={(page) => page.continuous_checks}
        rowKey={(cc) => cc.continuous_check_id}
        columns={[
          {
            header: t('checks.id'),
            cell: (cc) => (
              <Anchor component={Link} to={`/checks/${cc.last_check_id}`}>
                {cc.last_check_id}
              </Anchor>
            ),
          },
          { header: t('continuous.frequency'), cell: (cc) => cc.frequency },
          { header: t('continuous.endDate'), cell: (cc) => cc.end_date },
          {
            header: t('continuous.nextRun'),
            cell: (cc) => (cc.next_run_date ? new Date(cc.next_run_date).toLocaleDateString() : '—'),
          },
          { header: t('continuous.runs'), cell: (cc) => cc.counter },
          {
            header: t('common.status'),
            cell: (cc) => (
              <Badge variant="light" color={cc.status === 'enabled' ? 'green' : 'gray'}>
                {cc.status === 'enabled' ? t('continuous.enabled') : t('continuous.paused')}
              </Badge>
            ),
          },
          {
            header: t('common.actions'),
            cell: (cc) =>
              cc.status === 'enabled' ? (
                <Button
                  size="xs"
                  variant="light"
                  color="orange"
                  aria-label={`${t('continuous.pause')}: ${cc.continuous_check_id}`}
                  onClick={() => void setStatus(cc.continuous_check_id, cc.frequency, 'disabled')}
                >
                  {t('continuous.pause')}
                </Button>
              ) : (
                <Button
                  size="xs"
                  variant="light"
                  aria-label={`${t('continuous.resume')}: ${cc.continuous_check_id}`}
                  onClick={() => void setStatus(cc.continuous_check_id, cc.frequency, 'enabled')}
                >
                  {t('continuous.resume')}
                </Button>
              ),
          },
        ]}
      />
    </Stack>
  );
}
