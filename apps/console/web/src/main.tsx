import '@mantine/core/styles.css';
import './console.css';

import { MantineProvider } from '@mantine/core';
import { lazy, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router-dom';

import { SessionProvider, useSession } from './auth/session';
import { SignInPage } from './auth/SignInPage';
import { I18nProvider } from './i18n/i18n';
import { Layout } from './shared/Layout';
import { ErrorState, LoadingState } from './shared/states';

// Each area is its own chunk: the first page load carries the shell and sign-in only.
const ChecksPage = lazy(() => import('./checks/ChecksPage'));
const NewCheckPage = lazy(() => import('./checks/NewCheckPage'));
const CheckPage = lazy(() => import('./checks/CheckPage'));
const ProcessesPage = lazy(() => import('./processes/ProcessesPage'));
const ProcessPage = lazy(() => import('./processes/ProcessPage'));
const ReviewPage = lazy(() => import('./processes/ReviewPage'));
const UsersPage = lazy(() => import('./admin/UsersPage'));
const RolesPage = lazy(() => import('./admin/RolesPage'));
const ApiKeysPage = lazy(() => import('./admin/ApiKeysPage'));
const SigningSecretPage = lazy(() => import('./admin/SigningSecretPage'));
const AuditPage = lazy(() => import('./admin/AuditPage'));

const router = createBrowserRouter([
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/checks" replace /> },
      { path: 'checks', element: <ChecksPage /> },
      { path: 'checks/new', element: <NewCheckPage /> },
      { path: 'checks/:checkId', element: <CheckPage /> },
      { path: 'processes', element: <ProcessesPage /> },
      { path: 'processes/:processId', element: <ProcessPage /> },
      { path: 'review', element: <ReviewPage /> },
      { path: 'admin/users', element: <UsersPage /> },
      { path: 'admin/roles', element: <RolesPage /> },
      { path: 'admin/api-keys', element: <ApiKeysPage /> },
      { path: 'admin/signing-secret', element: <SigningSecretPage /> },
      { path: 'admin/audit', element: <AuditPage /> },
      { path: '*', element: <Navigate to="/checks" replace /> },
    ],
  },
]);

/** Signed in: the console; signed out: the sign-in page; the session's check failing: a retry. */
function Root() {
  const session = useSession();
  if (session.checking && !session.me) return <LoadingState />;
  if (session.error && !session.me) return <ErrorState error={session.error} onRetry={session.retry} />;
  if (!session.me) return <SignInPage />;
  return <RouterProvider router={router} />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider>
      <I18nProvider>
        <SessionProvider>
          <Root />
        </SessionProvider>
      </I18nProvider>
    </MantineProvider>
  </StrictMode>,
);
