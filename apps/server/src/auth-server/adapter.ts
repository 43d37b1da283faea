// oidc-provider's storage on our database: every artifact (Grant, BackchannelAuthenticationRequest,
// RefreshToken, ...) is one row of auth_oidc_payloads, so any server process on the same database can continue
// a sign-in another one started. Expired rows stay for a while (the provider itself checks expiry, and
// answers `expired_token` rather than "not found"); a sweep removes them later.
import { and, eq, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { errors, Provider, type Adapter, type AdapterPayload } from './oidc.js';
import type { Database } from '@/db/client.js';
import { authIdentities, authOidcPayloads } from '@/db/schema/index.js';
import type { ChangeFeed } from '@/lib/changes.js';
import { deleteGrant, grantRevoked } from './grants.js';
import { artifactKey, identityKey, requestReads } from './request-reads.js';
import { CIBA_MODEL, forgetPolls, payloadOf, type PollThrottle } from './ciba-poll.js';

/**
 * Whether a value can name a stored artifact: the database's text holds no NUL (it refuses such a parameter
 * outright), so a value with one names nothing, and is answered as not found rather than as a failure.
 */
export const storable = (value: string) => !value.includes('\u0000');

/** How long an expired artifact is kept so that polling it answers `expired_token`. */
const RETENTION_MS = 24 * 60 * 60 * 1000;

export interface AdapterOptions {
  db: Database;
  /** CIBA polls at the token endpoint: a poll faster than the interval answers slow_down. */
  polls: PollThrottle;
  /** Told of every revoked grant, so the API refuses its access tokens at once (in every process). */
  changes: ChangeFeed;
}

export function createAdapterClass(options: AdapterOptions): new (model: string) => Adapter {
  const { db, changes } = options;
  const table = authOidcPayloads;
  const revoke = async (grantId: string) => {
    await deleteGrant(db, grantId);
    await changes.announce(db, [{ ...grantRevoked(grantId), actorUserId: null, at: Date.now() }]);
  };

  const readRefreshToken = prepareRefreshTokenRead(db);
  const saveRotated = prepareRotation(db);

  /**
   * A refresh token's rotation in one statement: the old token is marked used and the new one saved only if
   * that mark was this request's (of two concurrent redemptions exactly one wins). The loser saves nothing,
   * revokes the whole grant (the token family, the winner's new token included) and is refused, as for any
   * reuse. Mark and new token commit together, flushed: a crash loses both or neither.
   */
  const rotate = async (usedId: string, id: string, values: StoredValues) => {
    const saved = await saveRotated.execute({
      usedId,
      usedAt: new Date().toISOString(),
      id,
      payload: JSON.stringify(values.payload),
      grantId: values.grantId,
      userCode: values.userCode,
      uid: values.uid,
      expiresAt: values.expiresAt?.toISOString() ?? null,
    });
    if (saved.length > 0) return;
    const [row] = await db
      .select({ grantId: table.grantId })
      .from(table)
      .where(and(eq(table.model, 'RefreshToken'), eq(table.id, usedId)))
      .limit(1);
    if (row?.grantId) await revoke(row.grantId);
    throw new errors.InvalidGrant('already used');
  };

  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private key(id: string) {
      return and(eq(table.model, this.model), eq(table.id, id));
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      this.changed(id);
      // `consumed` is a column of its own (set atomically by consume()), not part of the stored payload.
      const stored: AdapterPayload = { ...payload };
      delete stored.consumed;
      if (this.model === 'RefreshToken') refreshScope(stored);
      const values: StoredValues = {
        payload: stored,
        grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
        userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        expiresAt: expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      const ctx = Provider.ctx;
      const rotated: unknown =
        this.model === 'RefreshToken' && ctx ? requestReads.get(ctx, ROTATED, undefined) : undefined;
      if (ctx && typeof rotated === 'string') {
        requestReads.forget(ctx, ROTATED);
        return rotate(rotated, id, values);
      }
      await db
        .insert(table)
        .values({ model: this.model, id, ...values })
        .onConflictDoUpdate({ target: [table.model, table.id], set: values });
      this.written(id);
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
      if (!storable(id)) return undefined;
      const ctx = Provider.ctx;
      if (ctx?.oidc.route === 'token') {
        if (this.model === CIBA_MODEL) return options.polls.poll(id);
        if (this.model === 'RefreshToken') return readRefreshToken(ctx, id);
      }
      if (ctx) {
        const read = requestReads.get<AdapterPayload | undefined | typeof MISS>(
          ctx,
          artifactKey(this.model, id),
          MISS,
        );
        if (read !== MISS) return read;
      }
      return this.findWhere(this.key(id));
    }

    /** What this request read of the artifact no longer holds once the request changes it. */
    private changed(id: string) {
      const ctx = Provider.ctx;
      if (ctx) requestReads.forget(ctx, artifactKey(this.model, id));
    }

    /** A CIBA request written (approved, denied, used, removed): the polls' memory of it no longer holds. */
    private written(id: string) {
      if (this.model === CIBA_MODEL) forgetPolls(db, id);
    }

    async findByUserCode(userCode: string) {
      if (!storable(userCode)) return undefined;
      return this.findWhere(and(eq(table.model, this.model), eq(table.userCode, userCode)));
    }

    async findByUid(uid: string) {
      if (!storable(uid)) return undefined;
      return this.findWhere(and(eq(table.model, this.model), eq(table.uid, uid)));
    }

    /**
     * Marks an artifact used, atomically: of two concurrent redemptions of one auth_req_id or refresh token
     * exactly one wins; the loser's whole grant (the token family) is revoked, as for any reuse. A refresh
     * token rotated at the token endpoint is marked in the statement that saves its successor (rotate()).
     */
    async consume(id: string): Promise<void> {
      this.changed(id);
      const ctx = Provider.ctx;
      if (this.model === 'RefreshToken' && ctx?.oidc.route === 'token') {
        // A rotation: the provider saves the new refresh token next, and the mark goes with it (rotate()).
        requestReads.set(ctx, ROTATED, id);
        return;
      }
      const won = await db
        .update(table)
        .set({ consumedAt: new Date() })
        .where(and(this.key(id), isNull(table.consumedAt)))
        .returning({ grantId: table.grantId });
      this.written(id);
      if (won.length > 0) return;
      const [row] = await db.select({ grantId: table.grantId }).from(table).where(this.key(id)).limit(1);
      if (row?.grantId) await revoke(row.grantId);
      throw new errors.InvalidGrant('already used');
    }

    async destroy(id: string): Promise<void> {
      this.changed(id);
      if (this.model === 'Grant') return revoke(id);
      await db.delete(table).where(this.key(id));
      this.written(id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(table).where(and(eq(table.model, this.model), eq(table.grantId, grantId)));
      await changes.announce(db, [{ ...grantRevoked(grantId), actorUserId: null, at: Date.now() }]);
    }
  };
}

const MISS = Symbol('not read');
/** Where a request keeps the refresh token its rotation used, until the new one is saved (rotate()). */
const ROTATED = 'rotated refresh token';

interface StoredValues {
  payload: AdapterPayload;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  expiresAt: Date | null;
}
const grants = alias(authOidcPayloads, 'grant');

/**
 * A refresh token at the token endpoint, with its grant and its identity in the same statement: the provider
 * asks for both next (the grant, then the account and the token's claims), and gets them from the request's
 * reads instead of two more round trips. Same rows, read a few milliseconds earlier than before, in the same
 * request: a revoked grant (its refresh tokens deleted with it) or a blocked identity is still seen at once.
 */
function prepareRefreshTokenRead(db: Database) {
  const table = authOidcPayloads;
  const accountId = sql<string>`${table.payload} ->> 'accountId'`;
  const read = db
    .select({
      payload: table.payload,
      consumedAt: table.consumedAt,
      grantId: table.grantId,
      accountId,
      grant: { payload: grants.payload, consumedAt: grants.consumedAt },
      identity: authIdentities,
    })
    .from(table)
    .leftJoin(grants, and(eq(grants.model, 'Grant'), eq(grants.id, table.grantId)))
    .leftJoin(authIdentities, identityIs(accountId))
    .where(and(eq(table.model, 'RefreshToken'), eq(table.id, sql.placeholder('id'))))
    .limit(1)
    .prepare('refresh_token_read');
  return async (ctx: object, id: string): Promise<AdapterPayload | undefined> => {
    const [row] = await read.execute({ id });
    if (!row) return undefined;
    if (row.grantId) {
      const grant = row.grant?.payload
        ? payloadOf({ payload: row.grant.payload, consumedAt: row.grant.consumedAt })
        : undefined;
      requestReads.set(ctx, artifactKey('Grant', row.grantId), grant);
    }
    if (row.accountId) requestReads.set(ctx, identityKey(row.accountId), row.identity ?? undefined);
    // A token saved before refresh tokens were stored without `openid` is read as if it had been.
    return refreshScope(payloadOf(row));
  };
}

/**
 * A refresh token obtains access tokens, not a new id_token (decision 053): it is kept without the `openid`
 * scope, so oidc-provider's refresh grant, which issues an id_token exactly when the refresh token's scopes
 * hold `openid`, answers access_token, expires_in and refresh_token, and signs once instead of twice. The
 * sign-in's own answer (the CIBA grant) still carries the id_token: its scope is the request's, not the
 * refresh token's. The access token is unchanged: its scope is the resource's, which never held `openid`.
 */
function refreshScope(payload: AdapterPayload): AdapterPayload {
  const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  const kept = scopes.filter((scope) => scope !== '' && scope !== 'openid');
  if (kept.length > 0) payload.scope = kept.join(' ');
  else delete payload.scope;
  return payload;
}

/**
 * The rotation's statement (rotate()), built once as a named statement: on PostgreSQL each connection parses
 * and plans it once instead of at every refresh. The inserted row lists every column in the table's order
 * (drizzle checks this when the statement is built, so a column added to the table stops the server at
 * start rather than at the first refresh).
 */
function prepareRotation(db: Database) {
  const table = authOidcPayloads;
  const used = db.$with('used').as(
    db
      .update(table)
      .set({ consumedAt: sql`${sql.placeholder('usedAt')}::timestamptz` })
      .where(
        and(
          eq(table.model, 'RefreshToken'),
          eq(table.id, sql.placeholder('usedId')),
          isNull(table.consumedAt),
        ),
      )
      .returning({ grantId: table.grantId }),
  );
  const value = <T>(name: string, type: string) => sql<T>`${sql.placeholder(name)}::${sql.raw(type)}`;
  return db
    .with(used)
    .insert(table)
    .select((qb) =>
      qb
        .select({
          model: sql<string>`'RefreshToken'`.as('model'),
          id: value<string>('id', 'text').as('id'),
          payload: value<Record<string, unknown>>('payload', 'jsonb').as('payload'),
          grantId: value<string | null>('grantId', 'text').as('grant_id'),
          userCode: value<string | null>('userCode', 'text').as('user_code'),
          uid: value<string | null>('uid', 'text').as('uid'),
          expiresAt: value<Date | null>('expiresAt', 'timestamptz').as('expires_at'),
          consumedAt: sql<Date | null>`null::timestamptz`.as('consumed_at'),
          polledAt: sql<Date | null>`null::timestamptz`.as('polled_at'),
          createdAt: sql<Date>`now()`.as('created_at'),
        })
        .from(used),
    )
    .returning({ id: table.id })
    .prepare('refresh_token_rotate');
}

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/**
 * The join condition of the identity an account id (text from a payload) names. Only a well-formed id is cast
 * (CASE keeps the cast from running on anything else).
 */
export const identityIs = (accountId: SQL) =>
  sql`${authIdentities.id} = case when ${accountId} ~* ${UUID_PATTERN} then (${accountId})::uuid end`;

/** Removes artifacts that expired more than the retention period ago. */
export async function sweepExpiredPayloads(db: Database) {
  const cutoff = new Date(Date.now() - RETENTION_MS);
  await db.delete(authOidcPayloads).where(lt(authOidcPayloads.expiresAt, cutoff));
}
