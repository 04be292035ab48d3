import { Alert, Anchor, Button, Center, Paper, Stack, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';

import { ApiError, bff } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { LanguagePicker } from '../shared/LanguagePicker';
import { ErrorState } from '../shared/states';
import { Me, useSession } from './session';

/** E-mail, then the one-time code sent to it. */
export function SignInPage() {
  const { t } = useI18n();
  const session = useSession();
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [email, setEmail] = useState('');
  const [tenant, setTenant] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const tenantId = tenant.trim() || undefined;
  const sendCode = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await bff('POST', '/api/session/code', { email, tenant_id: tenantId });
      setStep('code');
    });
  };
  const verify = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => session.signedIn(await bff<Me>('POST', '/api/session', { email, code, tenant_id: tenantId })));
  };
  const general = error && !error.fields.length ? error : undefined;

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w={420} maw="100%" component="main">
        <Stack>
          <Title order={1} size="h3">
            {t('signIn.title')}
          </Title>
          <LanguagePicker />
          {session.ended && <Alert color="yellow">{t('session.signedOut')}</Alert>}
          {general && <ErrorState error={general} />}
          {step === 'email' ? (
            <form onSubmit={sendCode} noValidate>
              <Stack>
                <TextInput
                  id="email"
                  type="email"
                  autoComplete="username"
                  label={t('signIn.email')}
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                  error={error?.field('email')}
                  required
                  autoFocus
                />
                <TextInput
                  id="tenant"
                  label={t('signIn.tenant')}
                  value={tenant}
                  onChange={(e) => setTenant(e.currentTarget.value)}
                  error={error?.field('tenant_id')}
                />
                <Button id="send-code" type="submit" loading={busy}>
                  {t('signIn.sendCode')}
                </Button>
              </Stack>
            </form>
          ) : (
            <form onSubmit={verify} noValidate>
              <Stack>
                <Alert color="blue">{t('signIn.codeSent')}</Alert>
                <TextInput
                  id="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  label={t('signIn.code')}
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value)}
                  error={error?.field('code')}
                  required
                  autoFocus
                />
                <Button id="verify" type="submit" loading={busy}>
                  {t('signIn.verify')}
                </Button>
                <Anchor component="button" type="button" onClick={() => setStep('email')}>
                  {t('signIn.other')}
                </Anchor>
              </Stack>
            </form>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
