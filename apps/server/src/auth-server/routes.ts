// The auth server's HTTP surface below its prefix (default /auth): QR sessions, the authenticator API,
// resource authorization, and everything else handed to the OpenID Provider (discovery, JWKS, backchannel
// authentication, token, revocation). Every route is rate limited per caller address; sign-ins and
// authenticator calls also per identity.
import type { IncomingHttpHeaders } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jwtVerify } from 'jose';
import { z } from 'zod';
import { serviceTexts, unauthorized } from '@/lib/errors.js';
import { confirmSignIn } from '@/lib/sign-in.js';
import { publicJwkSchema } from './identities.js';
import type { AuthServer } from './index.js';
import { TooManyRequests } from './limits.js';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import { BINDING_MESSAGE } from './binding-message.js';
import { CLIENT_ADDRESS } from './provider.js';
import { answerPoll, failedAnswer } from './poll-answers.js';
import { mayAnswer, readBody, readsBody, refreshWithoutOpenid, replay } from './token-request.js';
import { qrSessionSchema, qrSessionStatusSchema } from '@careplane/shared/auth/qr-session.contract';
import { errorBodySchema } from '@careplane/shared/common/http';
import { resourceAuthorizationInputSchema } from './requests.js';

const signature = z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'a base64url P-256 signature');
const keyId = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a key thumbprint');
const iat = z.number().int().min(0).max(1e11);

const errorBody = errorBodySchema;

const pendingRequestSchema = z.object({
  id: z.string(),
  kind: z.enum(['login', 'resource']),
  clientId: z.string(),
  clientName: z.string(),
  bindingMessage: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  nonce: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});

const PROVIDER_METHODS = ['GET', 'POST', 'OPTIONS', 'DELETE', 'PUT', 'PATCH'] as const;

/** Kinds of auth server route, each with its own per-address budget. */
type RouteBucket = 'discovery' | 'token' | 'poll' | 'start' | 'authenticator' | 'other';

/** Each kind's budget as a share of AUTH_RATE_LIMIT_PER_CLIENT (requests per address and minute). */
const bucketShare: Record<RouteBucket, number> = {
  // Metadata every client reads: generous, so it stays available behind a busy shared address.
  discovery: 4,
  // Token polls every few seconds while a sign-in is pending, and refreshes.
  token: 2,
  // Status polls of QR sessions and resource authorizations.
  poll: 2,
  // Starting sign-ins (backchannel requests, QR sessions): also limited per identifier.
  start: 1,
  authenticator: 1,
  other: 1,
};

/** The kind of a path below the issuer. */
export function routeBucket(path: string): RouteBucket {
  const pathname = path.split('?')[0] ?? '';
  if (pathname.startsWith('/.well-known/') || pathname === '/jwks') return 'discovery';
  if (pathname === '/token' || pathname.startsWith('/token/')) return 'token';
  if (pathname === '/backchannel' || pathname === '/qr/sessions') return 'start';
  if (pathname.startsWith('/qr/sessions/') || pathname.startsWith('/resource-authorization/')) return 'poll';
  if (pathname.startsWith('/authenticator/')) return 'authenticator';
  return 'other';
}

/** Turns a per-identity limit into a 429 with Retry-After. */
async function limited<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TooManyRequests) void reply.header('retry-after', String(error.retryAfter));
    throw error;
  }
}

export async function authServerRoutes(app: FastifyInstance, { server }: { server: AuthServer }) {
  const { settings, identities, requests, qr, identityLimiter, keyLimiter } = server;
  const prefix = settings.prefix;
  app.addHook('onClose', async () => server.close());

  // Budgets per caller address, one per kind of route (the provider's included), sized to what an honest
  // client needs: a noisy caller spends its own share only, and discovery and keys stay available to
  // everyone else. With Redis, every process counts into one budget per address and kind.
  const bucketOf = (request: FastifyRequest) => routeBucket(request.url.slice(prefix.length));
  await app.register(rateLimit, {
    global: true,
    keyGenerator: (request) => `${request.ip}|${bucketOf(request)}`,
    max: (request) => Math.max(1, Math.round(settings.rateLimitPerClient * bucketShare[bucketOf(request)])),
    timeWindow: 60_000,
    ...(server.redis
      ? { redis: server.redis, nameSpace: `${server.redisKeyPrefix}auth:rate:`, skipOnError: true }
      : {}),
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();

  /** The signed-in identity of a bearer access token issued by this server. */
  const bearer = async (request: FastifyRequest) => {
    const match = /^Bearer ([A-Za-z0-9\-_.]+)$/.exec(request.headers.authorization ?? '');
    if (!match?.[1]) throw unauthorized();
    const payload = await jwtVerify(match[1], server.getKey, {
      issuer: settings.issuer,
      audience: settings.audience,
      algorithms: ['ES256'],
      typ: 'at+jwt',
      requiredClaims: ['sub', 'exp', 'iat'],
    }).then(
      (verified) => verified.payload,
      () => {
        throw unauthorized(serviceTexts.invalidOrExpiredToken);
      },
    );
    // A token of an ended sign-in (logout, a reused refresh token, a blocked account) asks nothing of a phone.
    await confirmSignIn({ isGrantActive: server.isGrantActive }, payload.sub!, payload.grant_id);
    return {
      subject: payload.sub!,
      clientId: typeof payload.client_id === 'string' ? payload.client_id : '',
    };
  };
  /**
   * The bearer's identity, checked on request, before the body or the parameters are validated: a caller with
   * no valid token is told 401 and learns nothing of what the route accepts.
   */
  const callers = new WeakMap<FastifyRequest, Awaited<ReturnType<typeof bearer>>>();
  const signedInBearer = async (request: FastifyRequest) => {
    callers.set(request, await bearer(request));
  };
  const callerOf = (request: FastifyRequest) => callers.get(request)!;

  // --- QR sessions -------------------------------------------------------------------------------------
  typed.post(`${prefix}/qr/sessions`, {
    schema: {
      tags: ['auth'],
      summary: 'Start a QR sign-in session (the console shows cbUrl as a QR code)',
      security: [],
      // No body at all is fine: the console is the only client.
      body: z.preprocess(
        (value) => value ?? {},
        z
          .object({
            client_id: z.literal(CONSOLE_CLIENT_ID).default(CONSOLE_CLIENT_ID),
            binding_message: z.string().regex(BINDING_MESSAGE).optional(),
          })
          .strict(),
      ),
      response: {
        200: qrSessionSchema,
        400: errorBody,
        429: errorBody,
      },
    },
    handler: async (request) => qr.create(request.body.client_id, request.body.binding_message ?? null),
  });

  typed.get(`${prefix}/qr/sessions/:sessionId`, {
    schema: {
      tags: ['auth'],
      summary: 'State of a QR sign-in session: authRequestId once the authenticator claimed it',
      security: [],
      params: z.object({ sessionId: z.string().min(1).max(64) }),
      response: {
        200: qrSessionStatusSchema,
        404: errorBody,
        429: errorBody,
      },
    },
    handler: async (request) => qr.status(request.params.sessionId),
  });

  // --- Authenticator API -------------------------------------------------------------------------------
  typed.post(`${prefix}/authenticator/enroll`, {
    schema: {
      tags: ['authenticator'],
      summary: 'Enroll an authenticator key with a one-time code',
      security: [],
      body: z
        .object({
          code: z.string().min(1).max(64),
          publicJwk: publicJwkSchema,
          signature,
          label: z.string().max(100).optional(),
        })
        .strict(),
      response: {
        200: z.object({
          keyId: z.string(),
          username: z.string(),
          firstName: z.string(),
          lastName: z.string(),
          issuer: z.string(),
        }),
        400: errorBody,
        409: errorBody,
        429: errorBody,
      },
    },
    handler: async (request) => identities.enroll(request.body),
  });

  typed.post(`${prefix}/authenticator/pending`, {
    schema: {
      tags: ['authenticator'],
      summary: "The pending requests of the key's identity (signed listing)",
      security: [],
      body: z.object({ keyId, iat, signature }).strict(),
      response: {
        200: z.object({ requests: z.array(pendingRequestSchema) }),
        401: errorBody,
        429: errorBody,
      },
    },
    handler: async (request, reply) =>
      limited(reply, async () => {
        await keyLimiter.check(`authenticator:${request.body.keyId}`);
        return { requests: await requests.pending(request.body) };
      }),
  });

  typed.post(`${prefix}/authenticator/decide`, {
    schema: {
      tags: ['authenticator'],
      summary: 'Approve or deny a pending request with a signature by the enrolled key',
      security: [],
      body: z
        .object({
          keyId,
          requestId: z.string().max(64),
          decision: z.enum(['approve', 'deny']),
          signature,
          /** Approving a document signature: the signature over its signed attributes as well. */
          documentSignature: signature.optional(),
        })
        .strict(),
      response: {
        200: z.object({ status: z.enum(['approved', 'denied']) }),
        401: errorBody,
        404: errorBody,
        409: errorBody,
        429: errorBody,
      },
    },
    handler: async (request, reply) =>
      limited(reply, async () => {
        await keyLimiter.check(`authenticator:${request.body.keyId}`);
        return requests.decide(request.body);
      }),
  });

  typed.post(`${prefix}/authenticator/qr/claim`, {
    schema: {
      tags: ['authenticator'],
      summary: 'Claim a QR sign-in session; a sign-in request for this identity starts',
      security: [],
      body: z.object({ keyId, secret: z.string().min(1).max(128), iat, signature }).strict(),
      response: {
        200: z.object({ requestId: z.string(), clientId: z.string(), bindingMessage: z.string().nullable() }),
        401: errorBody,
        404: errorBody,
        429: errorBody,
      },
    },
    handler: async (request, reply) =>
      limited(reply, async () => {
        await keyLimiter.check(`authenticator:${request.body.keyId}`);
        return qr.claim(request.body);
      }),
  });

  // --- Resource authorization --------------------------------------------------------------------------
  typed.post(`${prefix}/resource-authorization`, {
    schema: {
      tags: ['auth'],
      summary: "Ask the signed-in user's authenticator to approve one action (returns a request to poll)",
      body: resourceAuthorizationInputSchema,
      response: {
        200: z.object({ id: z.string(), expires_in: z.number(), interval: z.number() }),
        400: errorBody,
        401: errorBody,
        429: errorBody,
      },
    },
    onRequest: signedInBearer,
    handler: async (request, reply) => {
      const caller = callerOf(request);
      return limited(reply, async () => {
        await identityLimiter.check(`resource:${caller.subject}`);
        return requests.createResourceAuthorization(caller.subject, caller.clientId, request.body);
      });
    },
  });

  typed.get(`${prefix}/resource-authorization/:id`, {
    schema: {
      tags: ['auth'],
      summary: 'State of a resource authorization: the signature once approved',
      params: z.object({ id: z.string().max(64) }),
      response: {
        200: z.object({
          status: z.enum(['pending', 'approved', 'denied', 'expired']),
          expires_in: z.number().optional(),
          keyId: z.string().nullable().optional(),
          signedPayload: z.string().nullable().optional(),
          signature: z.string().nullable().optional(),
          documentSignature: z.string().optional(),
          publicJwk: publicJwkSchema.optional(),
          decidedAt: z.string().optional(),
        }),
        401: errorBody,
        404: errorBody,
        429: errorBody,
      },
    },
    onRequest: signedInBearer,
    handler: async (request, reply) => {
      const caller = callerOf(request);
      return limited(reply, () => requests.pollResourceAuthorization(caller.subject, request.params.id));
    },
  });

  // --- The OpenID Provider -----------------------------------------------------------------------------
  // Its own scope: no body parser (the provider reads the raw request), the request handed over as is.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    // The provider writes its endpoints' addresses (discovery, jwks_uri, token_endpoint…) from the request's
    // origin. It is told the issuer's, whatever the Host header said: a client's Host must not choose where
    // others send their tokens, and behind a proxy that ends TLS the addresses stay https.
    const issuer = new URL(settings.issuer);
    /** The raw request as the provider expects it: its path below the prefix, the client's address on it. */
    const providerRequest = (request: FastifyRequest) => {
      const raw = request.raw as typeof request.raw & { originalUrl?: string; [CLIENT_ADDRESS]?: string };
      const url = raw.url ?? '/';
      raw.originalUrl = url;
      // The client's address as the trusted proxies tell it: the provider's own limits count by it.
      raw[CLIENT_ADDRESS] = request.ip;
      raw.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
      raw.headers['x-forwarded-host'] = issuer.host;
      raw.headers['x-forwarded-for'] = request.ip;
      raw.url = url.slice(prefix.length) || '/';
      return raw;
    };
    // The token endpoint answers a pending CIBA poll (poll-answers.ts) and a plain refresh (refresh-answers.ts)
    // itself; everything else, every poll that is not simply pending and every refresh it did not rotate, goes
    // to the provider, a refresh asking again for `openid` without it (token-request.ts).
    const answerItself = async (headers: IncomingHttpHeaders, body: Buffer) => {
      if (!mayAnswer(headers, server.tokenRoute)) return undefined;
      const params = new URLSearchParams(body.toString('utf8'));
      return (
        (await answerPoll(server.polls, server.tokenRoute, headers, params)) ??
        (await server.refreshes.answer(headers, params))
      );
    };
    scope.post(`${prefix}/token`, { schema: { hide: true } }, async (request, reply) => {
      void reply.hijack();
      const raw = providerRequest(request);
      if (!readsBody(raw.headers)) return server.handle(raw, reply.raw);
      const body = await readBody(raw);
      // A failure of its own is answered as the provider answers one of its own (the request is not handed
      // over: a rotation that failed after its statement must not be judged a reuse).
      const answer = await answerItself(raw.headers, body).catch((error: unknown) => {
        request.log.error({ err: error }, 'auth server error');
        return failedAnswer(raw.headers);
      });
      if (!answer) return server.handle(replay(raw, refreshWithoutOpenid(body)), reply.raw);
      reply.raw.writeHead(answer.status, answer.headers).end(answer.body);
    });
    scope.route({
      method: [...PROVIDER_METHODS],
      url: `${prefix}/*`,
      schema: { hide: true },
      handler: (request, reply) => {
        void reply.hijack();
        server.handle(providerRequest(request), reply.raw);
      },
    });
  });
}
