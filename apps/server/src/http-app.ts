// The Fastify instance every server part starts from (the whole server, or the auth server alone): who may
// tell the client's address (TRUST_PROXY), time limits, the one error handler and body parser, security
// headers, and an answer in the documented error shape even for a URL that cannot be decoded.
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { pickLanguage } from '@careplane/shared/i18n/languages';
import type { AppConfig } from '@/config.js';
import type { DatabaseHandle } from '@/db/client.js';
import { createOutageWatch } from '@/lib/database-outage.js';
import { errorBody, serviceTexts } from '@/lib/errors.js';
import { REQUEST_ID_HEADER, loggerOptions, requestIdOf } from '@/lib/logging.js';
import { queryValidatorCompiler } from '@/lib/query-validator.js';
import { createResponseSerializerCompiler } from '@/lib/response-serializer.js';
import { deadlinePlugin } from '@/plugins/deadline.js';
import { errorsPlugin, fastifyRefusal } from '@/plugins/errors.js';
import { jsonBodyPlugin } from '@/plugins/json-body.js';
import { securityHeadersPlugin } from '@/plugins/security-headers.js';
import { stalledBodyPlugin } from '@/plugins/stalled-body.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the process stands in its life: draining once it has been asked to stop (decision 075). */
    lifecycle: { draining: boolean };
  }
}

/** No request may take longer than this to arrive whole (Node answers 408 past it). */
const REQUEST_TIMEOUT_MS = 60_000;

export interface HttpAppOptions {
  logger?: boolean | undefined;
  bodyLimit: number;
  /** How long a body may stall before a 408 (ms); tests shorten it. */
  bodyIdleMs?: number;
  /** The database the app's requests use: while it cannot be reached they answer 503, logged once. */
  database?: DatabaseHandle;
}

export async function createHttpApp(config: AppConfig, options: HttpAppOptions): Promise<FastifyInstance> {
  const proxies = config.trustProxy;
  const app: FastifyInstance = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.logLevel),
    genReqId: requestIdOf,
    bodyLimit: options.bodyLimit,
    // Only the configured proxies may name the client (rate limits and audit rows read request.ip).
    trustProxy: typeof proxies === 'number' ? (_address: string, hop: number) => hop < proxies : proxies,
    requestTimeout: REQUEST_TIMEOUT_MS,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors: (error, request, answer) => {
      const reply = answer as unknown as FastifyReply;
      const statusCode = error.statusCode ?? 400;
      const language = pickLanguage(request.headers['accept-language']);
      request.log.info({ err: error }, 'request refused before routing');
      const text = fastifyRefusal(error) ?? (statusCode === 400 ? serviceTexts.addressUnreadable : undefined);
      void reply
        .status(statusCode)
        .header('content-language', language)
        .send(errorBody(statusCode, text ? text[language] : error.message));
    },
  });
  // The request's id goes back to the caller, to quote when something went wrong.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  // Queries checked once per distinct query, their values frozen and shared (decision 061).
  // Set on SIGTERM while the process still serves, before its port closes: readiness answers 503 `closing`.
  app.decorate('lifecycle', { draining: false });
  app.setValidatorCompiler(queryValidatorCompiler);
  // Answers written from the contract's JSON Schema (decision 045); under test each is also checked against
  // the contract with zod, so a service that drifts from it fails its tests.
  app.setSerializerCompiler(createResponseSerializerCompiler({ check: config.checkAnswers }));
  await app.register(securityHeadersPlugin, { config });
  await app.register(deadlinePlugin, { ms: config.requestDeadlineMs });
  await app.register(stalledBodyPlugin, { ...(options.bodyIdleMs ? { idleMs: options.bodyIdleMs } : {}) });
  const { database } = options;
  const outage = database
    ? createOutageWatch({ probe: () => database.rawQuery('select 1'), log: app.log })
    : undefined;
  if (outage) app.addHook('onClose', async () => outage.close());
  await app.register(errorsPlugin, { ...(outage ? { outage } : {}) });
  await app.register(jsonBodyPlugin);
  return app;
}
