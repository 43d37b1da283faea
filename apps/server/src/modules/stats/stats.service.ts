// The admin home series (users per month, reporting devices per hour) and the permitted device domains.
import {
  DEVICE_CHART_HOURS,
  USER_STATS_MONTHS,
  type DeviceCharts,
  type Domains,
  type UserStats,
} from '@careplane/shared/stats/stats.contract';
import type { Database } from '@/db/client.js';
import {
  HOUR_MS,
  countDevices,
  countReportingDevicesPerHour,
  countUsers,
  countUsersPerMonth,
} from './stats.repository.js';

const monthLabel = (date: Date) =>
  `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;

/** The first instant of each of the `months` UTC months ending with the month of `now`, oldest first. */
export function lastMonths(now: Date, months: number): Date[] {
  return Array.from(
    { length: months },
    (_, index) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1 - index), 1)),
  );
}

/** The start (ms) of each of the `hours` hours ending with the hour of `now`, oldest first. */
export function lastHours(now: Date, hours: number): number[] {
  const current = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return Array.from({ length: hours }, (_, index) => current - (hours - 1 - index) * HOUR_MS);
}

export interface StatsServiceOptions {
  deviceDomains: readonly string[];
}

export function createStatsService(db: Database, options: StatsServiceOptions) {
  async function userStats(now: Date): Promise<UserStats> {
    const months = lastMonths(now, USER_STATS_MONTHS);
    const labels = months.map(monthLabel);
    const [count, perMonth] = await Promise.all([countUsers(db), countUsersPerMonth(db, months[0]!)]);
    const byMonth = new Map(perMonth.map((row) => [row.month, row.total]));
    return { count, labels, data: labels.map((label) => byMonth.get(label) ?? 0) };
  }

  async function deviceCharts(now: Date): Promise<DeviceCharts> {
    const hours = lastHours(now, DEVICE_CHART_HOURS);
    const [count, perHour] = await Promise.all([
      countDevices(db),
      countReportingDevicesPerHour(db, hours[0]!, DEVICE_CHART_HOURS),
    ]);
    const data = hours.map(() => 0);
    for (const { bucket, devices } of perHour) {
      if (bucket >= 0 && bucket < data.length) data[bucket] = devices;
    }
    return { count, labels: hours.map((hour) => new Date(hour).toISOString()), data };
  }

  function domains(): Domains {
    return { items: [...options.deviceDomains] };
  }

  return { userStats, deviceCharts, domains };
}

export type StatsService = ReturnType<typeof createStatsService>;
