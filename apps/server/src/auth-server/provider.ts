// The OpenID Provider (oidc-provider): CIBA in poll mode and refresh tokens for the public console client,
// JWT access tokens for the API, identity claims in the id_token. Its state lives in the database through the
// adapter; its keys come from the key store (the provider is rebuilt when they rotate).
import { randomBytes, randomUUID } from 'node:crypto';
import {
  errors,
  Provider,
  type Account,
  type AccessTokenLike,
  type Adapter,
  type BackchannelAuthenticationRequest,
  type ClientLike,
  type KoaContextWithOIDC,
} from './oidc.js';
import type { FastifyBaseLogger } from 'fastify';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import { assuranceLevels } from '@careplane/shared/common/enums';
import { pickLanguage } from '@careplane/shared/i18n/languages';
import {
  DATABASE_AWAY_MESSAGE,
  isDatabaseUnavailable,
  OUTAGE_RETRY_AFTER_SECONDS,
} from '@/lib/database-outage.js';
import { errorBody, serviceTexts } from '@/lib/errors.js';
import {
  accessTokenClaims,
  identityClaims,
  sha256Hex,
  type Identity,
  type IdentityService,
} from './identities.js';
import { BINDING_MESSAGE } from './binding-message.js';
import type { KeyStore } from './keys.js';
import { providerErrorDescription } from './provider-texts.js';
import { NodeSigningKey } from './signing-key.js';
import { TooManyRequests, type Limiter } from './limits.js';
import type { RequestService } from './requests.js';
import { identityKey, requestReads } from './request-reads.js';
import { loggableReason } from '@/lib/logging.js';

export const CIBA_GRANT_TYPE = 'urn:openid:params:grant-type:ciba';
/** Where the raw request carries the client's address, as the HTTP server (and its trusted proxies) saw it. */
export const CLIENT_ADDRESS = Symbol('careplane.clientAddress');
const clientAddressOf = (ctx: KoaContextWithOIDC) =>
  (ctx.req as { [CLIENT_ADDRESS]?: string })[CLIENT_ADDRESS] ?? ctx.req.socket.remoteAddress ?? 'unknown';

/** Identifiers of accounts made up for unknown login hints (never approvable). */
const UNKNOWN_PREFIX = 'unknown:';

export interface ProviderSettings {
  issuer: string;
  publicUrl: string;
  audience: string;
  resource: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  requestTtl: number;
  pollInterval: number;
}

export interface ProviderDependencies {
  settings: ProviderSettings;
  keys: KeyStore;
  adapter: new (model: string) => Adapter;
  identities: IdentityService;
  requests: RequestService;
  identityLimiter: Limiter;
  log: FastifyBaseLogger;
}

const cookieKeys = [randomBytes(32).toString('base64url')];

/** The clients this provider knows. */
const CLIENTS = [
  {
    client_id: CONSOLE_CLIENT_ID,
    client_name: 'Careplane console',
    token_endpoint_auth_method: 'none',
    grant_types: [CIBA_GRANT_TYPE, 'refresh_token'],
    response_types: [],
    redirect_uris: [],
    backchannel_token_delivery_mode: 'poll',
    id_token_signed_response_alg: 'ES256',
  },
] as const;

/**
 * Clients that authenticate with nothing but their client_id and may use CIBA: the token route answers their
 * pending polls itself (poll-answers.ts), where the provider's client check is that the id names one of them.
 */
export const publicCibaClients: ReadonlySet<string> = new Set(
  CLIENTS.filter(
    (client) =>
      client.token_endpoint_auth_method === 'none' &&
      (client.grant_types as readonly string[]).includes(CIBA_GRANT_TYPE),
  ).map((client) => client.client_id),
);

/**
 * Clients that authenticate with nothing but their client_id and may refresh: the token route answers their
 * plain refreshes itself (refresh-answers.ts).
 */
export const publicRefreshClients: ReadonlySet<string> = new Set(
  CLIENTS.filter(
    (client) =>
      client.token_endpoint_auth_method === 'none' &&
      (client.grant_types as readonly string[]).includes('refresh_token'),
  ).map((client) => client.client_id),
);

/** The one origin a browser may call the provider from (its clientBasedCORS): the console's. */
export const allowedOrigin = (settings: Pick<ProviderSettings, 'publicUrl'>) =>
  new URL(settings.publicUrl).origin;

/** 429 in the provider's own error format (described in the request's language on the way out). */
class RateLimited extends errors.OIDCProviderError {
  constructor() {
    super(429, 'too_many_requests');
    this.error_description = serviceTexts.signInsTooMany.en;
  }
}

/**
 * Every refusal of the provider in the request's language, in one place: oidc-provider's error handlers write
 * `{ error, error_description }` as the body (JSON, or through renderError), and this reads it on the way out.
 * The English body stays as oidc-provider wrote it; every refusal says its language in Content-Language.
 */
async function describeInLanguage(ctx: KoaContextWithOIDC, next: () => Promise<void>) {
  await next();
  const body = ctx.body as { error?: unknown; error_description?: unknown } | null | undefined;
  if (ctx.status < 400 || typeof body !== 'object' || body === null || typeof body.error !== 'string') return;
  const language = pickLanguage(ctx.req.headers['accept-language']);
  ctx.set('content-language', language);
  if (language === 'en' || typeof body.error_description !== 'string') return;
  ctx.body = {
    ...body,
    error_description: providerErrorDescription(body.error, body.error_description, language),
  };
}

/**
 * The provider's answer when the database could not be reached: 503 with Retry-After, as the API's, where the
 * provider would answer 500 "oops! something went wrong" (its `server_error` listener marks the request).
 */
async function answerDatabaseAway(ctx: KoaContextWithOIDC, next: () => Promise<void>) {
  await next();
  if (ctx.status !== 500 || ctx.state.databaseAway !== true) return;
  ctx.status = 503;
  ctx.set('retry-after', String(OUTAGE_RETRY_AFTER_SECONDS));
  ctx.body = { error: 'temporarily_unavailable', error_description: DATABASE_AWAY_MESSAGE };
}

/**
 * A path or method the provider has no route for: the API's 404, in the request's language, where koa would
 * answer a plain-text "Not Found". It names the path as the client asked for it (with the `/auth` prefix).
 */
async function answerUnknownRoute(ctx: KoaContextWithOIDC, next: () => Promise<void>) {
  await next();
  if (ctx.status !== 404 || ctx.body !== undefined) return;
  const language = pickLanguage(ctx.req.headers['accept-language']);
  const asked = (ctx.req as { originalUrl?: string }).originalUrl ?? ctx.req.url ?? '/';
  const text = serviceTexts.routeNotFound(ctx.method, asked.split('?')[0] ?? '/');
  ctx.status = 404;
  ctx.set('content-language', language);
  ctx.body = errorBody(404, text[language]);
}

export function buildProvider(deps: ProviderDependencies): Provider {
  const { settings, identities, requests } = deps;
  /**
   * One identity lookup per request context, however often the provider asks; none when the refresh token's
   * statement brought the identity along (request-reads.ts).
   */
  const lookup = async (ctx: KoaContextWithOIDC | undefined, id: string) => {
    const identity = ctx
      ? await requestReads.once(ctx, identityKey(id), () => identities.findById(id))
      : await identities.findById(id);
    return identity && !identity.disabledAt ? identity : undefined;
  };

  const configuration = {
    adapter: deps.adapter,
    clients: [...CLIENTS],
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    // Signed through node:crypto (signing-key.ts); the key set is the key store's.
    jwks: {
      keys: deps.keys.providerJwks().keys.map((jwk) => new NodeSigningKey(jwk as Record<string, string>)),
    },
    cookies: { keys: cookieKeys },
    responseTypes: ['none'],
    scopes: ['openid', 'offline_access', 'profile', 'email', 'phone'],
    acrValues: [...assuranceLevels],
    claims: {
      acr: null,
      auth_time: null,
      iss: null,
      sid: null,
      // The console signs in with scope `openid` and creates its user from the id_token (decisions §3).
      openid: [
        'sub',
        'preferred_username',
        'given_name',
        'family_name',
        'name',
        'email',
        'phone_number',
        'title',
        'roles',
      ],
      profile: ['preferred_username', 'given_name', 'family_name', 'name', 'title'],
      email: ['email'],
      phone: ['phone_number'],
    },
    conformIdTokenClaims: false,
    clientBasedCORS: (_ctx: unknown, origin: string) => origin === allowedOrigin(settings),
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: false },
      revocation: { enabled: true },
      // The signing keys above; the acknowledged version is the one this oidc-provider implements (a newer one
      // stops the server at start instead of changing under it).
      externalSigningSupport: { enabled: true, ack: 'experimental-01' },
      ciba: {
        enabled: true,
        deliveryModes: ['poll'],
        processLoginHint: async (ctx: KoaContextWithOIDC, loginHint: string) => {
          const hint = String(loginHint).trim().toLowerCase().slice(0, 254);
          // Counted per identifier and caller address, alike for known and unknown identifiers (the limit
          // reveals nothing): a stranger spending an identifier's budget spends their own address's share
          // only, and the person signing in from elsewhere is not locked out (decision 022).
          try {
            await deps.identityLimiter.check(`login:${sha256Hex(hint)}:${clientAddressOf(ctx)}`);
          } catch (error) {
            if (!(error instanceof TooManyRequests)) throw error;
            ctx.set('retry-after', String(error.retryAfter));
            throw new RateLimited();
          }
          const identity = await identities.findByUsername(hint);
          if (identity && !identity.disabledAt) return identity.id;
          return `${UNKNOWN_PREFIX}${randomUUID()}`;
        },
        processLoginHintToken: async () => {
          throw new errors.InvalidRequest(serviceTexts.loginHintTokenUnsupported.en);
        },
        validateBindingMessage: async (_ctx: KoaContextWithOIDC, message: unknown) => {
          if (message === undefined) return;
          if (typeof message !== 'string' || !BINDING_MESSAGE.test(message)) {
            throw new errors.InvalidBindingMessage(serviceTexts.bindingMessageInvalid.en);
          }
        },
        validateRequestContext: async () => undefined,
        verifyUserCode: async () => undefined,
        triggerAuthenticationDevice: async (
          ctx: KoaContextWithOIDC,
          request: BackchannelAuthenticationRequest,
          account: Account,
          client: ClientLike,
        ) => {
          // oidc-provider leaves `interval` out of the answer; clients would otherwise wait their default 5 s.
          if (ctx.body && typeof ctx.body === 'object') {
            (ctx.body as Record<string, unknown>).interval = settings.pollInterval;
          }
          const known = !account.accountId.startsWith(UNKNOWN_PREFIX);
          await requests.recordLogin({
            identityId: known ? account.accountId : null,
            clientId: client.clientId,
            bindingMessage:
              typeof request.params?.binding_message === 'string' ? request.params.binding_message : null,
            scope: request.scope ?? 'openid',
            authReqId: request.jti,
            expiresAt: new Date(Date.now() + request.expiration * 1000),
          });
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => settings.resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, indicator: string) => {
          if (indicator !== settings.resource) throw new errors.InvalidTarget();
          return {
            scope: 'api',
            audience: settings.audience,
            accessTokenTTL: settings.accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    findAccount: async (ctx: KoaContextWithOIDC | undefined, sub: string): Promise<Account | undefined> => {
      if (sub.startsWith(UNKNOWN_PREFIX)) {
        return { accountId: sub, claims: () => ({ sub }) };
      }
      const identity = await lookup(ctx, sub);
      if (!identity) return undefined;
      // acr reaches the id_token from the approval (the provider's own claim), not from the account.
      const claims: Record<string, unknown> = { ...identityClaims(identity) };
      delete claims.acr;
      return { accountId: identity.id, claims: () => ({ sub: identity.id, ...claims }) };
    },
    extraTokenClaims: async (ctx: KoaContextWithOIDC | undefined, token: AccessTokenLike) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const identity = await lookup(ctx, token.accountId);
      return identity ? accessTokenClaims(identity, token.grantId) : undefined;
    },
    // Refresh tokens are stored without `openid` (adapter.ts, decision 053): a refresh renews the access token
    // and the refresh token, and issues no new id_token.
    issueRefreshToken: async (_ctx: unknown, client: ClientLike) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: settings.accessTokenTtl,
      IdToken: settings.accessTokenTtl,
      // A rotated refresh token keeps the family's end: the sign-in lasts at most refreshTokenTtl.
      RefreshToken: (ctx: KoaContextWithOIDC | undefined) => {
        const rotated = ctx?.oidc.entities.RotatedRefreshToken as { remainingTTL?: number } | undefined;
        return rotated?.remainingTTL && rotated.remainingTTL > 0
          ? rotated.remainingTTL
          : settings.refreshTokenTtl;
      },
      BackchannelAuthenticationRequest: (ctx: KoaContextWithOIDC | undefined) => {
        const requested = Number(ctx?.oidc.params?.requested_expiry);
        return Number.isSafeInteger(requested) && requested > 0
          ? Math.min(requested, settings.requestTtl)
          : settings.requestTtl;
      },
      Grant: settings.refreshTokenTtl + settings.requestTtl,
      Session: settings.refreshTokenTtl,
      Interaction: 600,
      AuthorizationCode: 60,
      DeviceCode: settings.requestTtl,
      ClientCredentials: settings.accessTokenTtl,
      PreAuthorizedCode: settings.requestTtl,
    },
    renderError: async (ctx: KoaContextWithOIDC, out: Record<string, unknown>) => {
      ctx.set('content-type', 'application/json; charset=utf-8');
      ctx.body = out;
    },
  };

  const provider = new Provider(settings.issuer, configuration);
  // The forwarded headers the provider reads are never the client's: the routes (routes.ts, providerRequest)
  // write them for every request, the issuer's origin and the client's address as the HTTP server above it
  // tells it (trusting only the configured proxies).
  provider.proxy = true;
  provider.use(describeInLanguage);
  provider.use(answerDatabaseAway);
  provider.use(answerUnknownRoute);
  provider.on('server_error', (ctx, error) => {
    if (isDatabaseUnavailable(error)) {
      ctx.state.databaseAway = true;
      deps.log.warn({ reason: loggableReason(error) }, 'auth server: the database is not available');
    } else deps.log.error({ err: error }, 'auth server error');
  });
  return provider;
}

/** Starts a CIBA sign-in for an identity without a client call (a claimed QR session does this). */
export async function startLoginFor(
  provider: Provider,
  deps: Pick<ProviderDependencies, 'settings' | 'requests'>,
  input: { identity: Identity; clientId: string; scope: string; bindingMessage: string | null },
): Promise<{ authReqId: string; requestId: string; expiresAt: Date }> {
  const client = await provider.Client.find(input.clientId);
  if (!client) throw new Error(`Unknown client ${input.clientId}`);
  const request = new provider.BackchannelAuthenticationRequest({
    accountId: input.identity.id,
    client,
    claims: {},
    params: {
      client_id: input.clientId,
      scope: input.scope,
      ...(input.bindingMessage ? { binding_message: input.bindingMessage } : {}),
    },
    resource: deps.settings.resource,
    scope: input.scope,
  });
  const authReqId = await request.save();
  const expiresAt = new Date(Date.now() + request.expiration * 1000);
  const row = await deps.requests.recordLogin({
    identityId: input.identity.id,
    clientId: input.clientId,
    bindingMessage: input.bindingMessage,
    scope: input.scope,
    authReqId,
    expiresAt,
  });
  return { authReqId, requestId: row.id, expiresAt };
}
