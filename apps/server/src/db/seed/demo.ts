// Demo data for an empty database. (Filled in by the demo-data work; see docs/decisions.)
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../client.js';
import { users } from '../schema/index.js';

export async function loadDemoDataIfEmpty(database: DatabaseHandle) {
  const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(users);
  if ((row?.n ?? 0) > 0) return null;
  return { users: 0 };
}
