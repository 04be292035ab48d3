import { Alert, Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';

import { api, ApiError, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { ErrorState, Loading } from '../shared/states';

/** The webhook signing secret of the business rules' HTTP actions: how it signs, and a rotation. */
export default function SigningSecretPage() {
  const { t } = useI18n();
  const [round, setRound] = useState(0);
  const loaded = useLoad(() => call(api.account.GET('/v1/bre/signing-secret', {})), [round]);
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const rotate = async () => {
    setError(undefined);
    try {
      const rotated = await call(
        api.account.POST('/v1/bre/signing-secret/rotate', { body: { grace_period_seconds: 86_400 } }),
      );
      setSecret(rotated.signing_secret.secret);
      setRound((r) => r + 1);
    } catch (err) {
      setError(err as ApiError);
    }
  };
  return (
    <Stack>
      <Title order={2}>{t('secret.title')}</Title>
      <Loading loaded={loaded}>
        {(current) => (
          <Text size="sm" component="div">
            <Code block>{JSON.stringify({ ...current.signing_secret, secret: undefined }, null, 2)}</Code>
          </Text>
        )}
      </Loading>
      {error && <ErrorState error={error} />}
      {secret && (
        <Alert color="yellow" title={t('secret.rotated')}>
          <Code block>{secret}</Code>
        </Alert>
      )}
      <Group>
        <Button color="orange" variant="light" onClick={() => void rotate()}>
          {t('secret.rotate')}
        </Button>
      </Group>
    </Stack>
  );
}
