// Audit log rows: written in the same transaction as the change they record.
import { desc, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { auditLog } from '../../db/schema/index.js';

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

export async function listAuditEntries(
  executor: Executor,
  where: SQL | undefined,
  limit: number,
  offset: number,
) {
  const [items, [counted]] = await Promise.all([
    executor
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(limit)
      .offset(offset),
    executor
      .select({ total: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(where),
  ]);
  return { items, total: counted?.total ?? 0 };
}
