// buildApp(): plugins, then modules. main.ts listens; tests call inject().
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { JWTVerifyGetKey } from 'jose';
import type { AppConfig } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { healthModule } from './modules/health/health.routes.js';
import { usersModule } from './modules/users/users.routes.js';
import { authPlugin } from './plugins/auth.js';
import { errorsPlugin } from './plugins/errors.js';
import { jsonBodyPlugin } from './plugins/json-body.js';
import { openapiPlugin } from './plugins/openapi.js';

export interface AppDependencies {
  database: DatabaseHandle;
  /** Key set for access tokens; defaults to the JWKS at config.auth.jwksUrl. */
  keys?: JWTVerifyGetKey;
  logger?: boolean;
}

export async function buildApp(config: AppConfig, deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger === false ? false : { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = deps.database.db;
  await app.register(errorsPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(openapiPlugin);
  await app.register(authPlugin, {
    db,
    issuer: config.auth.issuer,
    audience: config.auth.audience,
    jwksUrl: config.auth.jwksUrl,
    ...(deps.keys ? { keys: deps.keys } : {}),
  });

  await app.register(healthModule, { database: deps.database });
  await app.register(usersModule, { db });
  return app;
}
