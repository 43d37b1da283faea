// The columns every table of action keys has (decisions 046 and 107): an action a phone kept in its outbox and
// sends with an Idempotency-Key of its own, until it hears an answer. The first request with a key acts and
// records it, in the same transaction; a repeat answers from the row. (user, key) is the identity; what was asked
// (the record's column of each table, `action`, `fingerprint`) tells a repeat from another request reusing the
// key; `answer` is the record as the first request answered it. lib/action-keys.ts reads and writes them.
import { index, jsonb, primaryKey, text, uuid, type PgColumn } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './users.js';

export const actionKeyColumns = () => ({
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  key: uuid('key').notNull(),
  action: text('action').notNull(),
  /** SHA-256 of what the request said besides its record and action, so a reuse with another is seen. */
  fingerprint: text('fingerprint').notNull(),
  answer: jsonb('answer').$type<Record<string, unknown>>(),
  createdAt: createdAt(),
});

/** The key's identity, and the indexes that expire old keys and find a record's keys. */
export const actionKeyIndexes = (
  table: string,
  recordIndex: string,
  t: { userId: PgColumn; key: PgColumn; createdAt: PgColumn },
  record: PgColumn,
) => [
  primaryKey({ columns: [t.userId, t.key] }),
  index(`${table}_created_at_idx`).on(t.createdAt),
  index(`${table}_${recordIndex}_idx`).on(record),
];
