// The admin home (spec §2, decisions §8): how many records each list holds, the user and device series,
// the open alerts and the latest runner jobs, each leading to its list.
import { Anchor, Badge, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatMonth, formatNumber } from '@careplane/shared/common/formats';
import { titleOf } from '@careplane/shared/common/record-labels';
import { PlainList } from '@/lib/plain-list.tsx';
import { paths } from '@/config/paths.ts';
import { alertQueries, openAlertsRequest } from '@/features/alerts/api/alerts.queries.ts';
import { AlertEntry } from '@/features/alerts/components/alert-entry.tsx';
import { commandCenterQueries } from '@/features/command-centers/api/command-centers.queries.ts';
import {
  deviceJobQueries,
  deviceQueries,
  workstationQueries,
} from '@/features/devices/api/devices.queries.ts';
import { jobStatusColors } from '@/features/devices/components/device-jobs-section.tsx';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { iotDeviceQueries } from '@/features/iot/api/iot.queries.ts';
import { prescriptionQueries } from '@/features/prescriptions/api/prescriptions.queries.ts';
import { serviceProviderQueries } from '@/features/service-providers/api/service-providers.queries.ts';
import { statsQueries } from '@/features/stats/api/stats.queries.ts';
import { userQueries } from '@/features/users/api/users.queries.ts';
import { ChartFigure } from '@/lib/resource-kit/charts/lazy-series-chart.tsx';
import { PageHeader } from '@/lib/resource-kit/page-header.tsx';
import { jobPurposeText } from '@/lib/i18n/job-purpose.ts';

const admin = paths.admin;

/** `label`: the list's key under `common:menu`, the same words as the side menu. */
const counts = [
  { label: 'users', to: admin.users.list.to(), query: () => userQueries.count() },
  { label: 'patients', to: admin.patients.list.to(), query: () => userQueries.count(['localRoles~patient']) },
  { label: 'devices', to: admin.devices.list.to(), query: () => deviceQueries.count() },
  { label: 'deviceJobs', to: admin.deviceJobs.list.to(), query: () => deviceJobQueries.count() },
  { label: 'workstations', to: admin.workstations.list.to(), query: () => workstationQueries.count() },
  { label: 'iotDevices', to: admin.iotDevices.list.to(), query: () => iotDeviceQueries.count() },
  { label: 'prescriptions', to: admin.prescriptions.list.to(), query: () => prescriptionQueries.count() },
  {
    label: 'serviceProviders',
    to: admin.serviceProviders.list.to(),
    query: () => serviceProviderQueries.count(),
  },
  { label: 'commandCenters', to: admin.commandCenters.list.to(), query: () => commandCenterQueries.count() },
] as const;

function CountCard({ label, to, query }: (typeof counts)[number]) {
  const { t } = useTranslation();
  const count = useQuery(query());
  return (
    <Card withBorder radius="md" padding="md" component={Link} to={to}>
      <Text size="sm" c="dimmed" fw={600}>
        {t(`menu.${label}`)}
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {count.isPending ? <Loader size="xs" /> : count.isError ? '—' : formatNumber(count.data)}
      </Text>
    </Card>
  );
}

function Panel({
  title,
  to,
  link,
  children,
}: {
  title: string;
  to?: string;
  link?: string;
  children: React.ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title} style={{ minWidth: 0 }}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4">
            {title}
          </Title>
          {to ? (
            <Anchor component={Link} to={to} size="sm">
              {link}
            </Anchor>
          ) : null}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

const hourLabel = (label: string) => {
  const date = new Date(label);
  return Number.isNaN(date.getTime()) ? label : `${String(date.getHours()).padStart(2, '0')}:00`;
};

function UserSeries() {
  const { t } = useTranslation();
  const stats = useQuery(statsQueries.users());
  const data = (stats.data?.labels ?? []).map((label, index) => ({
    // MM.YY, the year in the reader's era: 12.68 in Thai for December 2025.
    month: formatMonth(label),
    users: stats.data?.data[index] ?? 0,
  }));
  const added = data.reduce((sum, point) => sum + point.users, 0);
  return (
    <Panel title={t('menu.users')} to={admin.users.list.to()} link={t('adminHome.users.allLink')}>
      <Text size="sm" c="dimmed">
        {stats.data
          ? t('adminHome.users.summary', { total: stats.data.count, added })
          : t('adminHome.loading')}
      </Text>
      <ChartFigure
        title={t('adminHome.users.chart')}
        summary={data.map((point) => `${point.month}: ${point.users}`).join(', ')}
        kind="bar"
        data={data}
        dataKey="month"
        series={[{ name: 'users', label: t('adminHome.users.series'), color: 'cyan.7' }]}
        h={220}
        empty={stats.isError ? stats.error.message : t('adminHome.loading')}
      />
    </Panel>
  );
}

function DeviceSeries() {
  const { t } = useTranslation();
  const charts = useQuery(statsQueries.devices());
  const data = (charts.data?.labels ?? []).map((label, index) => ({
    hour: hourLabel(label),
    devices: charts.data?.data[index] ?? 0,
  }));
  const latest = data.at(-1)?.devices ?? 0;
  const previous = data.at(-2)?.devices ?? 0;
  return (
    <Panel title={t('menu.devices')} to={admin.devices.list.to()} link={t('adminHome.devices.allLink')}>
      <Text size="sm" c="dimmed">
        {charts.data
          ? t('adminHome.devices.summary', { total: charts.data.count, latest, previous })
          : t('adminHome.loading')}
      </Text>
      <ChartFigure
        title={t('adminHome.devices.chart')}
        summary={data.map((point) => `${point.hour}: ${point.devices}`).join(', ')}
        kind="area"
        data={data}
        dataKey="hour"
        series={[{ name: 'devices', label: t('adminHome.devices.series'), color: 'teal.6' }]}
        h={220}
        empty={charts.isError ? charts.error.message : t('adminHome.loading')}
      />
    </Panel>
  );
}

/**
 * The latest open alerts, acknowledged and closed from here. The home shows a few; the count is of all open
 * alerts, so it says how many it shows and links to the alerts page for the rest.
 */
function OpenAlerts() {
  const { t } = useTranslation();
  const alerts = useQuery(alertQueries.list(openAlertsRequest));
  const total = alerts.data?.total ?? null;
  const shown = alerts.data?.items.length ?? 0;
  return (
    <Panel
      title={total === null ? t('adminHome.alerts.title') : t('adminHome.alerts.titleCount', { total })}
      to={admin.alerts.list.to()}
      link={t('adminHome.alerts.allLink')}
    >
      {alerts.isPending ? (
        <Loader size="sm" role="status" aria-label={t('adminHome.alerts.loading')} />
      ) : alerts.isError ? (
        <Text size="sm" c="red.8">
          {alerts.error.message}
        </Text>
      ) : alerts.data.items.length ? (
        <>
          {total !== null && total > shown ? (
            <Text size="sm" c="dimmed">
              {t('adminHome.alerts.latest', { shown, total })}
              <Anchor component={Link} to={admin.alerts.list.to()} size="sm">
                {t('adminHome.alerts.seeAll', { total })}
              </Anchor>
            </Text>
          ) : null}
          {/* A list rather than a table: it reads the same on a phone. */}
          <PlainList gap="md" aria-label={t('adminHome.alerts.title')}>
            {alerts.data.items.map((alert) => (
              <AlertEntry key={alert.id} alert={alert} compact />
            ))}
          </PlainList>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {t('adminHome.alerts.none')}
        </Text>
      )}
    </Panel>
  );
}

function LatestJobs() {
  const { t } = useTranslation();
  const jobs = useQuery(deviceJobQueries.list({ sort: ['createdAt:desc'], relations: 'device', limit: 6 }));
  return (
    <Panel
      title={t('adminHome.jobs.title')}
      to={admin.deviceJobs.list.to()}
      link={t('adminHome.jobs.allLink')}
    >
      {jobs.isPending ? (
        <Loader size="sm" role="status" aria-label={t('adminHome.jobs.loading')} />
      ) : jobs.isError ? (
        <Text size="sm" c="red.8">
          {jobs.error.message}
        </Text>
      ) : jobs.data.items.length ? (
        <Stack gap={6}>
          {jobs.data.items.map((job) => (
            <Group key={job.id} gap="xs" wrap="nowrap">
              <Badge
                color={jobStatusColors[job.status] ?? 'gray'}
                variant="light"
                miw={100}
                style={{ flexShrink: 0 }}
              >
                {enumLabel('jobStatus', job.status)}
              </Badge>
              <Anchor
                component={Link}
                to={admin.deviceJobs.detail.to(job.id)}
                size="sm"
                truncate
                style={{ minWidth: 0 }}
              >
                {jobPurposeText(job.purpose)}
              </Anchor>
              <Text size="xs" c="dimmed" truncate visibleFrom="sm" style={{ flexShrink: 0, maxWidth: 200 }}>
                {titleOf(job.device)}
              </Text>
            </Group>
          ))}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          {t('adminHome.jobs.none')}
        </Text>
      )}
    </Panel>
  );
}

export function Component() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <PageHeader title={t('adminHome.title')} />
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5, xl: 9 }} spacing="sm">
        {counts.map((entry) => (
          <CountCard key={entry.label} {...entry} />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <UserSeries />
        <DeviceSeries />
        <OpenAlerts />
        <LatestJobs />
      </SimpleGrid>
    </Stack>
  );
}
