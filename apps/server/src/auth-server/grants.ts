// Sign-ins (oidc-provider grants) seen from outside the provider: whether the grant an access token was issued
// under still stands, and ending every sign-in of an identity. A grant ends when its refresh family is revoked
// (reuse, revocation, logout) or its identity is blocked or deleted; every access token of it stops working at
// once, because the API checks the grant (decision 022) instead of waiting for the token to expire.
import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '@/db/client.js';
import { authOidcPayloads } from '@/db/schema/index.js';
import type { Change, ChangeFeed } from '@/lib/changes.js';

/** The change-feed name of sign-ins: `revoke` changes carry the grant id. */
export const GRANT_RESOURCE = 'auth-grants';

export const grantRevoked = (grantId: string): Omit<Change, 'at' | 'actorUserId'> => ({
  resource: GRANT_RESOURCE,
  action: 'revoke',
  recordId: grantId,
});

const GRANT_MODEL = 'Grant';
const CIBA_MODEL = 'BackchannelAuthenticationRequest';

/** Deletes every artifact of a grant (and the grant itself): the refresh-token family ends. */
export async function deleteGrant(executor: Executor, grantId: string) {
  await executor
    .delete(authOidcPayloads)
    .where(
      or(
        eq(authOidcPayloads.grantId, grantId),
        and(eq(authOidcPayloads.model, GRANT_MODEL), eq(authOidcPayloads.id, grantId)),
      ),
    );
}

/**
 * Ends every sign-in of an identity and its sign-ins in progress (CIBA requests not yet redeemed); answers
 * the ids of the grants it ended.
 */
export async function deleteIdentityGrants(executor: Executor, identityId: string): Promise<string[]> {
  const accountIs = sql`${authOidcPayloads.payload} ->> 'accountId' = ${identityId}`;
  const grants = await executor
    .select({ id: authOidcPayloads.id })
    .from(authOidcPayloads)
    .where(and(eq(authOidcPayloads.model, GRANT_MODEL), accountIs));
  const ids = grants.map((grant) => grant.id);
  if (ids.length) {
    await executor
      .delete(authOidcPayloads)
      .where(
        or(
          inArray(authOidcPayloads.grantId, ids),
          and(eq(authOidcPayloads.model, GRANT_MODEL), inArray(authOidcPayloads.id, ids)),
        ),
      );
  }
  await executor.delete(authOidcPayloads).where(and(eq(authOidcPayloads.model, CIBA_MODEL), accountIs));
  return ids;
}

async function grantStands(executor: Executor, grantId: string) {
  const [row] = await executor
    .select({ id: authOidcPayloads.id })
    .from(authOidcPayloads)
    .where(
      and(
        eq(authOidcPayloads.model, GRANT_MODEL),
        eq(authOidcPayloads.id, grantId),
        or(isNull(authOidcPayloads.expiresAt), gt(authOidcPayloads.expiresAt, new Date())),
      ),
    )
    .limit(1);
  return Boolean(row);
}

// A standing grant is remembered for a while; a revoked one until its tokens could not work anyway. Every
// revocation (in this process or, through the change feed, in another) is applied to the cache at once.
const STANDING_MS = 60_000;
const ENDED_MS = 60 * 60_000;
const CACHE_MAX = 50_000;

/** Whether a grant still stands, with a cache that every revocation reaches at once. */
export function createGrantCheck(db: Database, changes: ChangeFeed) {
  const cache = new Map<string, { stands: boolean; until: number }>();
  changes.subscribe((told) => {
    for (const change of told) {
      if (change.resource === '*') cache.clear();
      if (change.resource === GRANT_RESOURCE && change.action === 'revoke' && change.recordId) {
        cache.set(change.recordId, { stands: false, until: Date.now() + ENDED_MS });
      }
    }
  });
  return async (grantId: string): Promise<boolean> => {
    const now = Date.now();
    const cached = cache.get(grantId);
    if (cached && cached.until > now) return cached.stands;
    const stands = await grantStands(db, grantId);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(grantId, { stands, until: now + (stands ? STANDING_MS : ENDED_MS) });
    return stands;
  };
}
