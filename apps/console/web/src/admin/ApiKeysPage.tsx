import { Alert, Badge, Button, Code, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';

import { api, ApiError, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { PagedTable, usePaging } from '../shared/PagedTable';
import { ErrorState } from '../shared/states';

/** The account's API keys: issue one (shown once), revoke. */
export default function ApiKeysPage() {
  const { t } = useI18n();
  const [round, setRound] = useState(0);
  const paging = usePaging<{ limit: number }>({ limit: 100 });
  const { query } = paging;
  const loaded = useLoad(() => call(api.identity.GET('/v1/api-keys', { params: { query } })), [query, round]);
  const [name, setName] = useState('');
  const [issued, setIssued] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const issue = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      const created = await call(
        api.identity.POST('/v1/api-keys', { body: { key_type: 'backend', name: name.trim() } }),
      );
      setIssued(created.api_key);
      setName('');
      setRound((r) => r + 1);
    } catch (err) {
      setError(err as ApiError);
    }
  };
  const revoke = async (keyId: string) => {
    setError(undefined);
    try {
      await call(api.identity.DELETE('/v1/api-keys/{key_id}', { params: { path: { key_id: keyId } } }));
      setRound((r) => r + 1);
    } catch (err) {
      setError(err as ApiError);
    }
  };
  return (
    <Stack>
      <Title order={2}>{t('keys.title')}</Title>
      <Paper withBorder p="md">
        <form onSubmit={(e) => void issue(e)} noValidate>
          <Group align="start">
            <TextInput
              id="key-name"
              label={t('common.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={error?.field('name')}
            />
            <Button id="issue-key" type="submit" mt={24}>
              {t('keys.issue')}
            </Button>
          </Group>
        </form>
      </Paper>
      {issued && (
        <Alert color="yellow" title={t('keys.shownOnce')} withCloseButton onClose={() => setIssued(undefined)}>
          <Code block data-testid="issued-key">
            {issued}
          </Code>
        </Alert>
      )}
      {error && !error.fields.length && <ErrorState error={error} />}
      <PagedTable
        loaded={loaded}
        paging={paging}
        testId="keys-table"
        rows={(page) => page.api_keys}
        rowKey={(k) => k.key_id}
        columns={[
          { header: t('common.name'), cell: (k) => k.key_name },
          { header: 'key_type', cell: (k) => k.key_type },
          { header: t('common.created'), cell: (k) => new Date(k.creation_date).toLocaleString() },
          {
            header: t('common.actions'),
            cell: (k) =>
              k.revocation_date ? (
                <Badge color="gray">{t('keys.revoked')}</Badge>
              ) : (
                <Button size="xs" color="red" variant="light" onClick={() => void revoke(k.key_id)}>
                  {t('keys.revoke')}
                </Button>
              ),
          },
        ]}
      />
    </Stack>
  );
}
