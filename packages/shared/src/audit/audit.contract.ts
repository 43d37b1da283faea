// The audit log as the API answers it: GET /api/users/logs, newest first.
import { z } from 'zod';
import { listQuerySchema, listResponseSchema } from '../common/http.ts';
import { isoDateTime } from '../common/primitives.ts';

/** One write: who (actor), what (action on resource/recordId), when (at), from where (ip), which fields. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: isoDateTime,
  actorUserId: z.string().nullable(),
  actorSubject: z.string().nullable(),
  action: z.string(),
  resource: z.string(),
  recordId: z.string().nullable(),
  /** The fields the write sent, secrets replaced by "[redacted]"; null for deletes. */
  changes: z.looseObject({}).nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/**
 * Filter paths of the audit log. `filters` match exactly (actor ids as uuids, the rest as text);
 * `filtersLike` takes the same paths as case-insensitive text. Sorts: `at`, `action`, `resource`.
 */
export const auditFilterPaths = [
  'actorUserId',
  'actor.id',
  'actorSubject',
  'resource',
  'action',
  'recordId',
] as const;
export const auditSortPaths = ['at', 'action', 'resource'] as const;

/** The list query of every resource; `relations`, `from` and `to` are refused here (400). */
export const auditListQuerySchema = listQuerySchema;
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

export const auditListResponseSchema = listResponseSchema(auditEntrySchema);
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;

export const auditEndpoints = {
  list: { method: 'GET', path: '/api/users/logs' },
} as const;
