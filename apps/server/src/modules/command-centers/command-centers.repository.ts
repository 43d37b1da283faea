// SQL of command centers beyond the generic engine.
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { devices } from '../../db/schema/index.js';

/** The ids of the client devices assigned to a user, oldest first (a stable order for the jobs made). */
export async function findUserDeviceIds(executor: Executor, userId: string): Promise<string[]> {
  const rows = await executor
    .select({ id: devices.id })
    .from(devices)
    .where(eq(devices.assignedUserId, userId))
    .orderBy(asc(devices.createdAt), asc(devices.id));
  return rows.map((row) => row.id);
}
