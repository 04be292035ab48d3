import { Alert, Button, Center, Group, Loader, Text } from '@mantine/core';
import { ReactNode } from 'react';

import { ApiError, Loaded } from '../api/client';
import { useI18n } from '../i18n/i18n';

/** An API error in words: a retry when it is worth one (no answer, 5xx), the role's refusal said so. */
export function ErrorState({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  const { t } = useI18n();
  const title =
    error.status === 0 ? t('state.unreachable') : error.status === 403 ? t('state.forbidden') : t('state.error');
  return (
    <Alert color={error.status === 403 ? 'orange' : 'red'} title={title} role="alert" data-testid="error-state">
      {error.status !== 0 && <Text size="sm">{error.message}</Text>}
      {error.fields.map((f) => (
        <Text size="sm" key={f.field}>
          {f.field}: {f.message}
        </Text>
      ))}
      {error.retryable && onRetry && (
        <Group mt="sm">
          <Button size="xs" variant="light" onClick={onRetry}>
            {t('state.retry')}
          </Button>
        </Group>
      )}
    </Alert>
  );
}

export function LoadingState() {
  const { t } = useI18n();
  return (
    <Center p="xl" aria-live="polite">
      <Loader size="sm" aria-hidden />
      <Text ml="sm" size="sm">
        {t('state.loading')}
      </Text>
    </Center>
  );
}

export function EmptyState({ children }: { children?: ReactNode }) {
  const { t } = useI18n();
  return (
    <Text c="dimmed" p="md" data-testid="empty-state">
      {children ?? t('state.empty')}
    </Text>
  );
}

/** The loading, error (with retry) or loaded state of a page's data. */
export function Loading<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ReactNode }) {
  if (loaded.error) return <ErrorState error={loaded.error} onRetry={loaded.reload} />;
  if (loaded.data === undefined) return <LoadingState />;
  return <>{children(loaded.data)}</>;
}
