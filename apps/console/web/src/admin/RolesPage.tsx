import { Badge, Button, Card, Checkbox, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';

import { api, ApiError, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { ErrorState, Loading } from '../shared/states';

/** Groups the master set by its prefix (checks, engagement, validations, svc…). */
const groupOf = (permission: string) => permission.split('.')[0];

/** Roles with their permissions (the master set, grouped); a new role from chosen permissions. */
export default function RolesPage() {
  const { t } = useI18n();
  const [round, setRound] = useState(0);
  const loaded = useLoad(async () => {
    const [roles, master] = await Promise.all([
      call(api.account.GET('/v1/roles', { params: { query: { limit: 100 } } })),
      call(api.account.GET('/v1/permissions', {})),
    ]);
    return { roles: roles.roles, master: master.permissions };
  }, [round]);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<ApiError>();
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      await call(api.account.POST('/v1/roles', { body: { name: name.trim(), permissions: chosen } }));
      setName('');
      setChosen([]);
      setRound((r) => r + 1);
    } catch (err) {
      setError(err as ApiError);
    }
  };
  return (
    <Loading loaded={loaded}>
      {({ roles, master }) => {
        const groups = [...new Set(master.map(groupOf))];
        return (
          <Stack>
            <Title order={2}>{t('roles.title')}</Title>
            {roles.map((role) => (
              <Card withBorder key={role.name}>
                <Group>
                  <Text fw={600}>{role.name}</Text>
                  {role.built_in && <Badge variant="light">built-in</Badge>}
                </Group>
                <Text size="sm" c="dimmed">
                  {role.permissions.join(', ') || '—'}
                </Text>
              </Card>
            ))}
            <Paper withBorder p="md">
              <form onSubmit={(e) => void create(e)} noValidate>
                <Stack>
                  <Title order={3} size="h4">
                    {t('roles.new')}
                  </Title>
                  <TextInput
                    id="role-name"
                    label={t('common.name')}
                    value={name}
                    onChange={(e) => setName(e.currentTarget.value)}
                    error={error?.field('name')}
                  />
                  <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                    {groups.map((group) => (
                      <Checkbox.Group
                        key={group}
                        label={group}
                        value={chosen}
                        onChange={setChosen}
                        error={group === groups[0] ? error?.field('permissions') : undefined}
                      >
                        <Stack gap={4} mt={4}>
                          {master
                            .filter((p) => groupOf(p) === group)
                            .map((p) => (
                              <Checkbox key={p} value={p} label={p} size="xs" />
                            ))}
                        </Stack>
                      </Checkbox.Group>
                    ))}
                  </SimpleGrid>
                  {error && !error.fields.length && <ErrorState error={error} />}
                  <Group>
                    <Button id="create-role" type="submit">
                      {t('common.create')}
                    </Button>
                  </Group>
                </Stack>
              </form>
            </Paper>
          </Stack>
        );
      }}
    </Loading>
  );
}
