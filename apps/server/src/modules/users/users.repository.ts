// SQL of the users module beyond the generic engine: sign-in upserts, the caller's record, identity links.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';
import { users } from '@/db/schema/index.js';

/**
 * A person's name either way it is written, for searching: as on the account, and as their identity document
 * has it in the local script (a Thai name, searched in Thai).
 */
export const searchableName = sql<string>`coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '') || ' ' || coalesce(${users.additionalInfo} ->> 'localizedFirstName', '') || ' ' || coalesce(${users.additionalInfo} ->> 'localizedLastName', '')`;

/** What a request needs to know about its caller's user record; undefined before the first sign-in. */
export async function findCallerRecord(executor: Executor, subject: string) {
  const [row] = await executor
    .select({ id: users.id, roles: users.roles, localRoles: users.localRoles, isBlocked: users.isBlocked })
    .from(users)
    .where(eq(users.masterId, subject))
    .limit(1);
  return row;
}

/** The user bound to an identity, else the unbound user of that username; locked for the sign-in. */
export async function lockUserForSignIn(executor: Executor, masterId: string, username: string) {
  const [bound] = await executor
    .select({ id: users.id, masterId: users.masterId })
    .from(users)
    .where(eq(users.masterId, masterId))
    .for('update');
  if (bound) return bound;
  const [byName] = await executor
    .select({ id: users.id, masterId: users.masterId })
    .from(users)
    .where(eq(users.username, username))
    .for('update');
  return byName;
}

/** Ids among `ids` whose user is blocked: they cannot sign in, so nothing can be asked of them. */
export async function blockedIds(executor: Executor, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await executor
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [...ids]), eq(users.isBlocked, true)));
  return rows.map((row) => row.id);
}

export type UserFields = Partial<typeof users.$inferInsert>;

export async function insertUser(executor: Executor, fields: typeof users.$inferInsert) {
  const [inserted] = await executor.insert(users).values(fields).returning({ id: users.id });
  return inserted!.id;
}

export async function updateUser(executor: Executor, id: string, fields: UserFields) {
  await executor.update(users).set(fields).where(eq(users.id, id));
}

/** A PATCH of additionalInfo merges into the stored object, so unsent keys keep their values. */
export const mergedAdditionalInfo = (patch: Record<string, unknown>) =>
  sql`${users.additionalInfo} || ${JSON.stringify(patch)}::jsonb`;

/**
 * How many users may use the admin area and are not blocked (the admin area's rule, `isAdmin` of
 * `@careplane/shared/auth/roles`: the first global role admin or master, or the first local role
 * application_admin). Taken after an advisory lock, so two admins demoting each other at once are counted one after
 * the other: the second sees the first's change once it has committed (read committed), and is refused.
 */
export async function activeAdminsAfterLock(executor: Executor): Promise<number> {
  await executor.execute(sql`select pg_advisory_xact_lock(hashtext('careplane.users.active-admins'))`);
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(
      and(
        eq(users.isBlocked, false),
        sql`(${users.roles}[1] in ('admin', 'master') or ${users.localRoles}[1] = 'application_admin')`,
      ),
    );
  return Number(row?.count ?? 0);
}
