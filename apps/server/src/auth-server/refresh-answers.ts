// The token endpoint's own answer to a plain refresh of the public console client (decision 067): the rotation,
// the access token and the answer the provider would give, without the provider's stack. Everything about it is
// one statement: the refresh token is marked used and its successor saved only if the token is the client's,
// unexpired, unused and of the one shape this server issues, its grant stands for the same client and account,
// and its identity is not blocked; the statement answers the identity the access token describes. When it
// rotates nothing (a spent, expired, revoked, foreign or unknown token, a blocked identity, a token of another
// shape) nothing was changed, and the provider answers the request as before: its refusal, its revocation of
// a reused token's family, its rotation of a token of another shape.
//
// What the provider would have done is done alike: the successor copies the token and keeps the family's end
// (provider.ts: ttl.RefreshToken), counts one more rotation and adds `refresh_token` to its grant types; the
// access token is the provider's JWT (at+jwt, ES256, the key the provider signs with, the same claims through
// the same accessTokenClaims); the answer has the provider's fields and headers. refresh-answers.int.test.ts
// compares the two side by side.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '@/db/client.js';
import { authIdentities, authOidcPayloads } from '@/db/schema/index.js';
import { identityIs, storable } from './adapter.js';
import { accessTokenClaims } from './identities.js';
import type { KeyStore } from './keys.js';
import type { ProviderSettings } from './provider.js';
import { NodeSigningKey } from './signing-key.js';
import { jsonAnswer, onlyOnce, type TokenAnswer, type TokenRouteSettings } from './token-request.js';

/**
 * The payload fields of a refresh token of this server's one shape (a CIBA sign-in's, rotated or not). A token
 * with any other field (a scope, a DPoP or certificate binding, authorization details, a session) is the
 * provider's to refresh.
 */
const COPIED_FIELDS = [
  'accountId',
  'acr',
  'amr',
  'authTime',
  'claims',
  'clientId',
  'exp',
  'grantId',
  'gty',
  'iiat',
  'resource',
] as const;
const RENEWED_FIELDS = ['jti', 'iat', 'kind', 'rotations'] as const;
const KNOWN_FIELDS = `{${[...COPIED_FIELDS, ...RENEWED_FIELDS].join(',')}}`;

/** The provider's grant type for this grant, appended to a token's `gty` (oidc-provider's refresh_token.js). */
const REFRESH_GTY = 'refresh_token';

const REFRESH_PARAMS = new Set(['grant_type', 'refresh_token', 'client_id']);

/** oidc-provider's token values: 32 random bytes, base64url (43 characters). */
const newTokenValue = () => randomBytes(32).toString('base64url');
const base64url = (text: string) => Buffer.from(text).toString('base64url');

export interface RefreshAnswers {
  /** The answer to a token request that is exactly a public client's refresh; undefined: the provider's. */
  answer(headers: IncomingHttpHeaders, params: URLSearchParams): Promise<TokenAnswer | undefined>;
}

/** The refresh token and client of a body that is exactly a public client's refresh (and nothing more). */
function refreshOf(params: URLSearchParams, settings: TokenRouteSettings) {
  if (params.get('grant_type') !== REFRESH_GTY || !onlyOnce(params, REFRESH_PARAMS)) return undefined;
  const token = params.get('refresh_token')!;
  const clientId = params.get('client_id')!;
  if (!storable(token) || !settings.publicRefreshClients.has(clientId)) return undefined;
  return { token, clientId };
}

export function createRefreshAnswers(deps: {
  db: Database;
  keys: KeyStore;
  settings: ProviderSettings;
  route: TokenRouteSettings;
}): RefreshAnswers {
  const { settings, route } = deps;
  const rotate = prepareRotation(deps.db, settings.resource);
  // The provider signs with the key store's first key (the active one); rebuilt as the provider is.
  let signer = { version: '', key: undefined as NodeSigningKey | undefined };
  const signingKey = () => {
    if (signer.version !== deps.keys.version) {
      const active = deps.keys.current[0];
      signer = {
        version: deps.keys.version,
        key: active ? new NodeSigningKey(active.privateJwk) : undefined,
      };
    }
    return signer.key;
  };

  const accessToken = async (key: NodeSigningKey, claims: Record<string, unknown>) => {
    const signed = `${base64url(JSON.stringify({ alg: key.alg, typ: 'at+jwt', kid: key.kid }))}.${base64url(JSON.stringify(claims))}`;
    const signature = await key.sign(Buffer.from(signed));
    return `${signed}.${Buffer.from(signature).toString('base64url')}`;
  };

  return {
    async answer(headers, params) {
      const refresh = refreshOf(params, route);
      const key = refresh && signingKey();
      if (!refresh || !key) return undefined;
      const now = Math.floor(Date.now() / 1000);
      const successor = newTokenValue();
      const [rotated] = await rotate.execute({
        id: refresh.token,
        clientId: refresh.clientId,
        now,
        successor,
      });
      if (!rotated) return undefined;
      // The provider's access token: its extraTokenClaims (provider.ts) first, then its own claims.
      const token = await accessToken(key, {
        ...accessTokenClaims(rotated, rotated.grantId),
        jti: newTokenValue(),
        sub: rotated.identityId,
        iat: now,
        exp: now + settings.accessTokenTtl,
        client_id: refresh.clientId,
        iss: settings.issuer,
        aud: settings.audience,
      });
      return jsonAnswer(
        200,
        JSON.stringify({
          access_token: token,
          expires_in: settings.accessTokenTtl,
          refresh_token: successor,
          token_type: 'Bearer',
        }),
        headers,
      );
    },
  };
}

/**
 * The rotation, with every check the provider makes before it, as one named statement: `used` marks the token
 * used where it, its grant and its identity pass; `saved` inserts the successor from what `used` marked (no row
 * marked, nothing saved); the statement answers the grant and the identity. Mark and successor commit together,
 * flushed, as the provider's rotation does (adapter.ts).
 */
function prepareRotation(db: Database, resource: string) {
  const table = authOidcPayloads;
  const grant = alias(authOidcPayloads, 'grant');
  const token = table.payload;
  const now = sql`${sql.placeholder('now')}::bigint`;
  /** A numeric `exp` after now (the provider's isExpired, false for anything that is not a number). */
  const unexpired = (payload: PgColumn) =>
    sql`case when jsonb_typeof(${payload} -> 'exp') = 'number' then (${payload} ->> 'exp')::numeric > ${now} else false end`;
  const grantAccountId = sql`${grant.payload} ->> 'accountId'`;
  const used = db.$with('used').as(
    db
      .update(table)
      .set({ consumedAt: sql`now()` })
      .from(grant)
      // The grant's identity (the token's, below).
      .innerJoin(authIdentities, identityIs(grantAccountId))
      .where(
        and(
          eq(table.model, 'RefreshToken'),
          eq(table.id, sql.placeholder('id')),
          isNull(table.consumedAt),
          sql`${token} ->> 'clientId' = ${sql.placeholder('clientId')}`,
          sql`${token} ->> 'resource' = ${resource}`,
          sql`${token} ->> 'kind' = 'RefreshToken'`,
          sql`${token} ? 'gty'`,
          sql`(${token} - ${KNOWN_FIELDS}::text[]) = '{}'::jsonb`,
          unexpired(token),
          eq(grant.model, 'Grant'),
          eq(grant.id, table.grantId),
          sql`${grant.payload} ->> 'clientId' = ${token} ->> 'clientId'`,
          sql`${grantAccountId} = ${token} ->> 'accountId'`,
          unexpired(grant.payload),
          isNull(authIdentities.disabledAt),
        ),
      )
      .returning({
        payload: table.payload,
        grantId: table.grantId,
        identityId: authIdentities.id,
        username: authIdentities.username,
        firstName: authIdentities.firstName,
        lastName: authIdentities.lastName,
        email: authIdentities.email,
        phoneNumber: authIdentities.phoneNumber,
        title: authIdentities.title,
        roles: authIdentities.roles,
        assuranceLevel: authIdentities.assuranceLevel,
      }),
  );
  // The successor: the token's fields, a new jti and iat, one more rotation, `refresh_token` in its grant types.
  const successorPayload = sql`(${used.payload} - 'jti' - 'iat' - 'rotations' - 'gty') || jsonb_build_object(
      'jti', ${sql.placeholder('successor')}::text,
      'iat', ${now},
      'rotations', case when jsonb_typeof(${used.payload} -> 'rotations') = 'number'
        then (${used.payload} ->> 'rotations')::numeric + 1 else 1 end,
      'gty', case when right(${used.payload} ->> 'gty', ${REFRESH_GTY.length}) = ${REFRESH_GTY}
        then ${used.payload} -> 'gty' else to_jsonb((${used.payload} ->> 'gty') || ${` ${REFRESH_GTY}`}) end)`;
  const saved = db.$with('saved').as(
    db
      .insert(table)
      .select((qb) =>
        qb
          .select({
            model: sql<string>`'RefreshToken'`.as('model'),
            id: sql<string>`${sql.placeholder('successor')}::text`.as('id'),
            payload: sql<Record<string, unknown>>`${successorPayload}`.as('payload'),
            grantId: sql<string | null>`${used.grantId}`.as('grant_id'),
            userCode: sql<string | null>`null::text`.as('user_code'),
            uid: sql<string | null>`null::text`.as('uid'),
            // The family's end, as the provider keeps it (its remaining lifetime from now).
            expiresAt: sql<Date | null>`to_timestamp((${used.payload} ->> 'exp')::numeric)`.as('expires_at'),
            consumedAt: sql<Date | null>`null::timestamptz`.as('consumed_at'),
            polledAt: sql<Date | null>`null::timestamptz`.as('polled_at'),
            createdAt: sql<Date>`now()`.as('created_at'),
          })
          .from(used),
      )
      .returning({ id: table.id }),
  );
  return db
    .with(used, saved)
    .select({
      grantId: used.grantId,
      identityId: used.identityId,
      username: used.username,
      firstName: used.firstName,
      lastName: used.lastName,
      email: used.email,
      phoneNumber: used.phoneNumber,
      title: used.title,
      roles: used.roles,
      assuranceLevel: used.assuranceLevel,
    })
    .from(used)
    .prepare('refresh_token_answer');
}
