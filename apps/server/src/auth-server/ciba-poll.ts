// CIBA token polls (decision 051). A client polls the token endpoint every `interval` seconds until the person
// approves on the phone. Most polls have one of two answers that need nothing of the provider:
// `authorization_pending` and `slow_down`. The token route answers those itself, before the provider
// (answerPoll), and hands every other request over unchanged. The provider still answers everything that
// decides something: tokens, a denial, an expired or unknown request, a wrong client, any malformed request.
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { errors, type AdapterPayload } from './oidc.js';
import type { Database } from '@/db/client.js';
import { authOidcPayloads } from '@/db/schema/index.js';

export const CIBA_MODEL = 'BackchannelAuthenticationRequest';

/** A little leeway for network jitter between two polls that honour the interval. */
const POLL_LEEWAY_MS = 250;

/** Polls this process let through, remembered while they still make a new poll too early. */
const MAX_REMEMBERED_POLLS = 100_000;

/**
 * A condition that holds and makes the statement's own transaction commit without waiting for its log to
 * reach the disk (synchronous_commit off, for that transaction only): what it writes is visible at once to
 * every process, only a crash in the next fraction of a second could lose it.
 */
export const noFlush = sql`set_config('synchronous_commit', 'off', true) is not null`;

export interface PollThrottle {
  /**
   * The provider's read of a CIBA request at the token endpoint: the request if the previous poll was at
   * least `interval` seconds ago, undefined if there is none; slow_down (thrown) if the poll came too early.
   */
  poll(id: string): Promise<AdapterPayload | undefined>;
  /**
   * Whether this poll of the client's request can be answered by itself: 'slow_down' when a poll of it was
   * let through less than the interval ago, 'pending' when the request is the client's, unexpired, neither
   * approved nor denied nor used, and the interval has passed (the poll is then recorded, as the provider's
   * would be). undefined: the provider must decide (it reads the request again).
   */
  answer(id: string, clientId: string): Promise<'slow_down' | 'pending' | undefined>;
}

export interface PollThrottleOptions {
  /**
   * The database is this process's own (the embedded one, which no other process can open): nothing changes
   * a CIBA request but this process, so what it learnt of a pending request holds until it changes it itself.
   */
  ownDatabase: boolean;
}

/** What is known of polls beside the database: the polls let through, and (own database) pending requests. */
interface PollMemory {
  /** Polls let through, by request: when, and by which client. */
  passed: Map<string, { at: number; clientId: string | null }>;
  /**
   * Own database only: requests the database answered pending (the client's, unexpired, undecided, unused),
   * until this process changes them (forgetPolls). Otherwise null: every due poll asks the database.
   */
  pending: Map<string, { clientId: string; expiresAt: number }> | null;
  /** Counts forgettings: a statement answered before one does not teach what it read (see answer()). */
  epoch: number;
}

/** A due poll on its way to the database, with what settles it. */
interface DuePoll {
  id: string;
  clientId: string;
  at: number;
  /** The memory's epoch when the poll was asked: see sendQueue. */
  epoch: number;
  resolve: (pending: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * An own database's poll memory, one per database: several auth servers on one embedded database (the tests
 * start two to stand for two processes) judge polls alike, as separate processes do through PostgreSQL.
 */
const ownMemories = new WeakMap<Database, PollMemory>();

const newMemory = (ownDatabase: boolean): PollMemory => ({
  passed: new Map(),
  pending: ownDatabase ? new Map() : null,
  epoch: 0,
});

/**
 * A CIBA request changed (approved, denied, used, removed) or, without an id, any number of them (an
 * identity's sign-ins ended): what the poll memory of the database knew of them is forgotten, so the next due
 * poll reads the database. Called by every writer of CIBA requests, after its statement.
 */
export function forgetPolls(db: Database, id?: string): void {
  const memory = ownMemories.get(db);
  if (!memory?.pending) return;
  memory.epoch += 1;
  if (id === undefined) memory.pending.clear();
  else memory.pending.delete(id);
}

/**
 * The interval is judged by the database: one conditional UPDATE records the poll and answers it, so polls of
 * one request on several processes are judged consistently, and a poll that passes costs one statement. The
 * time it records is not worth a disk flush (a crash loses at most one throttled poll), so the statement
 * commits asynchronously. A poll let through less than the interval ago is answered slow_down without asking
 * the database: the database would answer the same, since it recorded that poll. The due polls that arrive in
 * one turn of the event loop share one statement (a row each, judged on its own row at its own time): under a
 * poll storm the round trip of a statement, not its work, was most of what a due poll cost.
 *
 * On the process's own database (the embedded one) the process is the only one polling and changing CIBA
 * requests, so memory is exact: a request the database answered pending stays pending until this process
 * changes it, and every writer says so (forgetPolls). A due poll of such a request is answered pending and
 * remembered without a statement; the embedded database runs on the server's own thread, where each UPDATE
 * cost a third of the poll storm's time.
 */
export function createPollThrottle(
  db: Database,
  intervalSeconds: number,
  options: PollThrottleOptions = { ownDatabase: false },
): PollThrottle {
  const table = authOidcPayloads;
  let memory = options.ownDatabase ? ownMemories.get(db) : undefined;
  if (!memory) {
    memory = newMemory(options.ownDatabase);
    if (options.ownDatabase) ownMemories.set(db, memory);
  }
  const { passed, pending } = memory;
  const intervalMs = intervalSeconds * 1000 - POLL_LEEWAY_MS;
  const key = and(eq(table.model, CIBA_MODEL), eq(table.id, sql.placeholder('id')));
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  const due = or(isNull(table.polledAt), lt(table.polledAt, sql`${sql.placeholder('cutoff')}::timestamptz`));
  // Built once: building a statement was a tenth of a poll's CPU time; on PostgreSQL each connection parses a
  // named statement once.
  const pass = db
    .update(table)
    .set({ polledAt: now })
    .where(and(key, due, noFlush))
    .returning({ payload: table.payload, consumedAt: table.consumedAt })
    .prepare('ciba_poll_pass');
  // What the provider would answer authorization_pending (oidc-provider's ciba grant: the request found, the
  // client's, not expired, neither a grant nor an error yet, not consumed), with the poll recorded; for every
  // due poll that arrived in one turn of the event loop at once, each judged on its own row and its own time.
  const passPending = (polls: DuePoll[]) => {
    const rows = JSON.stringify(
      polls.map(({ id, clientId, at }) => ({ id, client_id: clientId, ...times(at) })),
    );
    return db.execute(sql`
      update ${table} t set polled_at = p.now
      from jsonb_to_recordset(${rows}::jsonb) as p(id text, client_id text, now timestamptz, cutoff timestamptz)
      where t.model = ${CIBA_MODEL} and t.id = p.id
        and (t.polled_at is null or t.polled_at < p.cutoff)
        and t.payload ->> 'clientId' = p.client_id
        and t.payload ->> 'grantId' is null
        and t.payload ->> 'error' is null
        and t.consumed_at is null
        and t.expires_at > p.now
        and ${noFlush}
      returning t.id, (extract(epoch from t.expires_at) * 1000)::float8 as expires_ms`);
  };
  const exists = db.select({ id: table.id }).from(table).where(key).limit(1).prepare('ciba_poll_exists');

  const tooEarly = (id: string, at: number, clientId: string | null) => {
    const last = passed.get(id);
    return (
      last !== undefined && at - last.at < intervalMs && (clientId === null || last.clientId === clientId)
    );
  };
  const remember = (id: string, at: number, clientId: string | null) => {
    if (passed.size >= MAX_REMEMBERED_POLLS) passed.clear();
    passed.set(id, { at, clientId });
  };
  const times = (at: number) => ({
    now: new Date(at).toISOString(),
    cutoff: new Date(at - intervalMs).toISOString(),
  });

  /** Due polls waiting for the statement that records and answers them, and the requests they poll. */
  const queue: DuePoll[] = [];
  const underway = new Map<string, Promise<boolean>>();
  /**
   * Records the queued polls in one statement and settles each: true when its request is pending (the poll is
   * then remembered, and on an own database the request too, unless a change was forgotten meanwhile: a change
   * made after the statement read the row, an approval say, must not be covered by what it saw before).
   */
  const sendQueue = async () => {
    const polls = queue.splice(0);
    try {
      // Both drivers answer { rows }; the result type of execute() is driver-generic.
      const result: unknown = await passPending(polls);
      const { rows } = result as { rows: { id: string; expires_ms: number }[] };
      const found = new Map(rows.map((row) => [row.id, row.expires_ms]));
      for (const poll of polls) {
        underway.delete(poll.id);
        const expiresAt = found.get(poll.id);
        if (expiresAt === undefined) {
          poll.resolve(false);
          continue;
        }
        remember(poll.id, poll.at, poll.clientId);
        if (pending && memory.epoch === poll.epoch) {
          if (pending.size >= MAX_REMEMBERED_POLLS) pending.clear();
          pending.set(poll.id, { clientId: poll.clientId, expiresAt });
        }
        poll.resolve(true);
      }
    } catch (error) {
      for (const poll of polls) {
        underway.delete(poll.id);
        poll.reject(error);
      }
    }
  };

  const answer: PollThrottle['answer'] = async (id, clientId) => {
    const at = Date.now();
    if (tooEarly(id, at, clientId)) return 'slow_down';
    const known = pending?.get(id);
    if (known && known.clientId === clientId && known.expiresAt > at) {
      remember(id, at, clientId);
      return 'pending';
    }
    // A poll of a request already on its way to the database is judged once that one is back (it is then too
    // early, or left to the provider, as a poll right after another would be).
    const earlier = underway.get(id);
    if (earlier) {
      await earlier.catch(() => undefined);
      return answer(id, clientId);
    }
    const decided = new Promise<boolean>((resolve, reject) => {
      queue.push({ id, clientId, at, epoch: memory.epoch, resolve, reject });
    });
    underway.set(id, decided);
    if (queue.length === 1) setImmediate(() => void sendQueue());
    return (await decided) ? 'pending' : undefined;
  };

  return {
    async poll(id) {
      const at = Date.now();
      if (tooEarly(id, at, null)) throw new errors.SlowDown();
      const [row] = await pass.execute({ id, ...times(at) });
      if (row) {
        const payload = payloadOf(row);
        remember(id, at, typeof payload.clientId === 'string' ? payload.clientId : null);
        return payload;
      }
      if ((await exists.execute({ id })).length > 0) throw new errors.SlowDown();
      return undefined;
    },
    answer,
  };
}

export const payloadOf = (row: { payload: AdapterPayload; consumedAt: Date | null }): AdapterPayload =>
  row.consumedAt
    ? { ...row.payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) }
    : { ...row.payload };
