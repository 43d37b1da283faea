// A device's condition (spec §2): CPU, memory, disk and load over a chosen period, and its five most recent
// stats with network, firmware and system.
import { Alert, Badge, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '@careplane/shared/common/formats';
import { textOf } from '@careplane/shared/common/record-labels';
import {
  DEVICE_STAT_SERIES,
  type DeviceStat,
  type DeviceStatSeries,
} from '@careplane/shared/devices/devices.contract';
import { ChartFigure } from '@/lib/resource-kit/charts/lazy-series-chart.tsx';
import {
  CHART_SUMMARY_PARTS,
  summaryPoints,
  summarySeries,
} from '@/lib/resource-kit/charts/period-summary.ts';
import type { SeriesLine } from '@/lib/resource-kit/charts/series-chart.tsx';
import { TimeRangePicker, useRangeInAddress } from '@/lib/resource-kit/charts/time-range.tsx';
import { DetailSection } from '@/lib/resource-kit/detail/detail-parts.tsx';
import { deviceStatQueries } from '../api/devices.queries.ts';

const read = (value: unknown, ...keys: string[]): number | null => {
  let current: unknown = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return null;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'number' && Number.isFinite(current) ? current : null;
};

const round = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/** The page's stats as chart points, oldest first: each number of `DEVICE_STAT_SERIES` from its place. */
export function statPoints(stats: readonly DeviceStat[]) {
  return [...stats]
    .sort((a, b) => a.timestamp - b.timestamp)
    .map((stat) => {
      const point: Record<string, string | number | null> = { at: stat.timestamp };
      for (const [name, path] of Object.entries(DEVICE_STAT_SERIES)) {
        point[name] = round(read(stat.system, ...path));
      }
      return point;
    });
}

const latestOf = (points: ReturnType<typeof statPoints>, key: DeviceStatSeries) => {
  const last = points.at(-1)?.[key];
  return last === null || last === undefined ? i18next.t('devices:stats.noValue') : `${last} %`;
};

export function DeviceCharts({ deviceId }: { deviceId: string }) {
  const [range, setRange] = useRangeInAddress();
  const stats = useQuery(deviceStatQueries.range(deviceId, range.from, range.to));
  const { t } = useTranslation('devices');
  const items = stats.data?.items ?? [];
  const total = stats.data?.total ?? 0;
  // More stats than a page: the server sums every one of them up into equal parts of the period.
  const summary = useQuery(
    deviceStatQueries.summary(deviceId, range.from, range.to, total > items.length),
  ).data;
  // The newest page says what is latest; the summary, when there is one, is what is drawn.
  const points = statPoints(items);
  const drawn = summary ? summaryPoints(summary, Object.keys(DEVICE_STAT_SERIES)) : points;
  const lines = (base: SeriesLine[]) => (summary ? summarySeries(base) : base);
  const shown = t('stats.shown', {
    count: summary ? summary.total : points.length,
    from: formatDateTime(range.from),
    to: formatDateTime(range.to),
  });
  return (
    <DetailSection title={t('stats.charts')}>
      <TimeRangePicker value={range} onChange={setRange} />
      {stats.isError ? (
        <Alert color="red" title={t('stats.loadFailed')}>
          {stats.error.message}
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" aria-busy={stats.isFetching}>
          <ChartFigure
            title={t('stats.cpuTitle')}
            summary={t('stats.cpuSummary', { shown, latest: latestOf(points, 'cpu') })}
            kind="line"
            data={drawn}
            dataKey="at"
            period={range}
            read={stats}
            series={lines([{ name: 'cpu', label: 'CPU', color: 'cyan.7' }])}
            unit=" %"
            yDomain={[0, 100]}
          />
          <ChartFigure
            title={t('stats.memoryTitle')}
            summary={t('stats.memorySummary', { shown, latest: latestOf(points, 'memory') })}
            kind="line"
            data={drawn}
            dataKey="at"
            period={range}
            read={stats}
            series={lines([{ name: 'memory', label: t('stats.memory'), color: 'violet.6' }])}
            unit=" %"
            yDomain={[0, 100]}
          />
          <ChartFigure
            title={t('stats.diskTitle')}
            summary={t('stats.diskSummary', { shown, latest: latestOf(points, 'disk') })}
            kind="line"
            data={drawn}
            dataKey="at"
            period={range}
            read={stats}
            series={lines([{ name: 'disk', label: t('stats.disk'), color: 'orange.7' }])}
            unit=" %"
            yDomain={[0, 100]}
          />
          <ChartFigure
            title={t('stats.loadTitle')}
            summary={t('stats.loadSummary', { shown, latest: latestOf(points, 'user') })}
            kind="area"
            data={drawn}
            dataKey="at"
            period={range}
            read={stats}
            series={[
              { name: 'user', label: t('stats.user'), color: 'teal.6' },
              { name: 'system', label: t('stats.system'), color: 'blue.6' },
              { name: 'wait', label: t('stats.wait'), color: 'red.6' },
            ]}
            unit=" %"
          />
        </SimpleGrid>
      )}
      {summary ? (
        <Text size="xs" c="dimmed">
          {t('stats.averaged', { total: formatNumber(summary.total), parts: CHART_SUMMARY_PARTS })}
        </Text>
      ) : total > items.length ? (
        <Text size="xs" c="dimmed">
          {t('stats.newestDrawn', { count: items.length, total })}
        </Text>
      ) : null}
    </DetailSection>
  );
}

interface NetworkInterface {
  name?: string;
  active?: boolean;
  type?: string;
  ip4?: { ip?: string | null } | null;
}

export function RecentStats({ deviceId }: { deviceId: string }) {
  const stats = useQuery(deviceStatQueries.recent(deviceId));
  const { t } = useTranslation('devices');
  let body;
  if (stats.isPending) body = <Text size="sm">{t('stats.loading')}</Text>;
  else if (stats.isError)
    body = (
      <Alert color="red" title={t('stats.loadFailed')}>
        {stats.error.message}
      </Alert>
    );
  else if (!stats.data.items.length)
    body = (
      <Text size="sm" c="dimmed">
        {t('stats.noStats')}
      </Text>
    );
  else
    body = (
      <Table.ScrollContainer minWidth={760}>
        <Table striped verticalSpacing="xs" aria-label={t('stats.recent')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('stats.taken')}</Table.Th>
              <Table.Th>{t('stats.firmware')}</Table.Th>
              <Table.Th>{t('stats.system')}</Table.Th>
              <Table.Th>CPU</Table.Th>
              <Table.Th>{t('stats.memory')}</Table.Th>
              <Table.Th>{t('stats.disk')}</Table.Th>
              <Table.Th>{t('stats.network')}</Table.Th>
              <Table.Th>{t('stats.booted')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {stats.data.items.map((stat) => {
              const network = (stat.network as NetworkInterface[]).filter((entry) => entry.active);
              return (
                <Table.Tr key={stat.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(stat.timestamp)}</Table.Td>
                  <Table.Td>{stat.firmware}</Table.Td>
                  <Table.Td>{textOf(stat.system.osVersion)}</Table.Td>
                  <Table.Td>{`${round(read(stat.system, 'cpu', 'usage')) ?? '—'} %`}</Table.Td>
                  <Table.Td>{`${round(read(stat.system, 'memory', 'usage')) ?? '—'} %`}</Table.Td>
                  <Table.Td>{`${round(read(stat.system, 'hdd', 'usage')) ?? '—'} %`}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {network.length
                        ? network.map((entry) => (
                            <Badge key={entry.name} variant="light" color="gray" tt="none">
                              {`${entry.name ?? ''} ${entry.ip4?.ip ?? ''}`.trim()}
                            </Badge>
                          ))
                        : '—'}
                    </Group>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {stat.bootTime ? formatDateTime(stat.bootTime) : '—'}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  return (
    <DetailSection title={t('stats.recent')}>
      <Stack gap="xs">{body}</Stack>
    </DetailSection>
  );
}
