// Reading back what a test wrote: the audit rows of a record, the ids of a list answer.
import { and, asc, eq } from 'drizzle-orm';
import { auditLog } from '@/db/schema/index.js';
import type { TestContext } from './harness.js';

/** The audit rows of one record, oldest first. */
export function auditRows(context: TestContext, resource: string, recordId: string) {
  return context.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.resource, resource), eq(auditLog.recordId, recordId)))
    .orderBy(asc(auditLog.id));
}

export const ids = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);
