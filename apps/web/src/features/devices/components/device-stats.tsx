// A device's condition (spec §2): CPU, memory, disk and load over a chosen period, and its five most recent
// stats with network, firmware and system.
import { Alert, Badge, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@careplane/shared/common/formats';
import { textOf } from '@careplane/shared/common/record-labels';
import type { DeviceStat } from '@careplane/shared/devices/devices.contract';
import { ChartFigure } from '@/lib/resource-kit/charts/lazy-series-chart.tsx';
import {
  DEFAULT_PRESET,
  recentRange,
  TimeRangePicker,
  type TimeRange,
} from '@/lib/resource-kit/charts/time-range.tsx';
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

const timeLabel = (timestamp: number, span: number) => {
  const date = new Date(timestamp);
  const time = `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
  return span > 86_400_000
    ? `${String(date.getDate()).padStart(2, '0')}.${String(date.getMonth() + 1).padStart(2, '0')} ${time}`
    : time;
};

export function statPoints(stats: readonly DeviceStat[], span: number) {
  return [...stats]
    .sort((a, b) => a.timestamp - b.timestamp)
    .map((stat) => ({
      time: timeLabel(stat.timestamp, span),
      cpu: round(read(stat.system, 'cpu', 'usage')),
      memory: round(read(stat.system, 'memory', 'usage')),
      disk: round(read(stat.system, 'hdd', 'usage')),
      user: round(read(stat.system, 'loadAverage', 'user')),
      system: round(read(stat.system, 'loadAverage', 'system')),
      wait: round(read(stat.system, 'loadAverage', 'wait')),
    }));
}

const latestOf = (points: ReturnType<typeof statPoints>, key: 'cpu' | 'memory' | 'disk' | 'user') => {
  const last = points.at(-1)?.[key];
  return last === null || last === undefined ? i18next.t('devices:stats.noValue') : `${last} %`;
};

export function DeviceCharts({ deviceId }: { deviceId: string }) {
  const [range, setRange] = useState<TimeRange>(() => recentRange(DEFAULT_PRESET));
  const stats = useQuery(deviceStatQueries.range(deviceId, range.from, range.to));
  const { t } = useTranslation('devices');
  const points = statPoints(stats.data?.items ?? [], range.to - range.from);
  const shown = t('stats.shown', {
    count: points.length,
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
            data={points}
            dataKey="time"
            series={[{ name: 'cpu', label: 'CPU', color: 'cyan.7' }]}
            unit=" %"
            yDomain={[0, 100]}
          />
          <ChartFigure
            title={t('stats.memoryTitle')}
            summary={t('stats.memorySummary', { shown, latest: latestOf(points, 'memory') })}
            kind="line"
            data={points}
            dataKey="time"
            series={[{ name: 'memory', label: t('stats.memory'), color: 'violet.6' }]}
            unit=" %"
            yDomain={[0, 100]}
          />
          <ChartFigure
            title={t('stats.diskTitle')}
            summary={t('stats.diskSummary', { shown, latest: latestOf(points, 'disk') })}
            kind="line"
            data={points}
            dataKey="time"
            series={[{ name: 'disk', label: t('stats.disk'), color: 'orange.7' }]}
            unit=" %"
            yDomain={[0, 100]}
          />
          <ChartFigure
            title={t('stats.loadTitle')}
            summary={t('stats.loadSummary', { shown, latest: latestOf(points, 'user') })}
            kind="area"
            data={points}
            dataKey="time"
            series={[
              { name: 'user', label: t('stats.user'), color: 'teal.6' },
              { name: 'system', label: t('stats.system'), color: 'blue.6' },
              { name: 'wait', label: t('stats.wait'), color: 'red.6' },
            ]}
            unit=" %"
          />
        </SimpleGrid>
      )}
      {stats.data && (stats.data.total ?? 0) > stats.data.items.length ? (
        <Text size="xs" c="dimmed">
          {t('stats.newestDrawn', { count: stats.data.items.length, total: stats.data.total })}
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
