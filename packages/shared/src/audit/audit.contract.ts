// The audit log as the API answers it: GET /api/users/logs, newest first.
import { z } from 'zod';
import { defineListSpec, filterKinds as k } from '../common/list-spec.ts';
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
 * The audit log's list: `filters` match exactly (actor ids as uuids, the rest as text); `filtersLike` takes
 * the same paths as case-insensitive text. No relations and no time range.
 */
export const auditListSpec = defineListSpec({
  resource: 'audit-log',
  filters: {
    actorUserId: k.ref('users'),
    'actor.id': k.ref('users'),
    actorSubject: k.text,
    resource: k.text,
    action: k.text,
    recordId: k.text,
  },
  search: ['actorUserId', 'actor.id', 'actorSubject', 'resource', 'action', 'recordId'],
  sort: ['at', 'action', 'resource'],
  relations: [],
  defaultSort: { path: 'at', direction: 'desc' },
});

/** The list query of every resource; `relations`, `from` and `to` are refused here (400). */
export const auditListQuerySchema = listQuerySchema;
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

export const auditListResponseSchema = listResponseSchema(auditEntrySchema);
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;

export const auditEndpoints = { list: '/api/users/logs' } as const;
