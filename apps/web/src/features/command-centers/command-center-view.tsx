// A supervisor's command-center view: the users, devices, open alerts (to acknowledge and close) and jobs of
// the centers they are assigned to (admins see every center), kept current by live events without reloading,
// ten rows to a page in each section.
import {
  Alert as Notice,
  Anchor,
  Badge,
  Button,
  SimpleGrid,
  Stack,
  Table,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { alertTitle } from '@careplane/shared/alerts/alert-title';
import type { Alert } from '@careplane/shared/alerts/alerts.contract';
import { personName, titleOf } from '@careplane/shared/common/record-labels';
import {
  commandCenterEndpoints,
  type UserAlert,
} from '@careplane/shared/command-centers/command-centers.contract';
import { paths } from '@/config/paths.ts';
import { ApiError, api } from '@/lib/api-client.ts';
import { SendAlertDialog } from '@/lib/care/send-alert-dialog.tsx';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { useLanguage } from '@/lib/i18n/language.ts';
import { useLiveEvents } from '@/lib/live-events.ts';
import { notify } from '@/lib/notify.ts';
import { jobPurposeText } from '@/lib/i18n/job-purpose.ts';
import { commandCenterViewQueries as queries } from './api/command-center-view.queries.ts';
import { OpenAlertsSection, SectionBody, SectionCard } from './section.tsx';

type Section = 'users' | 'devices' | 'alerts' | 'jobs';

function UserActions({ userId, name }: { userId: string; name: string }) {
  const { t } = useTranslation('command-centers');
  const [asking, setAsking] = useState(false);
  const alert = useMutation({
    mutationFn: (message: string) =>
      api.post(commandCenterEndpoints.alertUser(userId), { message } satisfies UserAlert),
    onSuccess: () => {
      setAsking(false);
      notify({ color: 'teal', message: t('view.alertSent', { name }) });
    },
  });
  return (
    <>
      <Button size="xs" variant="light" loading={alert.isPending} onClick={() => setAsking(true)}>
        {t('view.sendAlert')}
      </Button>
      <SendAlertDialog
        opened={asking}
        name={name}
        sending={alert.isPending}
        error={alert.isError ? alert.error.message : null}
        onSend={(message) => alert.mutate(message)}
        onClose={() => setAsking(false)}
      />
    </>
  );
}

/**
 * Tells of an alert that opens while the view is open (a live event refreshes the list): a supervisor scrolled
 * down to the users or devices would not see it arrive at the top. Alerts open when the view loaded, and older
 * ones a page turn or a closed alert brings into the list, are not news: only those created after the newest
 * seen so far are.
 */
function useNewAlertNotices(items: Alert[] | undefined) {
  const { t } = useTranslation('command-centers');
  const language = useLanguage();
  const newestSeen = useRef<string | null>(null);
  useEffect(() => {
    if (!items) return;
    const newest = items.reduce((latest, item) => (item.createdAt > latest ? item.createdAt : latest), '');
    const seen = newestSeen.current;
    if (seen === null || newest > seen) newestSeen.current = newest;
    if (seen === null) return;
    for (const item of items.filter((one) => one.createdAt > seen)) {
      notify({
        color: item.severity === 'critical' ? 'red' : 'orange',
        title: t('view.newAlert'),
        message: alertTitle(item, language),
        autoClose: 15_000,
      });
    }
  }, [items, t, language]);
}

/**
 * The view; `alertItem` draws one open alert with its actions (the alerts feature's entry, composed in by the
 * app: features do not import each other).
 */
export function CommandCenterView({ alertItem }: { alertItem: (alert: Alert) => ReactNode }) {
  const { t } = useTranslation('command-centers');
  useLiveEvents();
  const [pages, setPages] = useState<Record<Section, number>>({ users: 1, devices: 1, alerts: 1, jobs: 1 });
  // One stable handler per section: a section whose page is beyond its last moves back from an effect.
  const turnTo = useMemo(() => {
    const turn = (section: Section) => (page: number) =>
      setPages((current) => ({ ...current, [section]: page }));
    return { users: turn('users'), devices: turn('devices'), alerts: turn('alerts'), jobs: turn('jobs') };
  }, []);
  const users = useQuery(queries.users(pages.users));
  const devices = useQuery(queries.devices(pages.devices));
  const alerts = useQuery(queries.openAlerts(pages.alerts));
  useNewAlertNotices(alerts.data?.items);
  const jobs = useQuery(queries.jobs(pages.jobs));

  if (users.error instanceof ApiError && users.error.status === 403) {
    return <Notice color="gray">{t('view.notAssigned')}</Notice>;
  }

  return (
    <Stack gap="md">
      <Title order={1}>{t('view.title')}</Title>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <OpenAlertsSection query={alerts} page={pages.alerts} onPage={turnTo.alerts} alertItem={alertItem} />
        <SectionCard title={t('view.jobs')} count={jobs.data?.total} page={pages.jobs} onPage={turnTo.jobs}>
          <SectionBody title={t('view.jobs')} query={jobs} empty={t('view.noJobs')}>
            {(items) => (
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('view.device')}</Table.Th>
                    <Table.Th>{t('view.purpose')}</Table.Th>
                    <Table.Th>{t('view.status')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((job) => (
                    <Table.Tr key={job.id}>
                      <Table.Td>{titleOf(job.device)}</Table.Td>
                      <Table.Td>{jobPurposeText(job.purpose)}</Table.Td>
                      {/* A status is one word on one line: in Thai at a phone's width the badge broke in two.
                        (The theme lets a badge's text wrap rather than be cut; this one keeps its line.) */}
                      <Table.Td>
                        <Badge variant="outline" styles={{ label: { whiteSpace: 'nowrap' } }}>
                          {enumLabel('jobStatus', job.status)}
                        </Badge>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </SectionBody>
        </SectionCard>
        <SectionCard
          title={t('view.users')}
          count={users.data?.total}
          page={pages.users}
          onPage={turnTo.users}
        >
          <SectionBody title={t('view.users')} query={users} empty={t('view.noUsers')}>
            {(items) => (
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('view.name')}</Table.Th>
                    <Table.Th>{t('view.roles')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('view.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((user) => (
                    <Table.Tr key={user.id}>
                      <Table.Td>
                        {/* The person's page: their open alerts and the readings of their IoT devices. */}
                        <Anchor component={Link} to={paths.commandCenter.to(user.id)}>
                          {personName(user)}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{user.localRoles.map((role) => enumLabel('role', role)).join(', ')}</Table.Td>
                      <Table.Td>
                        <UserActions userId={user.id} name={personName(user)} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </SectionBody>
        </SectionCard>
        <SectionCard
          title={t('view.devices')}
          count={devices.data?.total}
          page={pages.devices}
          onPage={turnTo.devices}
        >
          <SectionBody title={t('view.devices')} query={devices} empty={t('view.noDevices')}>
            {(items) => (
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('view.device')}</Table.Th>
                    <Table.Th>{t('view.deviceRole')}</Table.Th>
                    <Table.Th>{t('view.assignedUser')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((device) => (
                    <Table.Tr key={device.id}>
                      <Table.Td>{device.title}</Table.Td>
                      <Table.Td>{enumLabel('deviceRole', device.role)}</Table.Td>
                      <Table.Td>{device.assignedUser ? personName(device.assignedUser) : '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </SectionBody>
        </SectionCard>
      </SimpleGrid>
    </Stack>
  );
}
