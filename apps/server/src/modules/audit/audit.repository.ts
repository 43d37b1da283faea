// Reading the audit log (its rows are written by lib/audit.ts, in the transaction of each write).
import { and, eq, sql } from 'drizzle-orm';
import { auditListSpec, type AuditListQuery } from '@careplane/shared/audit/audit.contract';
import type { Executor } from '@/db/client.js';
import { auditLog } from '@/db/schema/index.js';
import { bindListSpec, buildListSql, column } from '@/lib/resources/filters.js';

/** The audit contract's list spec, bound to the audit_log table. */
export const auditQuerySpec = bindListSpec(auditListSpec, {
  idColumn: auditLog.id,
  filters: {
    actorUserId: column(auditLog.actorUserId),
    'actor.id': column(auditLog.actorUserId),
    actorSubject: column(auditLog.actorSubject),
    resource: column(auditLog.resource),
    action: column(auditLog.action),
    recordId: column(auditLog.recordId),
  },
  search: {
    actorUserId: auditLog.actorUserId,
    'actor.id': auditLog.actorUserId,
    actorSubject: auditLog.actorSubject,
    resource: auditLog.resource,
    action: auditLog.action,
    recordId: auditLog.recordId,
  },
  sort: { at: auditLog.at, action: auditLog.action, resource: auditLog.resource },
});

/**
 * One page of the audit log and its total. `onlyActor` narrows it to one user's own entries (null: to
 * nothing, for a caller without a user record); undefined leaves it whole.
 */
export async function listAuditEntries(
  executor: Executor,
  query: AuditListQuery,
  onlyActor: string | null | undefined,
) {
  const { where, orderBy } = buildListSql(auditQuerySpec, query);
  const scoped =
    onlyActor === undefined
      ? where
      : and(where, onlyActor === null ? sql`false` : eq(auditLog.actorUserId, onlyActor));
  const [items, [counted]] = await Promise.all([
    executor
      .select()
      .from(auditLog)
      .where(scoped)
      .orderBy(...orderBy)
      .limit(query.limit)
      .offset(query.offset),
    query.count
      ? executor
          .select({ total: sql<number>`count(*)::int` })
          .from(auditLog)
          .where(scoped)
      : Promise.resolve([null]),
  ]);
  return { items, total: counted === null ? null : (counted?.total ?? 0) };
}
