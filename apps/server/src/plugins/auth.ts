// Bearer JWT verification for /api, and the caller's identity and rights for every route. The token proves who
// calls; the user record decides what they may do (decisions 018): a blocked record is refused, roles come
// from the record, and a token whose sign-in (its grant) was revoked stops working at once.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { callerIsAdmin, type DeviceCaller } from '@/lib/caller.js';
import type { ChangeFeed } from '@/lib/changes.js';
import { serviceTexts, unauthorized } from '@/lib/errors.js';
import { confirmSignIn, type CallerRecord, type FindCallerRecord } from '@/lib/sign-in.js';

export type { CallerRecord, FindCallerRecord } from '@/lib/sign-in.js';

/** The device a device token belongs to (by the token's hash); undefined when none or disabled. */
export type FindDeviceByToken = (token: string) => Promise<DeviceCaller | undefined>;

/** Device tokens (decisions §7): `cpd_` and 43 base64url characters. */
const DEVICE_TOKEN = /^cpd_[A-Za-z0-9_-]{43}$/;

export interface AuthOptions {
  findUser: FindCallerRecord;
  findDevice: FindDeviceByToken;
  /**
   * Whether the sign-in a token belongs to (its `grant_id`) still stands; absent when tokens come from an
   * issuer whose grants this server cannot see.
   */
  isGrantActive?: (grantId: string) => Promise<boolean>;
  /** Changes of user records (and resyncs) make the cache forget what it holds. */
  changes: ChangeFeed;
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** Tests and the in-process auth server hand over their key set directly. */
  keys?: JWTVerifyGetKey;
}

interface CachedUser {
  record: CallerRecord;
  expires: number;
}

// The user lookup is cached off the hot path; every change of a user record (in this process or, through
// the change feed, in another) removes its entry at once, and the lifetime bounds what a lost message costs.
const USER_CACHE_MS = 30_000;
const USER_CACHE_MAX = 10_000;
const TOKEN_CACHE_MS = 60_000;
const TOKEN_CACHE_MAX = 10_000;

export const authPlugin = fp(async (app: FastifyInstance, options: AuthOptions) => {
  const keys = options.keys ?? createRemoteJWKSet(new URL(options.jwksUrl));
  const userCache = new Map<string, CachedUser>();
  const subjectsByUserId = new Map<string, string>();

  const forgetSubject = (subject: string) => {
    const cached = userCache.get(subject);
    if (cached) subjectsByUserId.delete(cached.record.id);
    userCache.delete(subject);
  };
  const forgetAll = () => {
    userCache.clear();
    subjectsByUserId.clear();
  };

  const unsubscribe = options.changes.subscribe((changes) => {
    for (const change of changes) {
      if (change.resource === '*') forgetAll();
      if (change.resource !== 'users') continue;
      const subject = change.recordId ? subjectsByUserId.get(change.recordId) : undefined;
      if (subject) forgetSubject(subject);
      else if (!change.recordId) forgetAll();
    }
  });
  app.addHook('onClose', async () => unsubscribe());

  const findUser = async (subject: string) => {
    const now = Date.now();
    const cached = userCache.get(subject);
    if (cached && cached.expires > now) return cached.record;
    const record = await options.findUser(subject);
    // Only records are remembered: a first sign-in in another process must be seen here at once.
    if (!record) return undefined;
    if (userCache.size >= USER_CACHE_MAX) forgetAll();
    userCache.set(subject, { record, expires: now + USER_CACHE_MS });
    subjectsByUserId.set(record.id, subject);
    return record;
  };
  const signIns = { isGrantActive: options.isGrantActive, findUser };

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
      throw unauthorized(serviceTexts.invalidOrExpiredToken);
    }
    if (verified.size >= TOKEN_CACHE_MAX) verified.clear();
    verified.set(token, { payload, until: Math.min((payload.exp as number) * 1000, now + TOKEN_CACHE_MS) });
    return payload;
  };

  app.decorateRequest('caller', null);
  app.decorateRequest('device', null);
  app.decorate('forgetCachedUser', forgetSubject);

  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.routeOptions.config.public) return;
    if (!request.url.startsWith('/api/')) return;
    const header = request.headers.authorization;
    const match = header ? /^Bearer ([A-Za-z0-9\-_.]+)$/i.exec(header) : null;
    if (!match?.[1]) throw unauthorized();
    if (DEVICE_TOKEN.test(match[1])) {
      // Looked up on every request (an indexed hash): a re-keyed, disabled or deleted device stops at once.
      const device = await options.findDevice(match[1]);
      if (!device) throw unauthorized(serviceTexts.invalidDeviceToken);
      request.device = device;
      return;
    }
    const payload = await verifyAccessToken(match[1]);
    if (typeof payload.sub !== 'string' || !payload.sub)
      throw unauthorized(serviceTexts.invalidOrExpiredToken);
    const subject = payload.sub;
    // A revoked sign-in (its refresh family ended, the account was blocked or deleted) ends its tokens too.
    const user = await confirmSignIn(signIns, subject, payload.grant_id);
    // Rights come from the record; before the first sign-in there is none, and no rights beyond signing in.
    const roles = user?.roles ?? [];
    const localRoles = user?.localRoles ?? [];
    request.caller = {
      subject,
      roles,
      claims: payload,
      userId: user?.id ?? null,
      localRoles,
      isAdmin: callerIsAdmin(roles, localRoles),
    };
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    forgetCachedUser: (subject: string) => void;
  }
}
