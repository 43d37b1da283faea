// Counts behind the dashboard series; every query is bounded by an index.
import { count, gte, sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';
import { deviceStats, devices, users } from '@/db/schema/index.js';

export const HOUR_MS = 3_600_000;

export async function countUsers(executor: Executor): Promise<number> {
  const [row] = await executor.select({ total: count() }).from(users);
  return row?.total ?? 0;
}

export async function countDevices(executor: Executor): Promise<number> {
  const [row] = await executor.select({ total: count() }).from(devices);
  return row?.total ?? 0;
}

/** Users created since `since`, per UTC month `YYYY-MM` (months without users are absent). */
export async function countUsersPerMonth(executor: Executor, since: Date) {
  const month = sql<string>`to_char(${users.createdAt} at time zone 'UTC', 'YYYY-MM')`;
  return executor
    .select({ month, total: count() })
    .from(users)
    .where(gte(users.createdAt, since))
    .groupBy(month);
}

/**
 * Distinct devices with at least one stat in each hour of [start, start + hours): bucket 0 is the first hour.
 * A loose index scan over device_stats (device_id, timestamp): per device, find the first stat in the window,
 * then jump to the first stat of the next hour, and so on. A device costs one index probe plus one per hour
 * it reported in, however many stats it sent.
 */
export async function countReportingDevicesPerHour(executor: Executor, start: number, hours: number) {
  const end = start + hours * HOUR_MS;
  const firstStatFrom = (deviceId: SQLWrapper, from: SQLWrapper) => sql`(
    select min(${deviceStats.timestamp}) from ${deviceStats}
    where ${deviceStats.deviceId} = ${deviceId}
      and ${deviceStats.timestamp} >= ${from}
      and ${deviceStats.timestamp} < ${end}::bigint
  )`;
  // Both drivers answer { rows }; the result type of execute() is driver-generic.
  const result: unknown = await executor.execute(sql`
    with recursive hits (device_id, ts) as (
      select ${devices.id}, ${firstStatFrom(devices.id, sql`${start}::bigint`)}
      from ${devices}
      union all
      select hits.device_id, ${firstStatFrom(
        sql`hits.device_id`,
        sql`${start}::bigint + ((hits.ts - ${start}::bigint) / ${HOUR_MS}::bigint + 1) * ${HOUR_MS}::bigint`,
      )}
      from hits
      where hits.ts is not null
    )
    select ((ts - ${start}::bigint) / ${HOUR_MS}::bigint)::int as bucket, count(*)::int as devices
    from hits
    where ts is not null
    group by 1
  `);
  const { rows } = result as { rows: { bucket: number | string; devices: number | string }[] };
  return rows.map((row) => ({ bucket: Number(row.bucket), devices: Number(row.devices) }));
}
