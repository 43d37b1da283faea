// Reading the audit log: admins read all of it, everyone else only their own entries (the account page shows
// the last sign-in from it).
import type { AuditEntry, AuditListQuery, AuditListResponse } from '@careplane/shared/audit/audit.contract';
import type { Caller } from '@/lib/caller.js';
import type { Database } from '@/db/client.js';
import { badRequest, serviceTexts } from '@/lib/errors.js';
import { listAuditEntries } from './audit.repository.js';

/** The audit log, newest first unless sorted otherwise; unknown paths, relations and time ranges are a 400. */
async function listAuditLog(db: Database, query: AuditListQuery, caller: Caller): Promise<AuditListResponse> {
  if (query.relations.length) {
    throw badRequest(serviceTexts.auditNoRelations, [
      { path: 'relations', message: 'relations are not supported here' },
    ]);
  }
  const { items, total } = await listAuditEntries(db, query, caller.isAdmin ? undefined : caller.userId);
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

export function createAuditService(db: Database) {
  return { list: (query: AuditListQuery, caller: Caller) => listAuditLog(db, query, caller) };
}

export type AuditService = ReturnType<typeof createAuditService>;
