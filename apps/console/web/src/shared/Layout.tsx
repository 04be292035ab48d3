import { AppShell, Burger, Button, Group, NavLink, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { NavLink as RouterLink, Outlet, useLocation } from 'react-router-dom';

import { useSession } from '../auth/session';
import { MessageKey } from '../i18n/en';
import { useI18n } from '../i18n/i18n';
import { LanguagePicker } from './LanguagePicker';
import { LoadingState } from './states';

interface Item {
  to: string;
  label: MessageKey;
  /** Shown when the role has any of these permissions (`x.*`: any of x.); the services decide all the same. */
  anyOf: string[];
}

const ITEMS: Item[] = [
  { to: '/checks', label: 'nav.checks', anyOf: ['checks.*'] },
  { to: '/checks/batches', label: 'nav.batches', anyOf: ['checks.*'] },
  { to: '/checks/continuous', label: 'nav.continuous', anyOf: ['checks.*'] },
  { to: '/processes', label: 'nav.processes', anyOf: ['validations.*', 'identity.*'] },
  { to: '/review', label: 'nav.review', anyOf: ['validations.*', 'identity.*'] },
  // Customers routes need no permission (any user of the tenant): '*' is any role.
  { to: '/contacts', label: 'nav.contacts', anyOf: ['*'] },
  { to: '/segments', label: 'nav.segments', anyOf: ['*'] },
  { to: '/rules', label: 'nav.rules', anyOf: ['svc.users'] },
  { to: '/inbox', label: 'nav.inbox', anyOf: ['engagement.*'] },
  { to: '/admin/users', label: 'nav.users', anyOf: ['svc.users'] },
  { to: '/admin/roles', label: 'nav.roles', anyOf: ['svc.users'] },
  { to: '/admin/api-keys', label: 'nav.apiKeys', anyOf: ['svc.keys'] },
  { to: '/admin/signing-secret', label: 'nav.signingSecret', anyOf: ['svc.users'] },
  { to: '/admin/audit', label: 'nav.audit', anyOf: ['svc.users'] },
];

/** The item of a path: the longest `to` it starts with (/checks/batches/1 is Batches, not Checks). */
const activeItem = (pathname: string) =>
  ITEMS.filter((i) => pathname === i.to || pathname.startsWith(`${i.to}/`)).sort((a, b) => b.to.length - a.to.length)[0]
    ?.to;

/** The frame of every signed-in page: the navigation (folds on a tablet), language and sign-out. */
export function Layout() {
  const { t } = useI18n();
  const session = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 230, breakpoint: 'md', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a href="#main" className="skip-link">
        {t('app.skip')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" aria-label={t('nav.menu')} />
            <Title order={1} size="h4">
              {t('app.title')}
            </Title>
          </Group>
          <Group wrap="nowrap" gap="xs">
            <Text size="sm" visibleFrom="sm" data-testid="whoami">
              {session.me?.username} · {session.me?.role}
            </Text>
            <Button size="xs" variant="subtle" onClick={() => void session.signOut()}>
              {t('session.signOut')}
            </Button>
            <Button size="xs" variant="subtle" color="red" onClick={() => void session.signOut(true)} visibleFrom="sm">
              {t('session.signOutEverywhere')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('nav.menu')} component="nav">
        <ScrollArea>
          {ITEMS.filter((item) => session.can(...item.anyOf)).map((item) => (
            <NavLink
              key={item.to}
              component={RouterLink}
              to={item.to}
              end
              label={t(item.label)}
              active={activeItem(location.pathname) === item.to}
              onClick={close}
            />
          ))}
        </ScrollArea>
        <LanguagePicker />
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
