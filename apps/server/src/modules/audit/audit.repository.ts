// Audit log rows: written in the same transaction as the change they record.
import { desc, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { auditLog } from '../../db/schema/index.js';
import { columnFilter, kinds, type ResourceQuerySpec } from '../../lib/resources/filters.js';

/** Whitelisted filters, searches and sorts of GET /api/users/logs (see the audit contract). */
export const auditQuerySpec: ResourceQuerySpec = {
  idColumn: auditLog.id,
  defaultSort: [desc(auditLog.at), desc(auditLog.id)],
  filters: {
    actorUserId: columnFilter(auditLog.actorUserId, kinds.uuid),
    'actor.id': columnFilter(auditLog.actorUserId, kinds.uuid),
    actorSubject: columnFilter(auditLog.actorSubject, kinds.text),
    resource: columnFilter(auditLog.resource, kinds.text),
    action: columnFilter(auditLog.action, kinds.text),
    recordId: columnFilter(auditLog.recordId, kinds.text),
  },
  like: {
    actorUserId: auditLog.actorUserId,
    'actor.id': auditLog.actorUserId,
    actorSubject: auditLog.actorSubject,
    resource: auditLog.resource,
    action: auditLog.action,
    recordId: auditLog.recordId,
  },
  sorts: { at: auditLog.at, action: auditLog.action, resource: auditLog.resource },
};

export interface AuditEntryInput {
  actorUserId: string | null;
  actorSubject: string | null;
  action: string;
  resource: string;
  recordId: string | null;
  changes?: Record<string, unknown> | null;
  ip?: string | null;
}

export async function insertAuditEntry(executor: Executor, entry: AuditEntryInput) {
  await executor.insert(auditLog).values({
    actorUserId: entry.actorUserId,
    actorSubject: entry.actorSubject,
    action: entry.action,
    resource: entry.resource,
    recordId: entry.recordId,
    changes: entry.changes ?? null,
    ip: entry.ip ?? null,
  });
}

export interface AuditListSql {
  where: SQL | undefined;
  /** Defaults to newest first. */
  orderBy?: SQL[];
  limit: number;
  offset: number;
}

export async function listAuditEntries(executor: Executor, { where, orderBy, limit, offset }: AuditListSql) {
  const [items, [counted]] = await Promise.all([
    executor
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(...(orderBy?.length ? orderBy : [desc(auditLog.at), desc(auditLog.id)]))
      .limit(limit)
      .offset(offset),
    executor
      .select({ total: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(where),
  ]);
  return { items, total: counted?.total ?? 0 };
}
