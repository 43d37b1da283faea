// What goes into the audit log: the changed fields, never a secret.
import type { Executor } from '../../db/client.js';
import type { Caller } from '../../plugins/auth.js';
import { insertAuditEntry } from './audit.repository.js';

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
