// The write side of the audit log: every write records who did what to which record, from which address,
// with the fields it sent (secrets replaced by a marker), in the same transaction as the write itself.
import type { Language } from '@careplane/shared/i18n/languages';
import type { Executor } from '@/db/client.js';
import { auditLog } from '@/db/schema/index.js';
import type { Caller } from './caller.js';

/** Who acts and from where: everything a write needs to know about its request. */
export interface ActionContext {
  caller: Caller | null;
  ip: string | null;
  /** The language the request asked for (Accept-Language), for what the server writes for a person to read. */
  language?: Language;
}

/**
 * A write the server makes on a person's behalf, with no request behind it (their phone answered and the
 * server completes what they approved): recorded as theirs. It grants nothing: no roles, no admin rights.
 */
export const actingFor = (person: { userId: string; subject: string }): ActionContext => ({
  caller: {
    subject: person.subject,
    userId: person.userId,
    roles: [],
    claims: {},
    localRoles: [],
    isAdmin: false,
  },
  ip: null,
});

const SECRET_FIELDS = new Set([
  'connectionSecret',
  'token',
  'tokenHash',
  'secret',
  'password',
  'enrollmentCode',
]);

/** Copies changed fields with secrets replaced by a marker, so the log says *that* a secret changed. */
export function redactChanges(changes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(changes).map(([key, value]) => [key, SECRET_FIELDS.has(key) ? '[redacted]' : value]),
  );
}

export interface AuditRecord {
  action: string;
  resource: string;
  recordId: string | null;
  changes?: Record<string, unknown> | undefined;
}

/** Inserts one audit row; call it inside the transaction of the write it records. */
export async function insertAuditEntry(executor: Executor, context: ActionContext, entry: AuditRecord) {
  await executor.insert(auditLog).values({
    actorUserId: context.caller?.userId ?? null,
    actorSubject: context.caller?.subject ?? null,
    action: entry.action,
    resource: entry.resource,
    recordId: entry.recordId,
    changes: entry.changes ? redactChanges(entry.changes) : null,
    ip: context.ip,
  });
}
