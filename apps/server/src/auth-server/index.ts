// The auth server: an OpenID Provider with CIBA (poll) and QR sessions, the authenticator API and resource
// authorization, on its own tables. Mounted at the issuer's path (default /auth) of the default process; the
// same plugin can run in a process of its own.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { JWTVerifyGetKey } from 'jose';
import type { Provider } from './oidc.js';
import type { AppConfig } from '@/config.js';
import type { Database } from '@/db/client.js';
import type { ChangeFeed } from '@/lib/changes.js';
import type { SecretBox } from '@/lib/secret-box.js';
import { createAdapterClass, sweepExpiredPayloads } from './adapter.js';
import { createPollThrottle, type PollThrottle } from './ciba-poll.js';
import { createGrantCheck } from './grants.js';
import { IdentityService } from './identities.js';
import { KeyStore } from './keys.js';
import { Limiter, MemoryLimitStore, RedisLimitStore } from './limits.js';
import {
  allowedOrigin,
  buildProvider,
  publicCibaClients,
  publicRefreshClients,
  startLoginFor,
  type ProviderSettings,
} from './provider.js';
import { QrService } from './qr.js';
import { createRefreshAnswers, type RefreshAnswers } from './refresh-answers.js';
import { RequestService } from './requests.js';
import type { TokenRouteSettings } from './token-request.js';
import { loggableReason } from '@/lib/logging.js';

export interface AuthServerSettings extends ProviderSettings {
  /** The path the issuer lives under (e.g. /auth): every auth server route is below it. */
  prefix: string;
  enrollmentTtl: number;
  qrSecretRotation: number;
  rateLimitPerIdentity: number;
  rateLimitPerClient: number;
  rateLimitPerKey: number;
}

export interface AuthServer {
  settings: AuthServerSettings;
  keys: KeyStore;
  identities: IdentityService;
  requests: RequestService;
  qr: QrService;
  identityLimiter: Limiter;
  /** Authenticator calls per enrolled key (an authenticator polls its pending requests). */
  keyLimiter: Limiter;
  /** The current provider (rebuilt when the signing keys change). */
  provider(): Provider;
  /** The provider's request handler for raw Node requests below the prefix. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Verification keys of the tokens this server signs (for the API in the same process). */
  getKey: JWTVerifyGetKey;
  /** Whether the sign-in an access token was issued under (its `grant_id`) still stands. */
  isGrantActive: (grantId: string) => Promise<boolean>;
  /** Re-reads the signing keys (rotating a stale one) and sweeps expired state. */
  maintain(): Promise<void>;
  /** CIBA polls at the token endpoint (the token route answers a pending one itself, ciba-poll.ts). */
  polls: PollThrottle;
  /** Plain refreshes of the public client, answered by the token route itself (refresh-answers.ts). */
  refreshes: RefreshAnswers;
  /** What the token route answers itself, and for whom. */
  tokenRoute: TokenRouteSettings;
  /** With REDIS_URL: the connection the rate limits of every process share. */
  redis: Redis | null;
  /** Prefix of every key this server writes to Redis. */
  redisKeyPrefix: string;
  close(): Promise<void>;
}

export function authServerSettings(config: AppConfig): AuthServerSettings {
  const server = config.auth.server;
  const prefix = new URL(config.auth.issuer).pathname.replace(/\/$/, '');
  return {
    issuer: config.auth.issuer,
    publicUrl: config.publicUrl,
    audience: config.auth.audience,
    resource: server.resource,
    accessTokenTtl: server.accessTokenTtl,
    refreshTokenTtl: server.refreshTokenTtl,
    requestTtl: server.requestTtl,
    pollInterval: server.pollInterval,
    prefix,
    enrollmentTtl: server.enrollmentTtl,
    qrSecretRotation: server.qrSecretRotation,
    rateLimitPerIdentity: server.rateLimitPerIdentity,
    rateLimitPerClient: server.rateLimitPerClient,
    rateLimitPerKey: server.rateLimitPerKey,
  };
}

const MAINTENANCE_MS = 5 * 60_000;

export async function createAuthServer(
  config: AppConfig,
  deps: {
    db: Database;
    /** The database is this process's own (embedded): no other process reads or writes it. */
    ownDatabase: boolean;
    log: FastifyBaseLogger;
    changes: ChangeFeed;
    secrets: SecretBox;
  },
): Promise<AuthServer> {
  const settings = authServerSettings(config);
  if (!settings.prefix) throw new Error('AUTH_ISSUER needs a path (for example <PUBLIC_URL>/auth)');
  const { db, log } = deps;
  const keys = await KeyStore.open({
    db,
    tokenLifetime: settings.accessTokenTtl,
    maxAgeDays: config.auth.server.signingKeyMaxAgeDays,
    secrets: deps.secrets,
  });
  const identities = new IdentityService(db, settings);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, log) : null;
  const limitStore = redis
    ? new RedisLimitStore(
        redis,
        `${config.redisKeyPrefix}auth:limit:`,
        onceIn(30_000, (error) =>
          log.warn(
            { reason: loggableReason(error) },
            'rate limits counted by this process alone: Redis did not answer',
          ),
        ),
      )
    : new MemoryLimitStore();
  const identityLimiter = new Limiter(limitStore, settings.rateLimitPerIdentity);
  const keyLimiter = new Limiter(limitStore, settings.rateLimitPerKey);
  const polls = createPollThrottle(db, settings.pollInterval, { ownDatabase: deps.ownDatabase });
  const adapter = createAdapterClass({ db, polls, changes: deps.changes });
  const tokenRoute: TokenRouteSettings = {
    publicCibaClients,
    publicRefreshClients,
    allowedOrigin: allowedOrigin(settings),
  };
  const refreshes = createRefreshAnswers({ db, keys, settings, route: tokenRoute });

  let provider: Provider;
  let handler: (req: IncomingMessage, res: ServerResponse) => void;
  const requests = new RequestService(db, identities, settings, () => provider, deps.changes);
  const rebuild = () => {
    provider = buildProvider({ settings, keys, adapter, identities, requests, identityLimiter, log });
    handler = provider.callback();
  };
  rebuild();
  keys.onChange(rebuild);

  const qr = new QrService(db, identities, settings, async (identity, clientId, bindingMessage) =>
    startLoginFor(provider, { settings, requests }, { identity, clientId, scope: 'openid', bindingMessage }),
  );

  const maintain = async () => {
    await keys.ensureActive();
    await sweepExpiredPayloads(db);
    await qr.sweep();
  };
  const timer = setInterval(() => {
    maintain().catch((error: unknown) => log.error({ err: error }, 'auth server maintenance failed'));
  }, MAINTENANCE_MS);
  timer.unref();

  return {
    settings,
    keys,
    identities,
    requests,
    qr,
    identityLimiter,
    keyLimiter,
    provider: () => provider,
    handle: (req, res) => handler(req, res),
    getKey: keys.getKey,
    isGrantActive: createGrantCheck(db, deps.changes),
    polls,
    refreshes,
    tokenRoute,
    maintain,
    redis,
    redisKeyPrefix: config.redisKeyPrefix,
    close: async () => {
      clearInterval(timer);
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Calls `report` at most once per `ms`: an outage is one warning per half minute, not one per request. */
function onceIn<T>(ms: number, report: (value: T) => void) {
  let last = 0;
  return (value: T) => {
    if (Date.now() - last < ms) return;
    last = Date.now();
    report(value);
  };
}

/** How long a start waits for Redis before it goes on without it (limits then count from when it answers). */
const REDIS_START_WAIT_MS = 2_000;

/**
 * A Redis connection that never makes a sign-in wait for it: a command while it is away fails at once (no
 * offline queue, no retries), one it does not answer fails after a second, and the limits then let the request
 * through (decision 042). A start waits a moment for it, so the first sign-ins are counted.
 */
async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 5_000,
    commandTimeout: 1_000,
  });
  redis.on(
    'error',
    onceIn(30_000, (error: Error) => log.warn({ reason: error.message }, 'Redis connection problem')),
  );
  const ready = await Promise.race([
    // An error before it is ready (refused, unknown host) ends the wait at once; it keeps trying behind.
    once(redis, 'ready').then(
      () => true,
      () => false,
    ),
    new Promise<false>((resolve) => setTimeout(resolve, REDIS_START_WAIT_MS, false).unref()),
  ]);
  if (!ready) {
    log.warn(
      { url: redactedUrl(url) },
      'Redis does not answer: sign-in limits are not counted until it does',
    );
  }
  return redis;
}

/** An address without its password, for a log line. */
function redactedUrl(url: string) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unreadable address';
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The auth server mounted in this process, if any. */
    authServer: AuthServer | null;
  }
}
