// The SQL of live events: which command centers a changed record belongs to, so that a supervisor's stream
// carries only the changes of their own centers (decisions §4).
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';

/** The centers of a user: staff of the center, user of one of its devices, patient of one of its workstations. */
const centersOfUser = (userId: SQL) => sql`
  select ccu.command_center_id as id from command_center_users ccu where ccu.user_id = ${userId}
  union
  select d.command_center_id from devices d where d.assigned_user_id = ${userId}
  union
  select d.command_center_id from workstation_patients wp
    join workstations w on w.id = wp.workstation_id
    join devices d on d.id = w.device_id
   where wp.user_id = ${userId}`;

const queries: Partial<Record<string, (id: string) => SQL>> = {
  devices: (id) => sql`select command_center_id as id from devices where id = ${id}::uuid`,
  'device-stats': (id) => sql`
    select d.command_center_id as id from device_stats s join devices d on d.id = s.device_id
     where s.id = ${id}::uuid`,
  'device-jobs': (id) => sql`
    select d.command_center_id as id from device_runner_jobs j join devices d on d.id = j.device_id
     where j.id = ${id}::uuid`,
  workstations: (id) => sql`
    select d.command_center_id as id from workstations w join devices d on d.id = w.device_id
     where w.id = ${id}::uuid`,
  users: (id) => centersOfUser(sql`${id}::uuid`),
  // An alert belongs to the centers of its user; an alert naming no user, to those of its IoT device's user,
  // and, for an IoT device assigned to nobody, to those of the devices it is linked to (the command-center
  // scopes' rule, decisions 102 and 109).
  alerts: (id) => sql`
    ${centersOfUser(sql`(select user_id from alerts where id = ${id}::uuid)`)}
    union
    ${centersOfUser(sql`(select i.assigned_user_id from alerts a join iot_devices i on i.id = a.iot_device_id
                          where a.id = ${id}::uuid and a.user_id is null)`)}
    union
    select d.command_center_id from alerts a
      join iot_devices i on i.id = a.iot_device_id and i.assigned_user_id is null
      join iot_device_devices idd on idd.iot_device_id = a.iot_device_id
      join devices d on d.id = idd.device_id
     where a.id = ${id}::uuid and a.user_id is null`,
};

/**
 * The command centers a record of `resource` belongs to: none for a record that is gone or belongs to no
 * center, and null for a resource that is not a center's (only admins hear of those).
 */
export async function findCentersOfRecord(
  executor: Executor,
  resource: string,
  id: string,
): Promise<string[] | null> {
  const query = queries[resource];
  if (!query) return null;
  // Both drivers answer { rows }; the result type of execute() is driver-generic.
  const result: unknown = await executor.execute(query(id));
  const { rows } = result as { rows: { id: string | null }[] };
  return rows.flatMap((row) => (row.id ? [row.id] : []));
}
