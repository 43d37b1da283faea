// The Idempotency-Key of an action (decisions 046 and 107), for every table that records one: a phone's outbox
// sends each action with a key of its own and sends it again until it hears an answer. The first request with a
// key claims it in the transaction of its change; a repeat, even one sent while the first still runs, finds it
// and answers what the first answered. Each table has the same columns (user, key, the record acted on, action,
// fingerprint, answer, created at); only the record's column differs, and the module that owns the table reads it.
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { MAX_KEPT_ACTION_DAYS } from '@careplane/shared/common/kept-actions';
import type { Executor } from '@/db/client.js';
import type { ActionContext } from './audit.js';
import { AppError, badRequest } from './errors.js';
import { serviceTexts } from './service-texts.js';
import type { Text } from './service-texts.js';

/**
 * How long an Idempotency-Key answers its repeats (decision 046): as long as a phone may keep an action
 * (decision 076).
 */
export const ACTION_KEY_DAYS = MAX_KEPT_ACTION_DAYS;

/** A table of action keys: the columns every one has, whatever record its actions are on. */
export type ActionKeyTable = PgTable & {
  userId: PgColumn;
  key: PgColumn;
  answer: PgColumn;
  createdAt: PgColumn;
};

/** What a claim records: the row less the answer (saved once the action is done) and its time. */
export type ActionKeyClaim<T extends ActionKeyTable> = Omit<T['$inferInsert'], 'answer' | 'createdAt'>;

/** A SHA-256 of a value as JSON, the keys of its objects in order: what a repeat's request must match. */
export function fingerprintOf(value: unknown): string {
  const ordered = (one: unknown): unknown =>
    Array.isArray(one)
      ? one.map(ordered)
      : one && typeof one === 'object'
        ? Object.fromEntries(
            Object.keys(one)
              .sort()
              .map((key) => [key, ordered((one as Record<string, unknown>)[key])]),
          )
        : one;
  return createHash('sha256')
    .update(JSON.stringify(ordered(value)) ?? 'null')
    .digest('hex');
}

/**
 * The key a caller sent, with whose it is: keys are per user, so a caller without a user record (a device's
 * credential) sending one is a 400.
 */
export function callerKey(
  context: ActionContext,
  idempotencyKey: string | undefined,
): { userId: string; key: string } | undefined {
  if (!idempotencyKey) return undefined;
  const userId = context.caller?.userId;
  if (!userId) {
    throw badRequest(serviceTexts.idempotencyKeyNeedsUser, [
      { path: 'headers.idempotency-key', message: 'Only for users' },
    ]);
  }
  return { userId, key: idempotencyKey };
}

/**
 * A key used before: its answer again when it was sent with this request (the same record, action and
 * fingerprint), else a 422 that says what it was used for (`refusal`, told whether only the body differs).
 */
export function answerOfRepeat(
  earlier: { record: string; action: string; fingerprint: string; answer: Record<string, unknown> | null },
  asked: { record: string; action: string; fingerprint: string },
  refusal: (otherBody: boolean) => Text,
): Record<string, unknown> | null {
  if (
    earlier.record !== asked.record ||
    earlier.action !== asked.action ||
    earlier.fingerprint !== asked.fingerprint
  ) {
    // Only what differs is said: another record or another action is named by the earlier request alone; a
    // body that differs only matters for the same action on the same record.
    const sameAction = earlier.record === asked.record && earlier.action === asked.action;
    throw new AppError(422, refusal(sameAction && earlier.fingerprint !== asked.fingerprint), [
      { path: 'headers.idempotency-key', message: 'Already used for another request' },
    ]);
  }
  return earlier.answer;
}

/** The find, claim and answer of one table's keys. */
export function actionKeys<T extends ActionKeyTable>(table: T) {
  const own = (userId: string, key: string) => and(eq(table.userId, userId), eq(table.key, key));
  // The builders take the table as a plain PgTable (its own columns are unknown to them for a generic one).
  const target: PgTable = table;

  /** The key's row, when the user used it in the last ACTION_KEY_DAYS (an older one answers nothing). */
  async function find(
    executor: Executor,
    userId: string,
    key: string,
  ): Promise<T['$inferSelect'] | undefined> {
    const [row] = await executor
      .select()
      .from(target)
      .where(
        and(own(userId, key), sql`${table.createdAt} >= now() - make_interval(days => ${ACTION_KEY_DAYS})`),
      );
    return row;
  }

  /**
   * Takes the key for this request, in the transaction of its change, and first lets go of the user's keys
   * older than ACTION_KEY_DAYS. A request holding the same key in another transaction makes this one wait until
   * it ends: then the key is either ours (the other rolled back) or theirs, and false says so.
   */
  async function claim(executor: Executor, values: ActionKeyClaim<T> & { userId: string }): Promise<boolean> {
    await executor
      .delete(target)
      .where(
        and(
          eq(table.userId, values.userId),
          sql`${table.createdAt} < now() - make_interval(days => ${ACTION_KEY_DAYS})`,
        ),
      );
    const claimed = await executor
      .insert(target)
      .values(values as PgTable['$inferInsert'])
      .onConflictDoNothing()
      .returning({ key: table.key });
    return claimed.length > 0;
  }

  /** The answer a key's repeats get: the record as the first request answered it. */
  async function saveAnswer(
    executor: Executor,
    userId: string,
    key: string,
    answer: Record<string, unknown>,
  ): Promise<void> {
    await executor.update(target).set({ answer }).where(own(userId, key));
  }

  return { find, claim, saveAnswer };
}
