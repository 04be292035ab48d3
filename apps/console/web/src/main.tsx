import '@mantine/core/styles.css';
import './console.css';

import { createTheme, CSSVariablesResolver, MantineProvider } from '@mantine/core';
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
const BatchesPage = lazy(() => import('./checks/BatchesPage'));
const ContinuousChecksPage = lazy(() => import('./checks/ContinuousChecksPage'));
const ProcessesPage = lazy(() => import('./processes/ProcessesPage'));
const ProcessPage = lazy(() => import('./processes/ProcessPage'));
const ReviewPage = lazy(() => import('./processes/ReviewPage'));
const UsersPage = lazy(() => import('./admin/UsersPage'));
const RolesPage = lazy(() => import('./admin/RolesPage'));
const ApiKeysPage = lazy(() => import('./admin/ApiKeysPage'));
const SigningSecretPage = lazy(() => import('./admin/SigningSecretPage'));
const AuditPage = lazy(() => import('./admin/AuditPage'));
const ContactsPage = lazy(() => import('./customers/ContactsPage'));
const ContactFormPage = lazy(() => import('./customers/ContactFormPage'));
const CustomerPage = lazy(() => import('./customers/CustomerPage'));
const SegmentsPage = lazy(() => import('./segments/SegmentsPage'));
const SegmentPage = lazy(() => import('./segments/SegmentPage'));
const RulesPage = lazy(() => import('./rules/RulesPage'));
const RulePage = lazy(() => import('./rules/RulePage'));
const InboxRoot = lazy(() => import('./inbox/channel'));
const InboxPage = lazy(() => import('./inbox/InboxPage'));
const ChatPage = lazy(() => import('./inbox/ChatPage'));
const InboxManagePage = lazy(() => import('./inbox/ManagePage'));

/** Darker shades and automatic text contrast on filled colors: every text meets WCAG AA (axe color-contrast). */
const theme = createTheme({ primaryShade: 8, autoContrast: true, luminanceThreshold: 0.4 });
/** Darker error, dimmed and light-variant text colors than Mantine's defaults, for the same reason. */
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-error': '#b02525',
    '--mantine-color-dimmed': '#495057',
    '--mantine-color-blue-light-color': '#1450a3',
    '--mantine-color-green-light-color': '#1b6e2e',
    '--mantine-color-red-light-color': '#a61e1e',
    '--mantine-color-orange-light-color': '#8a3c00',
    '--mantine-color-yellow-light-color': '#5c4000',
    '--mantine-color-gray-light-color': '#343a40',
  },
  dark: {},
});

const router = createBrowserRouter([
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/checks" replace /> },
      { path: 'checks', element: <ChecksPage /> },
      { path: 'checks/new', element: <NewCheckPage /> },
      { path: 'checks/batches', element: <BatchesPage /> },
      { path: 'checks/batches/:batchId', element: <BatchesPage /> },
      { path: 'checks/continuous', element: <ContinuousChecksPage /> },
      { path: 'checks/:checkId', element: <CheckPage /> },
      { path: 'processes', element: <ProcessesPage /> },
      { path: 'processes/:processId', element: <ProcessPage /> },
      { path: 'review', element: <ReviewPage /> },
      { path: 'admin/users', element: <UsersPage /> },
      { path: 'admin/roles', element: <RolesPage /> },
      { path: 'admin/api-keys', element: <ApiKeysPage /> },
      { path: 'admin/signing-secret', element: <SigningSecretPage /> },
      { path: 'admin/audit', element: <AuditPage /> },
      { path: 'contacts', element: <ContactsPage /> },
      { path: 'contacts/new', element: <ContactFormPage /> },
      { path: 'contacts/:contactId', element: <ContactFormPage /> },
      { path: 'customers/:customerId', element: <CustomerPage /> },
      { path: 'segments', element: <SegmentsPage /> },
      { path: 'segments/new', element: <SegmentPage /> },
      { path: 'segments/:segmentId', element: <SegmentPage /> },
      { path: 'rules', element: <RulesPage /> },
      { path: 'rules/:ruleId', element: <RulePage /> },
      {
        path: 'inbox',
        element: <InboxRoot />,
        children: [
          { index: true, element: <InboxPage /> },
          { path: 'chats/:chatId', element: <ChatPage /> },
          { path: 'manage', element: <InboxManagePage /> },
        ],
      },
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
    <MantineProvider theme={theme} cssVariablesResolver={contrast}>
      <I18nProvider>
        <SessionProvider>
          <Root />
        </SessionProvider>
      </I18nProvider>
    </MantineProvider>
  </StrictMode>,
);
