// The audit log: who changed what, when, from where. Rows outlive the users they name.
import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actorUserId: uuid('actor_user_id'),
    actorSubject: text('actor_subject'),
    action: text('action').notNull(),
    resource: text('resource').notNull(),
    recordId: text('record_id'),
    changes: jsonb('changes').$type<Record<string, unknown>>(),
    ip: text('ip'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at, t.id),
    index('audit_log_actor_at_idx').on(t.actorUserId, t.at),
    index('audit_log_resource_record_idx').on(t.resource, t.recordId),
  ],
);
