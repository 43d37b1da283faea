// SQL of the IoT module beyond the generic engine: submissions, latest reading, lookups.
import { type SQL, and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';
import { type PeriodQuery, summarizePeriod } from '@/lib/period-summary.js';
import { auditLog, iotDeviceData, iotDeviceDevices, iotDevices } from '@/db/schema/index.js';

export interface ReadingRow {
  id: string;
  timestamp: number;
  dataType: string;
  data: Record<string, unknown>;
  iotDeviceId: string;
  /** Whose reading it is: the device's assigned user as the batch was admitted (decision 109). */
  userId: string | null;
  createdByUserId: string | null;
}

/** What a submission needs to know about its device; undefined when there is none. */
export async function findDeviceForSubmission(executor: Executor, id: string) {
  const [device] = await executor
    .select({
      id: iotDevices.id,
      trustLevel: iotDevices.trustLevel,
      connectionSecret: iotDevices.connectionSecret,
      supportedDataTypes: iotDevices.supportedDataTypes,
      assignedUserId: iotDevices.assignedUserId,
      // The row version, as in findDevicesByHardwareIdentifier: a batch written alone checks it.
      version: sql<string>`${iotDevices}.xmin::text`,
    })
    .from(iotDevices)
    .where(eq(iotDevices.id, id))
    .limit(1);
  return device;
}

/** Whether an IoT device is linked to a client device (the devices that may relay its readings). */
export async function isLinkedToDevice(executor: Executor, iotDeviceId: string, deviceId: string) {
  const [link] = await executor
    .select({ iotDeviceId: iotDeviceDevices.iotDeviceId })
    .from(iotDeviceDevices)
    .where(and(eq(iotDeviceDevices.iotDeviceId, iotDeviceId), eq(iotDeviceDevices.deviceId, deviceId)))
    .limit(1);
  return link !== undefined;
}

/**
 * What an MQTT batch needs to know about its devices, found by hardware identifier. The identifiers travel as
 * one JSON list joined to the table: a plain `IN (…)` list is an `= ANY` the planner gives to the trigram
 * index (it claims equality too), which read the whole index for every batch (0.5 s at a few thousand
 * devices), where the unique index or a hash join finds them in about a millisecond.
 */
export async function findDevicesByHardwareIdentifier(executor: Executor, identifiers: string[]) {
  if (identifiers.length === 0) return [];
  return executor
    .select({
      id: iotDevices.id,
      hardwareIdentifier: iotDevices.hardwareIdentifier,
      trustLevel: iotDevices.trustLevel,
      connectionSecret: iotDevices.connectionSecret,
      supportedDataTypes: iotDevices.supportedDataTypes,
      assignedUserId: iotDevices.assignedUserId,
      // The row version: any change to the device (a new secret, trust level or data types) gives a new one.
      version: sql<string>`${iotDevices}.xmin::text`,
    })
    .from(iotDevices)
    .where(
      inArray(
        iotDevices.hardwareIdentifier,
        sql`(select jsonb_array_elements_text(${JSON.stringify(identifiers)}::jsonb))`,
      ),
    );
}

/** Rows per INSERT statement; each statement carries its rows as one JSON document (larger documents insert
 * fewer rows per second: 5,000 rows in one statement ran at half the rate of 500). */
const INSERT_CHUNK = 500;

/** A device as a batch was admitted under: its id and its row version (`xmin`) then. */
export interface DeviceVersion {
  id: string;
  version: string;
}

/** The rows in chunks of INSERT_CHUNK, each one JSON document with the table's column names. */
function readingChunks(rows: ReadingRow[]): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const chunk = rows.slice(start, start + INSERT_CHUNK).map((row) => ({
      id: row.id,
      timestamp: row.timestamp,
      data_type: row.dataType,
      data: row.data,
      iot_device_id: row.iotDeviceId,
      user_id: row.userId,
      created_by_user_id: row.createdByUserId,
    }));
    chunks.push(JSON.stringify(chunk));
  }
  return chunks;
}

/**
 * The INSERT of one chunk (unpacked by jsonb_to_recordset), skipping ids already stored; answers those stored.
 */
const insertChunk = (chunk: string, guard: SQL) => sql`
  insert into ${iotDeviceData} (id, timestamp, data_type, data, iot_device_id, user_id, created_by_user_id)
  select x.id, x.timestamp, x.data_type, x.data, x.iot_device_id, x.user_id, x.created_by_user_id
  from jsonb_to_recordset(${chunk}::jsonb) as x(
    id uuid, timestamp bigint, data_type text, data jsonb, iot_device_id uuid, user_id uuid,
    created_by_user_id uuid)
  ${guard}
  on conflict (id) do nothing
  returning id`;

/** The devices whose row is no longer the version their readings were admitted under (changed or deleted). */
const staleDevices = (devices: DeviceVersion[]) => sql`
  select v.id from jsonb_to_recordset(${JSON.stringify(devices)}::jsonb) as v(id uuid, version text)
  where not exists (select 1 from ${iotDevices} d where d.id = v.id and d.xmin::text = v.version)`;

/**
 * One INSERT per chunk whose rows travel as a single JSON parameter unpacked by jsonb_to_recordset: far
 * cheaper to parse and bind than six parameters a row. Rows whose id is already stored are skipped.
 * Answers the ids stored now.
 *
 * With `devices`, the first statement also checks that each device's row is still the version its readings
 * were admitted under, and inserts nothing if one is not (changed or deleted since): those devices are
 * answered as `stale` and the caller decides again on fresh rows. The check costs no round trip of its own.
 */
export async function insertReadings(
  executor: Executor,
  rows: ReadingRow[],
  devices?: DeviceVersion[],
): Promise<{ ids: string[]; stale: string[] }> {
  const ids: string[] = [];
  for (const [index, chunk] of readingChunks(rows).entries()) {
    if (index === 0 && devices?.length) {
      // Both drivers answer { rows }; the result type of execute() is driver-generic.
      const result: unknown = await executor.execute(sql`
        with stale as (${staleDevices(devices)}),
        inserted as (${insertChunk(chunk, sql`where not exists (select 1 from stale)`)})
        select id::text as id, false as stale from inserted
        union all
        select id::text, true from stale`);
      const answered = (result as { rows: { id: string; stale: boolean }[] }).rows;
      const stale = answered.filter((row) => row.stale).map((row) => row.id);
      if (stale.length) return { ids: [], stale };
      for (const row of answered) ids.push(row.id);
      continue;
    }
    const result: unknown = await executor.execute(insertChunk(chunk, sql``));
    for (const row of (result as { rows: { id: string }[] }).rows) ids.push(row.id);
  }
  return { ids, stale: [] };
}

/** The audit row of a batch written alone: `stored` (and with idsUpTo, the ids stored when that few) are added. */
export interface AloneAudit {
  resource: string;
  changes: Record<string, unknown>;
  /** Who sent the batch (none for MQTT). */
  actor?: { userId: string | null; subject: string | null; ip: string | null };
  /** `ids`, the ids stored in id order, when at most this many were stored. */
  idsUpTo?: number;
}

/**
 * A batch that opens no alert (MQTT messages, or an HTTP submission), written as ONE statement that commits on
 * its own: the readings (in chunks of INSERT_CHUNK, one jsonb parameter each) and the batch's audit row
 * (`changes` with `stored`, the count inserted, added by the statement). Nothing is written when a device is no
 * longer the version its readings were admitted under (`stale`, as in insertReadings). A transaction of the same
 * writes costs five round trips to the database (begin, insert, audit, notify, commit), and its NOTIFY makes
 * the commits of concurrent batches wait for each other's disk flush (changes.ts); on a loaded machine each
 * round trip waits for a core on both sides.
 */
export async function storeReadingsAlone(
  executor: Executor,
  rows: ReadingRow[],
  devices: DeviceVersion[],
  audit: AloneAudit,
): Promise<{ ids: string[]; stale: string[] }> {
  const inserts = readingChunks(rows).map(
    (chunk, index) =>
      sql`${sql.raw(`i${index}`)} as (${insertChunk(chunk, sql`where not exists (select 1 from stale)`)})`,
  );
  const inserted = sql.join(
    inserts.map((_, index) => sql.raw(`select id from i${index}`)),
    sql.raw(' union all '),
  );
  const result: unknown = await executor.execute(sql`
    with stale as (${staleDevices(devices)}),
    ${sql.join(inserts, sql.raw(',\n'))},
    inserted as (${inserted}),
    audited as (
      insert into ${auditLog} (action, resource, record_id, changes, actor_user_id, actor_subject, ip)
      select 'create', ${audit.resource}, null,
        ${JSON.stringify(audit.changes)}::jsonb || jsonb_build_object('stored', (select count(*) from inserted))
          ${
            audit.idsUpTo === undefined
              ? sql``
              : sql`|| case when (select count(*) from inserted) <= ${audit.idsUpTo}
                   then jsonb_build_object('ids', (select coalesce(jsonb_agg(id order by id), '[]') from inserted))
                   else '{}'::jsonb end`
          },
        ${audit.actor?.userId ?? null}::uuid, ${audit.actor?.subject ?? null}::text, ${audit.actor?.ip ?? null}::text
      where not exists (select 1 from stale)
      returning id)
    select id::text as id, 'stored' as kind from inserted
    union all select id::text, 'stale' from stale
    union all select null, 'audited' from audited`);
  const answered = (result as { rows: { id: string | null; kind: string }[] }).rows;
  const stale = answered.filter((row) => row.kind === 'stale').map((row) => row.id!);
  if (stale.length) return { ids: [], stale };
  return { ids: answered.filter((row) => row.kind === 'stored').map((row) => row.id!), stale: [] };
}

export async function findLatestReading(executor: Executor, iotDeviceId: string, dataType?: string) {
  const [row] = await executor
    .select()
    .from(iotDeviceData)
    .where(
      and(
        eq(iotDeviceData.iotDeviceId, iotDeviceId),
        dataType === undefined ? undefined : eq(iotDeviceData.dataType, dataType),
      ),
    )
    .orderBy(desc(iotDeviceData.timestamp), desc(iotDeviceData.createdAt), desc(iotDeviceData.id))
    .limit(1);
  return row;
}

/**
 * A reading's number as the summary sums it: a temperature in degrees Celsius whatever unit the reading gives
 * (as the bounds read it: C, °C, F, °F, K), any other number as it is.
 */
function numberOf(dataType: string) {
  const value = sql`field.value::float8`;
  if (dataType !== 'temperature') return value;
  const unit = sql`upper(trim(replace(coalesce(item.data ->> 'unit', 'C'), '°', '')))`;
  return sql`case when field.key <> 'value' then ${value}
    when ${unit} in ('F', 'FAHRENHEIT') then (${value} - 32) * 5 / 9
    when ${unit} in ('K', 'KELVIN') then ${value} - 273.15
    else ${value} end`;
}

/**
 * One type of a device's readings from `from` to `to` (both included), summed up in `buckets` equal parts
 * (lib/period-summary.ts) over the device-and-time index. The reading's own time, which its data also carries,
 * is not one of the numbers.
 */
export function summarizeReadings(
  executor: Executor,
  iotDeviceId: string,
  query: PeriodQuery & { dataType: string },
  within?: SQL,
) {
  return summarizePeriod(executor, query, {
    records: sql`select ${iotDeviceData.timestamp} as "timestamp", ${iotDeviceData.data} as data
      from ${iotDeviceData}
      where ${iotDeviceData.iotDeviceId} = ${iotDeviceId}
        and ${iotDeviceData.dataType} = ${query.dataType}
        and ${iotDeviceData.timestamp} between ${query.from}::bigint and ${query.to}::bigint
        ${within ? sql`and ${within}` : sql``}`,
    number: numberOf(query.dataType),
    skip: ['timestamp'],
  });
}

export async function findIotDeviceId(
  executor: Executor,
  where: { id: string } | { hardwareIdentifier: string },
) {
  const [row] = await executor
    .select({ id: iotDevices.id })
    .from(iotDevices)
    .where(
      'id' in where
        ? eq(iotDevices.id, where.id)
        : eq(iotDevices.hardwareIdentifier, where.hardwareIdentifier),
    )
    .limit(1);
  return row?.id;
}

export async function countDeviceLinks(executor: Executor, iotDeviceId: string) {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(iotDeviceDevices)
    .where(eq(iotDeviceDevices.iotDeviceId, iotDeviceId));
  return row?.count ?? 0;
}
