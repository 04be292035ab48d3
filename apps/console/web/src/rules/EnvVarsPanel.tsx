import { Badge, Button, Checkbox, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { FormEvent, SyntheticEvent, useState } from 'react';

import { api, ApiError, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { ErrorState, Loading } from '../shared/states';

/** An action's env vars (templates read them as {{.env.NAME}}): secrets are never shown again. */
export function EnvVarsPanel({ ruleId, actionId }: { ruleId: string; actionId: string }) {
  const { t } = useI18n();
  const [round, setRound] = useState(0);
  const path = { rule_id: ruleId, action_id: actionId };
  const loaded = useLoad(
    () => call(api.account.GET('/v1/bre/rules/{rule_id}/actions/{action_id}/envs', { params: { path } })),
    [ruleId, actionId, round],
  );
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [secret, setSecret] = useState(false);
  const [error, setError] = useState<ApiError>();
  const prefix = `env-${actionId}`;
  const add = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      await call(
        api.account.POST('/v1/bre/rules/{rule_id}/actions/{action_id}/envs', {
          params: { path },
          body: { name: name.trim(), value, is_secret: secret },
        }),
      );
      setName('');
      setValue('');
      setSecret(false);
      setRound((r) => r + 1);
    } catch (err) {
      setError(err as ApiError);
    }
  };
  const remove = async (varName: string) => {
    setError(undefined);
    try {
      await call(
        api.account.DELETE('/v1/bre/rules/{rule_id}/actions/{action_id}/envs/{var_name}', {
          params: { path: { ...path, var_name: varName } },
        }),
      );
      setRound((r) => r + 1);
    } catch (err) {
      setError(err as ApiError);
    }
  };
  return (
    <Stack gap="xs" mt="xs">
      <Loading loaded={loaded}>
        {({ envs = [] }) =>
          envs.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('rules.env.empty')}
            </Text>
          ) : (
            <Table>
              <Table.Tbody>
                {envs.map((env) => (
                  <Table.Tr key={env.name}>
                    <Table.Td>
                      <code>{env.name}</code>
                    </Table.Td>
                    <Table.Td>
                      {env.is_secret ? <Badge variant="light">{t('rules.env.secret')}</Badge> : env.value}
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => void remove(env.name)}
                        aria-label={`${t('logic.remove')} ${env.name}`}
                      >
                        {t('logic.remove')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </Loading>
      <form onSubmit={(e) => void add(e)} noValidate>
        <Group align="end" wrap="wrap">
          <TextInput
            id={`${prefix}-name`}
            size="xs"
            label={t('common.name')}
            placeholder="API_TOKEN"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error?.field('name')}
          />
          <TextInput
            id={`${prefix}-value`}
            size="xs"
            label={t('rules.env.value')}
            type={secret ? 'password' : 'text'}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={error?.field('value')}
          />
          <Checkbox
            id={`${prefix}-secret`}
            size="xs"
            mb={6}
            label={t('rules.env.secret')}
            checked={secret}
            onChange={(e) => setSecret(e.currentTarget.checked)}
          />
          <Button size="xs" type="submit" variant="light">
            {t('rules.env.add')}
          </Button>
        </Group>
      </form>
      {error && !error.field('name') && !error.field('value') && <ErrorState error={error} />}
    </Stack>
  );
}

/** The env vars of an action behind a disclosure (loaded when opened). */
export function EnvVarsDisclosure({ ruleId, actionId }: { ruleId: string; actionId: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e: SyntheticEvent<HTMLDetailsElement>) => setOpen(e.currentTarget.open)}>
      <summary>
        <Text span size="sm">
          {t('rules.env.title')}
        </Text>
      </summary>
      {open && <EnvVarsPanel ruleId={ruleId} actionId={actionId} />}
    </details>
  );
}
