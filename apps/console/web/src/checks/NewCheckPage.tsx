import { Button, Checkbox, Group, NativeSelect, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { api, ApiError, call } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { ErrorState } from '../shared/states';
import { CheckType, COUNTRIES, fieldsFor, TYPES } from './check-form';

/** A check's creation form: its fields follow the country and the type; the API's errors go under each field. */
export default function NewCheckPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [country, setCountry] = useState<string>('CO');
  const [type, setType] = useState<CheckType>('person');
  const [values, setValues] = useState<Record<string, string>>({});
  const [authorized, setAuthorized] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const fields = fieldsFor(country, type);

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setBusy(true);
    setError(undefined);
    const inputs = Object.fromEntries(
      fields.map((field) => [field.name, values[field.name]?.trim()]).filter(([, v]) => v),
    ) as Record<string, string>;
    try {
      const created = await call(
        api.checks.POST('/v1/checks', {
          body: { country: country as 'CO', type, user_authorized: authorized, ...inputs },
        }),
      );
      void navigate(`/checks/${created.check.check_id}`);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const unplaced = error?.fields.filter(
    (x) => !fields.some((field) => x.field === field.name) && !['country', 'type', 'user_authorized'].includes(x.field),
  );

  return (
    <Stack maw={760}>
      <Title order={2}>{t('checks.create.title')}</Title>
      {error && (!error.fields.length || unplaced?.length) ? (
        <ErrorState
          error={unplaced?.length ? new ApiError(error.status, error.message, error.errorCode, unplaced) : error}
          onRetry={() => void submit()}
        />
      ) : null}
      <Paper withBorder p="md">
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NativeSelect
                id="country"
                label={t('checks.country')}
                data={[...COUNTRIES]}
                value={country}
                onChange={(e) => setCountry(e.currentTarget.value)}
                error={error?.field('country')}
              />
              <NativeSelect
                id="type"
                label={t('checks.type')}
                data={[...TYPES]}
                value={type}
                onChange={(e) => setType(e.currentTarget.value as CheckType)}
                error={error?.field('type')}
              />
              {fields.map((field) =>
                field.options ? (
                  <NativeSelect
                    key={field.name}
                    id={field.name}
                    label={t(field.label)}
                    data={['', ...field.options]}
                    value={values[field.name] ?? ''}
                    onChange={(e) => setValues({ ...values, [field.name]: e.currentTarget.value })}
                    error={error?.field(field.name)}
                  />
                ) : (
                  <TextInput
                    key={field.name}
                    id={field.name}
                    label={t(field.label)}
                    placeholder={field.placeholder}
                    withAsterisk={field.required}
                    value={values[field.name] ?? ''}
                    onChange={(e) => setValues({ ...values, [field.name]: e.currentTarget.value })}
                    error={error?.field(field.name)}
                  />
                ),
              )}
            </SimpleGrid>
            <Checkbox
              id="user_authorized"
              label={t('checks.field.user_authorized')}
              checked={authorized}
              onChange={(e) => setAuthorized(e.currentTarget.checked)}
              error={error?.field('user_authorized')}
            />
            <Group>
              <Button id="create-check" type="submit" loading={busy}>
                {t('checks.create.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
