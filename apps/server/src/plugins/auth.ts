// Bearer JWT verification for /api, and the caller's identity and admin rights for every route.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { forbidden, unauthorized } from '../lib/errors.js';

export interface Caller {
  subject: string;
  roles: string[];
  claims: JWTPayload;
  /** The application user found by `masterId` = subject; null before the first sign-in. */
  userId: string | null;
  localRoles: string[];
  isAdmin: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** Routes that answer without a token (health, OpenAPI). */
    public?: boolean;
  }
}

/** Admin area rule of decisions §4: first global role admin or master, or first local role application_admin. */
export const isAdmin = (roles: readonly string[], localRoles: readonly string[]) =>
  roles[0] === 'admin' || roles[0] === 'master' || localRoles[0] === 'application_admin';

export interface AuthOptions {
  db: Database;
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** Tests and the in-process auth server hand over their key set directly. */
  keys?: JWTVerifyGetKey;
}

interface CachedUser {
  id: string;
  localRoles: string[];
  expires: number;
}

// A short cache keeps the user lookup off the hot path; a role change is seen within this time.
const USER_CACHE_MS = 5_000;
const USER_CACHE_MAX = 10_000;
const TOKEN_CACHE_MS = 60_000;
const TOKEN_CACHE_MAX = 10_000;

export const authPlugin = fp(async (app: FastifyInstance, options: AuthOptions) => {
  const keys = options.keys ?? createRemoteJWKSet(new URL(options.jwksUrl));
  const userCache = new Map<string, CachedUser>();

  const findUser = async (subject: string) => {
    const now = Date.now();
    const cached = userCache.get(subject);
    if (cached && cached.expires > now) return cached;
    const [row] = await options.db
      .select({ id: users.id, localRoles: users.localRoles })
      .from(users)
      .where(eq(users.masterId, subject))
      .limit(1);
    if (!row) return null;
    if (userCache.size >= USER_CACHE_MAX) userCache.clear();
    const entry = { ...row, expires: now + USER_CACHE_MS };
    userCache.set(subject, entry);
    return entry;
  };

  // A console sends the same token with every call: a verified token is remembered (by its exact text) until
  // it expires, at most a minute, so the signature is checked once instead of on every request.
  const verified = new Map<string, { payload: JWTPayload; until: number }>();
  const verifyAccessToken = async (token: string): Promise<JWTPayload> => {
    const now = Date.now();
    const cached = verified.get(token);
    if (cached && cached.until > now) return cached.payload;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ['ES256'],
        typ: 'at+jwt',
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch {
      throw unauthorized('Invalid or expired token');
    }
    if (verified.size >= TOKEN_CACHE_MAX) verified.clear();
    verified.set(token, { payload, until: Math.min((payload.exp as number) * 1000, now + TOKEN_CACHE_MS) });
    return payload;
  };

  app.decorateRequest('caller', null);
  app.decorate('forgetCachedUser', (subject: string) => userCache.delete(subject));

  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.routeOptions.config.public) return;
    if (!request.url.startsWith('/api/')) return;
    const header = request.headers.authorization;
    const match = header ? /^Bearer ([A-Za-z0-9\-_.]+)$/i.exec(header) : null;
    if (!match?.[1]) throw unauthorized();
    const payload = await verifyAccessToken(match[1]);
    const subject = payload.sub as string;
    const roles = Array.isArray(payload.roles)
      ? payload.roles.filter((role): role is string => typeof role === 'string')
      : [];
    const user = await findUser(subject);
    const localRoles = user?.localRoles ?? [];
    request.caller = {
      subject,
      roles,
      claims: payload,
      userId: user?.id ?? null,
      localRoles,
      isAdmin: isAdmin(roles, localRoles),
    };
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    forgetCachedUser: (subject: string) => void;
  }
}

export function requireCaller(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized();
  return request.caller;
}

/** preHandler for admin calls: non-admins get 403. */
export async function requireAdmin(request: FastifyRequest) {
  if (!requireCaller(request).isAdmin) throw forbidden('Admin rights required');
}
