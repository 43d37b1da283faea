// SQL of command centers beyond the generic engine: a user's devices (for the care actions), and the
// command-center scopes: which centers a user supervises, and the conditions that narrow the
// generic engine's devices, workstations, users, stats and jobs to the records of some centers. The main
// table's columns are referenced as columns (the engine aliases them); subqueries name their tables plainly.
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';
import {
  alerts,
  commandCenterUsers,
  commandCenters,
  deviceRunnerJobs,
  deviceStats,
  devices,
  users,
  workstations,
} from '@/db/schema/index.js';

/** The ids of the client devices assigned to a user, oldest first (a stable order for the jobs made). */
export async function findUserDeviceIds(executor: Executor, userId: string): Promise<string[]> {
  const rows = await executor
    .select({ id: devices.id })
    .from(devices)
    .where(eq(devices.assignedUserId, userId))
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

export const scopes = {
  none: (): SQL => sql`false`,
  devices: (centerIds: readonly string[]): SQL => sql`${devices.commandCenterId} in (${idList(centerIds)})`,
  workstations: (centerIds: readonly string[]): SQL =>
    sql`${workstations.deviceId} in (${centerDeviceIds(centerIds)})`,
  stats: (centerIds: readonly string[]): SQL =>
    sql`${deviceStats.deviceId} in (${centerDeviceIds(centerIds)})`,
  jobs: (centerIds: readonly string[]): SQL =>
    sql`${deviceRunnerJobs.deviceId} in (${centerDeviceIds(centerIds)})`,
  /**
   * A center's users: its staff (assigned to the center), the users its devices are assigned to, and the
   * patients of workstations whose device belongs to it.
   */
  users: (centerIds: readonly string[]): SQL => sql`(
    ${users.id} in (select ccu.user_id from command_center_users ccu
                    where ccu.command_center_id in (${idList(centerIds)}))
    or ${users.id} in (select d.assigned_user_id from devices d
                       where d.assigned_user_id is not null and d.command_center_id in (${idList(centerIds)}))
    or ${users.id} in (select wp.user_id from workstation_patients wp
                       join workstations w on w.id = wp.workstation_id
                       where w.device_id in (${centerDeviceIds(centerIds)})))`,
  /** A center's alerts: those of its users, and those of IoT devices linked to its devices. */
  alerts: (centerIds: readonly string[]): SQL => sql`(
    ${alerts.userId} in (select ccu.user_id from command_center_users ccu
                         where ccu.command_center_id in (${idList(centerIds)})
                         union
                         select d.assigned_user_id from devices d
                         where d.assigned_user_id is not null and d.command_center_id in (${idList(centerIds)})
                         union
                         select wp.user_id from workstation_patients wp
                         join workstations w on w.id = wp.workstation_id
                         where w.device_id in (${centerDeviceIds(centerIds)}))
    or ${alerts.iotDeviceId} in (select idd.iot_device_id from iot_device_devices idd
                                 where idd.device_id in (${centerDeviceIds(centerIds)})))`,
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
