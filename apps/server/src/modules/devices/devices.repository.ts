// SQL of the devices module beyond the generic resource engine.
import { and, desc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { DEVICE_STAT_SERIES } from '@careplane/shared/devices/devices.contract';
import type { Executor } from '@/db/client.js';
import { type PeriodQuery, summarizePeriod } from '@/lib/period-summary.js';
import {
  alerts,
  deviceStats,
  devices,
  iotDeviceDevices,
  iotDevices,
  workstationPatients,
  workstations,
} from '@/db/schema/index.js';

/** An enabled device by the hash of its token. */
export async function findEnabledDeviceByTokenHash(executor: Executor, tokenHash: string) {
  const [row] = await executor
    .select({ id: devices.id, title: devices.title })
    .from(devices)
    .where(and(eq(devices.tokenHash, tokenHash), eq(devices.isEnabled, true)))
    .limit(1);
  return row;
}

export async function deviceExists(executor: Executor, id: string) {
  const [row] = await executor.select({ id: devices.id }).from(devices).where(eq(devices.id, id)).limit(1);
  return Boolean(row);
}

/** The newest stat of a device by its own timestamp; the latest stored one wins a tie. */
export async function findLatestStat(executor: Executor, deviceId: string) {
  return executor.query.deviceStats.findFirst({
    where: eq(deviceStats.deviceId, deviceId),
    orderBy: [desc(deviceStats.timestamp), desc(deviceStats.createdAt), desc(deviceStats.id)],
  });
}

/**
 * A device's stats from `from` to `to` (both included), summed up in `buckets` equal parts (lib/period-summary.ts)
 * over the device-and-time index: the numbers its charts draw (`DEVICE_STAT_SERIES`), each from its place in the
 * stat's `system`; one the stat does not carry as a number is left out of its part.
 */
export function summarizeStats(executor: Executor, deviceId: string, query: PeriodQuery) {
  const numbers = sql.join(
    Object.entries(DEVICE_STAT_SERIES).map(
      ([name, [group, key]]) => sql`${name}::text, ${deviceStats.system} -> ${group}::text -> ${key}::text`,
    ),
    sql`, `,
  );
  return summarizePeriod(executor, query, {
    records: sql`select ${deviceStats.timestamp} as "timestamp", jsonb_build_object(${numbers}) as data
      from ${deviceStats}
      where ${deviceStats.deviceId} = ${deviceId}
        and ${deviceStats.timestamp} between ${query.from}::bigint and ${query.to}::bigint`,
  });
}

/** Replaces the stored token hash; false when there is no such device. */
export async function setDeviceTokenHash(executor: Executor, id: string, tokenHash: string) {
  const updated = await executor
    .update(devices)
    .set({ tokenHash })
    .where(eq(devices.id, id))
    .returning({ id: devices.id });
  return updated.length > 0;
}

/** Locks the workstation for a change of its links; false when there is none. */
export async function lockWorkstation(executor: Executor, id: string) {
  const [row] = await executor
    .select({ id: workstations.id })
    .from(workstations)
    .where(eq(workstations.id, id))
    .for('update');
  return Boolean(row);
}

/** True when the link was added, false when it was already there. */
export async function addWorkstationPatient(executor: Executor, workstationId: string, userId: string) {
  const inserted = await executor
    .insert(workstationPatients)
    .values({ workstationId, userId })
    .onConflictDoNothing()
    .returning({ userId: workstationPatients.userId });
  return inserted.length > 0;
}

/** True when a link was removed, false when there was none. */
export async function removeWorkstationPatient(executor: Executor, workstationId: string, userId: string) {
  const deleted = await executor
    .delete(workstationPatients)
    .where(and(eq(workstationPatients.workstationId, workstationId), eq(workstationPatients.userId, userId)))
    .returning({ userId: workstationPatients.userId });
  return deleted.length > 0;
}

/**
 * Among `iotDeviceIds`, those that allow only one device relationship and are already linked to a client
 * device other than `deviceId` (null: any device, for a device being created).
 */
export async function findIotDevicesLinkedElsewhere(
  executor: Executor,
  deviceId: string | null,
  iotDeviceIds: string[],
) {
  if (iotDeviceIds.length === 0) return [];
  // Locked, so two writes that link the same IoT device cannot both pass this check.
  await executor
    .select({ id: iotDevices.id })
    .from(iotDevices)
    .where(inArray(iotDevices.id, iotDeviceIds))
    .for('update');
  const rows = await executor
    .selectDistinct({ id: iotDevices.id })
    .from(iotDevices)
    .innerJoin(iotDeviceDevices, eq(iotDeviceDevices.iotDeviceId, iotDevices.id))
    .where(
      and(
        inArray(iotDevices.id, iotDeviceIds),
        eq(iotDevices.allowMultipleDeviceRelationships, false),
        deviceId ? ne(iotDeviceDevices.deviceId, deviceId) : undefined,
      ),
    );
  return rows.map((row) => row.id);
}

/**
 * The open alerts a device shows (the patient terminal): those of its assigned user and of its IoT devices,
 * newest first, at most `limit`.
 */
/** The IoT devices linked to a client device, by hardware identifier; never their connection secret. */
export function findLinkedIotDevices(executor: Executor, deviceId: string) {
  return executor
    .select({
      id: iotDevices.id,
      hardwareIdentifier: iotDevices.hardwareIdentifier,
      model: iotDevices.model,
      trustLevel: iotDevices.trustLevel,
      supportedDataTypes: iotDevices.supportedDataTypes,
    })
    .from(iotDeviceDevices)
    .innerJoin(iotDevices, eq(iotDevices.id, iotDeviceDevices.iotDeviceId))
    .where(eq(iotDeviceDevices.deviceId, deviceId))
    .orderBy(iotDevices.hardwareIdentifier);
}

export async function findOpenAlertsOfDevice(executor: Executor, deviceId: string, limit: number) {
  const [device] = await executor
    .select({ assignedUserId: devices.assignedUserId })
    .from(devices)
    .where(eq(devices.id, deviceId));
  if (!device) return [];
  const ownIotDevices = executor
    .select({ id: iotDeviceDevices.iotDeviceId })
    .from(iotDeviceDevices)
    .where(eq(iotDeviceDevices.deviceId, deviceId));
  return executor
    .select()
    .from(alerts)
    .where(
      and(
        eq(alerts.isActive, true),
        or(
          device.assignedUserId ? eq(alerts.userId, device.assignedUserId) : undefined,
          inArray(alerts.iotDeviceId, ownIotDevices),
        ),
      ),
    )
    .orderBy(desc(alerts.timestamp), desc(alerts.id))
    .limit(limit);
}
