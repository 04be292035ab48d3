import { Alert, Badge, Button, Code, Group, Paper, Stack, Table, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';

import { api, ApiError, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { EmptyState, ErrorState, Loading } from '../shared/states';

/** The account's API keys: issue one (shown once), revoke. */
export default function ApiKeysPage() {
  const { t } = useI18n();
  const [round, setRound] = useState(0);
  const loaded = useLoad(() => call(api.identity.GET('/v1/api-keys', { params: { query: { limit: 100 } } })), [round]);
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
      <Loading loaded={loaded}>
        {(page) =>
          page.api_keys.length === 0 ? (
            <EmptyState />
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('common.name')}</Table.Th>
                    <Table.Th>key_type</Table.Th>
                    <Table.Th>{t('common.created')}</Table.Th>
                    <Table.Th>{t('common.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.api_keys.map((k) => (
                    <Table.Tr key={k.key_id}>
                      <Table.Td>{k.key_name}</Table.Td>
                      <Table.Td>{k.key_type}</Table.Td>
                      <Table.Td>{new Date(k.creation_date).toLocaleString()}</Table.Td>
                      <Table.Td>
                        {k.revocation_date ? (
                          <Badge color="gray">{t('keys.revoked')}</Badge>
                        ) : (
                          <Button size="xs" color="red" variant="light" onClick={() => void revoke(k.key_id)}>
                            {t('keys.revoke')}
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </Loading>
    </Stack>
  );
}
