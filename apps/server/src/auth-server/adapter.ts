// oidc-provider's storage on our database: every artifact (Grant, BackchannelAuthenticationRequest,
// RefreshToken, ...) is one row of auth_oidc_payloads, so any server process on the same database can continue
// a sign-in another one started. Expired rows stay for a while (the provider itself checks expiry, and
// answers `expired_token` rather than "not found"); a sweep removes them later.
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { errors, Provider, type Adapter, type AdapterPayload } from './oidc.js';
import type { Database } from '@/db/client.js';
import { authOidcPayloads } from '@/db/schema/index.js';
import type { ChangeFeed } from '@/lib/changes.js';
import { deleteGrant, grantRevoked } from './grants.js';

/** How long an expired artifact is kept so that polling it answers `expired_token`. */
const RETENTION_MS = 24 * 60 * 60 * 1000;

export interface AdapterOptions {
  db: Database;
  /** The CIBA polling interval in seconds: a faster poll answers slow_down. */
  pollInterval: number;
  /** Told of every revoked grant, so the API refuses its access tokens at once (in every process). */
  changes: ChangeFeed;
}

const CIBA_MODEL = 'BackchannelAuthenticationRequest';
/**
 * A condition that holds and makes the statement's own transaction commit without waiting for its log to
 * reach the disk (synchronous_commit off, for that transaction only): what it writes is visible at once to
 * every process, only a crash in the next fraction of a second could lose it.
 */
const noFlush = sql`set_config('synchronous_commit', 'off', true) is not null`;

/** A little leeway for network jitter between two polls that honour the interval. */
const POLL_LEEWAY_MS = 250;

export function createAdapterClass(options: AdapterOptions): new (model: string) => Adapter {
  const { db, changes } = options;
  const table = authOidcPayloads;
  const revoke = async (grantId: string) => {
    await deleteGrant(db, grantId);
    await changes.announce(db, [{ ...grantRevoked(grantId), actorUserId: null, at: Date.now() }]);
  };

  const throttle = createPollThrottle(db, options.pollInterval);

  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private key(id: string) {
      return and(eq(table.model, this.model), eq(table.id, id));
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      // `consumed` is a column of its own (set atomically by consume()), not part of the stored payload.
      const stored: AdapterPayload = { ...payload };
      delete stored.consumed;
      const values = {
        payload: stored,
        grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
        userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        expiresAt: expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insert(table)
        .values({ model: this.model, id, ...values })
        .onConflictDoUpdate({ target: [table.model, table.id], set: values });
    }

    private async findWhere(condition: ReturnType<typeof and>): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select({ payload: table.payload, consumedAt: table.consumedAt })
        .from(table)
        .where(condition)
        .limit(1);
      return row ? payloadOf(row) : undefined;
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === CIBA_MODEL && Provider.ctx?.oidc.route === 'token') {
        return throttle.poll(id);
      }
      return this.findWhere(this.key(id));
    }

    async findByUserCode(userCode: string) {
      return this.findWhere(and(eq(table.model, this.model), eq(table.userCode, userCode)));
    }

    async findByUid(uid: string) {
      return this.findWhere(and(eq(table.model, this.model), eq(table.uid, uid)));
    }

    /**
     * Marks an artifact used, atomically: of two concurrent redemptions of one auth_req_id or refresh token
     * exactly one wins; the loser's whole grant (the token family) is revoked, as for any reuse.
     * A refresh token's mark is committed without waiting for the disk: refresh tokens rotate, so the new
     * one is saved next, and that commit flushes the log up to and past this mark; a crash before that flush
     * loses the mark only together with a token no client received, so the old one may be redeemed once
     * more, as if this attempt had never come. Other artifacts are flushed as before.
     */
    async consume(id: string): Promise<void> {
      const won = await db
        .update(table)
        .set({ consumedAt: new Date() })
        .where(
          and(this.key(id), isNull(table.consumedAt), this.model === 'RefreshToken' ? noFlush : undefined),
        )
        .returning({ grantId: table.grantId });
      if (won.length > 0) return;
      const [row] = await db.select({ grantId: table.grantId }).from(table).where(this.key(id)).limit(1);
      if (row?.grantId) await revoke(row.grantId);
      throw new errors.InvalidGrant('already used');
    }

    async destroy(id: string): Promise<void> {
      if (this.model === 'Grant') return revoke(id);
      await db.delete(table).where(this.key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(table).where(and(eq(table.model, this.model), eq(table.grantId, grantId)));
      await changes.announce(db, [{ ...grantRevoked(grantId), actorUserId: null, at: Date.now() }]);
    }
  };
}

const payloadOf = (row: { payload: AdapterPayload; consumedAt: Date | null }): AdapterPayload =>
  row.consumedAt
    ? { ...row.payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) }
    : { ...row.payload };

/** Polls this process let through, remembered while they still make a new poll too early. */
const MAX_REMEMBERED_POLLS = 100_000;

/**
 * A CIBA token poll: the request is read only if the previous poll was at least `interval` seconds ago;
 * otherwise slow_down. The database judges it: one conditional UPDATE that also answers the request, so
 * concurrent polls on several processes are judged consistently, and a poll that passes costs one statement.
 * The time it records is not worth a disk flush (a crash loses at most one throttled poll), so that statement
 * commits asynchronously. A poll this process let through less than the interval ago is answered slow_down
 * without asking the database: the database would answer the same, since it recorded that poll.
 */
function createPollThrottle(db: Database, intervalSeconds: number) {
  const table = authOidcPayloads;
  const passedAt = new Map<string, number>();
  const intervalMs = intervalSeconds * 1000 - POLL_LEEWAY_MS;
  return {
    async poll(id: string): Promise<AdapterPayload | undefined> {
      const now = Date.now();
      const last = passedAt.get(id);
      if (last !== undefined && now - last < intervalMs) throw new errors.SlowDown();
      const key = and(eq(table.model, CIBA_MODEL), eq(table.id, id));
      const [passed] = await db
        .update(table)
        .set({ polledAt: new Date(now) })
        .where(and(key, or(isNull(table.polledAt), lt(table.polledAt, new Date(now - intervalMs))), noFlush))
        .returning({ payload: table.payload, consumedAt: table.consumedAt });
      if (passed) {
        if (passedAt.size >= MAX_REMEMBERED_POLLS) passedAt.clear();
        passedAt.set(id, now);
        return payloadOf(passed);
      }
      const [exists] = await db.select({ id: table.id }).from(table).where(key).limit(1);
      if (exists) throw new errors.SlowDown();
      return undefined;
    },
  };
}

/** Removes artifacts that expired more than the retention period ago. */
export async function sweepExpiredPayloads(db: Database) {
  const cutoff = new Date(Date.now() - RETENTION_MS);
  await db.delete(authOidcPayloads).where(lt(authOidcPayloads.expiresAt, cutoff));
}
