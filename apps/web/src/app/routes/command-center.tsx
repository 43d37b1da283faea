// /command-center: a supervisor's view of their command centers, with the top bar; its open alerts are the
// alerts feature's entries, acted on through the command center's calls. /command-center/{userId}: one person
// of those centers (decision 102), loaded when opened. Someone whose roles do not open either (a patient, a
// driver) reads so, and the view's reads are not asked: the server would refuse each. The roles are the
// server's as they are now (the profile, read again on opening): a role granted since sign-in opens the page at
// once; without an answer (offline), the session's copy decides.
import { Box, Container, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { accountQueries } from '@/features/account/api/account.queries.ts';
import { AlertEntry } from '@/features/alerts/components/alert-entry.tsx';
import { paths } from '@/config/paths.ts';
import { CommandCenterView } from '@/features/command-centers/command-center-view.tsx';
import { mayOpenCommandCenter } from '@/lib/areas.ts';
import { useSession } from '@/lib/session.ts';
import { Brand } from '../layouts/brand.tsx';
import { mainContentProps, SkipLink } from '../layouts/skip-link.tsx';
import { AppFooter } from '../layouts/centered-layout.tsx';
import { TopBarSession } from '../layouts/top-bar.tsx';
import { ErrorPage } from './error-page.tsx';
import { PageLoader } from './page-loader.tsx';

/**
 * A person's page loads when it is opened: its chart is the IoT feature's, which the view itself does not need
 * (and the list of what the view loads stays on the first page's weight).
 */
const CareTeamPatientPage = lazy(() => import('./command-center-patient.tsx'));

export function Component() {
  const { t } = useTranslation('command-centers');
  const { userId } = useParams();
  const sessionUser = useSession((state) => state.user);
  const me = useQuery({ ...accountQueries.me(), refetchOnMount: 'always' });
  const user = me.isError ? sessionUser : me.isFetchedAfterMount ? me.data : undefined;
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box
        component="header"
        px="md"
        py="sm"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group justify="space-between" wrap="nowrap">
          <Brand to={paths.account.to()} compact />
          <TopBarSession />
        </Group>
      </Box>
      <Container component="main" {...mainContentProps} size="xl" py="xl" w="100%" style={{ flex: 1 }}>
        {!user ? (
          <PageLoader />
        ) : !mayOpenCommandCenter(user) ? (
          <ErrorPage status={403} message={t('view.notAllowed')} />
        ) : userId ? (
          <Suspense fallback={<PageLoader />}>
            <CareTeamPatientPage key={userId} userId={userId} />
          </Suspense>
        ) : (
          <CommandCenterView
            alertItem={(alert) => <AlertEntry alert={alert} via="commandCenter" compact />}
          />
        )}
      </Container>
      <AppFooter />
    </Box>
  );
}
