import { Button, Group, Textarea } from '@mantine/core';
import { useState } from 'react';

import { api, ApiError, call } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { ErrorState } from '../shared/states';

/** Approve or reject a process with a reason (identity's override-status; the process keeps who decided when). */
export function Decision({ processId, onDecided }: { processId: string; onDecided: () => void }) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<ApiError>();
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const decide = async (status: 'success' | 'failure') => {
    if (!reason.trim()) return setMissing(true);
    setMissing(false);
    setBusy(true);
    setError(undefined);
    try {
      await call(
        api.identity.POST('/v1/processes/{process_id}/override-status', {
          params: { path: { process_id: processId } },
          body: { override_status: status, reason: reason.trim() },
        }),
      );
      onDecided();
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const id = `reason-${processId}`;
  return (
    <div>
      <Textarea
        id={id}
        label={t('common.reason')}
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        error={missing ? t('review.reasonRequired') : (error?.field('reason') ?? error?.field('override_status'))}
        autosize
        minRows={1}
      />
      {error && !error.fields.length && <ErrorState error={error} />}
      <Group mt="xs">
        <Button size="xs" color="#1b6e2e" loading={busy} onClick={() => void decide('success')} data-testid="approve">
          {t('review.approve')}
        </Button>
        <Button
          size="xs"
          color="red"
          variant="light"
          loading={busy}
          onClick={() => void decide('failure')}
          data-testid="reject"
        >
          {t('review.reject')}
        </Button>
      </Group>
    </div>
  );
}
