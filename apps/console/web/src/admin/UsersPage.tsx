import { Badge, Button, Group, NativeSelect, Paper, Stack, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';

import { api, ApiError, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { PagedTable, usePaging } from '../shared/PagedTable';
import { ErrorState, Loading } from '../shared/states';

/** The account's users: invite one with a role, change a role, disable or enable. */
export default function UsersPage() {
  const { t } = useI18n();
  const [round, setRound] = useState(0);
  const loaded = useLoad(
    async () =>
      (await call(api.account.GET('/v1/roles', { params: { query: { limit: 100 } } }))).roles.map((r) => r.name),
    [round],
  );
  const paging = usePaging<{ limit: number }>({ limit: 100 });
  const { query } = paging;
  const users = useLoad(() => call(api.account.GET('/v1/account/users', { params: { query } })), [query, round]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('default_access');
  const [error, setError] = useState<ApiError>();
  const reload = () => setRound((r) => r + 1);
  const act = async (work: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await work();
      reload();
    } catch (err) {
      setError(err as ApiError);
    }
  };
  const invite = (e: FormEvent) => {
    e.preventDefault();
    void act(async () => {
      await call(api.account.POST('/v1/account/users', { body: { email: email.trim(), role } }));
      setEmail('');
    });
  };
  return (
    <Loading loaded={loaded}>
      {(roles) => (
        <Stack>
          <Title order={2}>{t('users.title')}</Title>
          <Paper withBorder p="md">
            <form onSubmit={invite} noValidate>
              <Group align="start">
                <TextInput
                  id="invite-email"
                  type="email"
                  label={t('users.email')}
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                  error={error?.field('email')}
                />
                <NativeSelect
                  id="invite-role"
                  label={t('users.role')}
                  data={roles}
                  value={role}
                  onChange={(e) => setRole(e.currentTarget.value)}
                  error={error?.field('role')}
                />
                <Button id="invite" type="submit" mt={24}>
                  {t('users.invite')}
                </Button>
              </Group>
            </form>
          </Paper>
          {error && !error.fields.length && <ErrorState error={error} />}
          <PagedTable
            loaded={users}
            paging={paging}
            testId="users-table"
            rows={(page) => page.users}
            rowKey={(u) => u.user_id}
            columns={[
              { header: t('users.email'), cell: (u) => u.username },
              {
                header: t('users.role'),
                cell: (u) => (
                  <NativeSelect
                    aria-label={`${t('users.changeRole')}: ${u.username}`}
                    size="xs"
                    data={roles}
                    value={u.role}
                    onChange={(e) => {
                      const next = e.currentTarget.value;
                      void act(() =>
                        call(
                          api.account.PUT('/v1/account/users/{username}', {
                            params: { path: { username: u.username } },
                            body: { role: next },
                          }),
                        ),
                      );
                    }}
                  />
                ),
              },
              {
                header: t('common.status'),
                cell: (u) => (
                  <Badge variant="light" color={u.status === 'enabled' ? 'green' : 'gray'}>
                    {u.status}
                  </Badge>
                ),
              },
              {
                header: t('common.actions'),
                cell: (u) => (
                  <Button
                    size="xs"
                    variant="light"
                    color={u.status === 'enabled' ? 'red' : 'green'}
                    onClick={() =>
                      void act(() =>
                        call(
                          api.account.PATCH('/v1/account/users/{username}/status', {
                            params: { path: { username: u.username } },
                            body: { status: u.status === 'enabled' ? 'disabled' : 'enabled', reason: 'console' },
                          }),
                        ),
                      )
                    }
                  >
                    {u.status === 'enabled' ? t('users.disable') : t('users.enable')}
                  </Button>
                ),
              },
            ]}
          />
        </Stack>
      )}
    </Loading>
  );
}
