// SQL of command centers beyond the generic engine: a user's devices (for the care actions), and the
// command-center scopes: which centers a user supervises, and the conditions that narrow the generic engine's
// devices, workstations, users, stats, jobs, alerts, IoT devices and readings to the records of some centers.
// The main table's columns are referenced as columns (the engine aliases them); subqueries name their tables
// plainly.
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';
import {
  alerts,
  commandCenterUsers,
  commandCenters,
  deviceRunnerJobs,
  deviceStats,
  devices,
  iotDeviceData,
  iotDevices,
  users,
  workstations,
} from '@/db/schema/index.js';

/** Every center (an admin who named none), or these. */
export type CenterSet = 'all' | readonly string[];

/**
 * The ids of the client devices assigned to a user and belonging to one of `centers`, oldest first (a stable
 * order for the jobs made). A user of several centers has devices of each: the care team of one acts on its
 * own only (decisions §4).
 */
export async function findUserDeviceIds(
  executor: Executor,
  userId: string,
  centers: CenterSet,
): Promise<string[]> {
  const assigned = eq(devices.assignedUserId, userId);
  const rows = await executor
    .select({ id: devices.id })
    .from(devices)
    .where(centers === 'all' ? assigned : and(assigned, inArray(devices.commandCenterId, [...centers])))
    .orderBy(asc(devices.createdAt), asc(devices.id));
  return rows.map((row) => row.id);
}

/** The command centers a user is assigned to (supervises). */
export async function findCenterIdsOfUser(executor: Executor, userId: string): Promise<string[]> {
  const rows = await executor
    .select({ id: commandCenterUsers.commandCenterId })
    .from(commandCenterUsers)
    .where(eq(commandCenterUsers.userId, userId));
  return rows.map((row) => row.id);
}

/** Of these devices or workstations, those of the centers. */
export async function idsWithinCenters(
  executor: Executor,
  kind: 'devices' | 'workstations',
  ids: readonly string[],
  centerIds: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const table = kind === 'devices' ? devices : workstations;
  const rows = await executor
    .select({ id: table.id })
    .from(table)
    .where(and(inArray(table.id, [...ids]), scopes[kind](centerIds)));
  return new Set(rows.map((row) => row.id));
}

export async function commandCenterExists(executor: Executor, id: string): Promise<boolean> {
  const rows = await executor
    .select({ id: commandCenters.id })
    .from(commandCenters)
    .where(eq(commandCenters.id, id));
  return rows.length > 0;
}

const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** Devices of the centers, as a subquery of device ids. */
const centerDeviceIds = (centerIds: readonly string[]) =>
  sql`select d.id from devices d where d.command_center_id in (${idList(centerIds)})`;

/**
 * A center's users, as a subquery of user ids: its staff (assigned to the center), the users its devices are
 * assigned to, and the patients of workstations whose device belongs to it.
 */
const centerUserIds = (centerIds: readonly string[]) => sql`
  select ccu.user_id from command_center_users ccu where ccu.command_center_id in (${idList(centerIds)})
  union
  select d.assigned_user_id from devices d
   where d.assigned_user_id is not null and d.command_center_id in (${idList(centerIds)})
  union
  select wp.user_id from workstation_patients wp
    join workstations w on w.id = wp.workstation_id
   where w.device_id in (${centerDeviceIds(centerIds)})`;

/**
 * A center's IoT devices, as a subquery of their ids: those assigned to its users, and those linked to its devices
 * that are assigned to nobody. A device linked to the center's tablet but assigned to a patient of another
 * center measures that patient: it is theirs, not this center's (decision 102).
 */
const centerIotDeviceIds = (centerIds: readonly string[]) => sql`
  select i.id from iot_devices i where i.assigned_user_id in (${centerUserIds(centerIds)})
  union
  select idd.iot_device_id from iot_device_devices idd
    join iot_devices i on i.id = idd.iot_device_id and i.assigned_user_id is null
   where idd.device_id in (${centerDeviceIds(centerIds)})`;

export const scopes = {
  none: (): SQL => sql`false`,
  devices: (centerIds: readonly string[]): SQL => sql`${devices.commandCenterId} in (${idList(centerIds)})`,
  workstations: (centerIds: readonly string[]): SQL =>
    sql`${workstations.deviceId} in (${centerDeviceIds(centerIds)})`,
  stats: (centerIds: readonly string[]): SQL =>
    sql`${deviceStats.deviceId} in (${centerDeviceIds(centerIds)})`,
  jobs: (centerIds: readonly string[]): SQL =>
    sql`${deviceRunnerJobs.deviceId} in (${centerDeviceIds(centerIds)})`,
  users: (centerIds: readonly string[]): SQL => sql`${users.id} in (${centerUserIds(centerIds)})`,
  /**
   * A center's alerts: those about its users, and those about no one of its IoT devices (above). An alert is
   * about the person it names, whoever its IoT device is assigned to now: a device given to a patient of
   * another center does not take its earlier patient's alerts there (decision 109).
   */
  alerts: (centerIds: readonly string[]): SQL => sql`(
    ${alerts.userId} in (${centerUserIds(centerIds)})
    or (${alerts.userId} is null and ${alerts.iotDeviceId} in (${centerIotDeviceIds(centerIds)})))`,
  /** A center's IoT devices: those assigned to its users, and those linked to its devices. */
  iotDevices: (centerIds: readonly string[]): SQL =>
    sql`${iotDevices.id} in (${centerIotDeviceIds(centerIds)})`,
  /**
   * A center's readings: those about its users (`user_id`, the device's assigned user when the reading was
   * stored), and those about no one of its IoT devices. A device given to a patient of another center does
   * not take its earlier patient's readings there (decision 109).
   */
  readings: (centerIds: readonly string[]): SQL => sql`(
    ${iotDeviceData.userId} in (${centerUserIds(centerIds)})
    or (${iotDeviceData.userId} is null and ${iotDeviceData.iotDeviceId} in (${centerIotDeviceIds(centerIds)})))`,
  /**
   * Patients that belong to no command center in any of the ways above: the people a supervisor may take into
   * care. Staff of no center (a pharmacist, a courier, an admin) are not the care team's to read.
   */
  unassignedUsers: (): SQL => sql`(
    'patient' = any(${users.localRoles})
    and not ('admin' = any(${users.roles}))
    and ${users.id} not in (select ccu.user_id from command_center_users ccu)
    and ${users.id} not in (select d.assigned_user_id from devices d
                            where d.assigned_user_id is not null and d.command_center_id is not null)
    and ${users.id} not in (select wp.user_id from workstation_patients wp
                            join workstations w on w.id = wp.workstation_id
                            join devices d on d.id = w.device_id
                            where d.command_center_id is not null))`,
};
