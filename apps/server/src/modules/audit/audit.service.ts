// What goes into the audit log: the changed fields, never a secret.
import type { AuditEntry, AuditListQuery, AuditListResponse } from '@careplane/shared/audit/audit.contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { auditLog } from '../../db/schema/index.js';
import { badRequest } from '../../lib/errors.js';
import { buildListSql } from '../../lib/resources/filters.js';
import type { Caller } from '../../plugins/auth.js';
import { auditQuerySpec, insertAuditEntry, listAuditEntries } from './audit.repository.js';

const SECRET_FIELDS = new Set([
  'connectionSecret',
  'token',
  'tokenHash',
  'secret',
  'password',
  'enrollmentCode',
]);

export interface ActionContext {
  caller: Caller | null;
  ip: string | null;
}

/** Copies changed fields with secrets replaced by a marker, so the log says *that* a secret changed. */
export function redactChanges(changes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(changes).map(([key, value]) => [key, SECRET_FIELDS.has(key) ? '[redacted]' : value]),
  );
}

export async function audit(
  executor: Executor,
  context: ActionContext,
  action: string,
  resource: string,
  recordId: string | null,
  changes?: Record<string, unknown>,
) {
  await insertAuditEntry(executor, {
    actorUserId: context.caller?.userId ?? null,
    actorSubject: context.caller?.subject ?? null,
    action,
    resource,
    recordId,
    changes: changes ? redactChanges(changes) : null,
    ip: context.ip,
  });
}

/** The audit log, newest first unless sorted otherwise; unknown paths, relations and time ranges are a 400. */
/**
 * `onlyActor`: the user id whose own entries a non-admin may read (their sign-ins and changes); `null` for a
 * caller without a user record, who sees nothing. Undefined for admins, who see everything.
 */
export async function listAuditLog(
  executor: Executor,
  query: AuditListQuery,
  onlyActor?: string | null,
): Promise<AuditListResponse> {
  if (query.relations.length) {
    throw badRequest('The audit log has no relations', [
      { path: 'relations', message: 'relations are not supported here' },
    ]);
  }
  const { where, orderBy } = buildListSql(auditQuerySpec, query);
  const scoped =
    onlyActor === undefined
      ? where
      : and(where, onlyActor === null ? sql`false` : eq(auditLog.actorUserId, onlyActor));
  const { items, total } = await listAuditEntries(executor, {
    where: scoped,
    orderBy,
    limit: query.limit,
    offset: query.offset,
  });
  return {
    items: items.map((row): AuditEntry => ({
      ...row,
      at: row.at.toISOString(),
      changes: row.changes ?? null,
    })),
    total,
    limit: query.limit,
    offset: query.offset,
  };
}
