// buildApp(): plugins, then modules. main.ts listens; tests call inject().
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import type { AppConfig } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { IdentityService } from './auth-server/identities.js';
import { authServerSettings, createAuthServer } from './auth-server/index.js';
import { authServerRoutes } from './auth-server/routes.js';
import { auditModule } from './modules/audit/audit.routes.js';
import { alertsModule } from './modules/alerts/alerts.routes.js';
import { devicesModule } from './modules/devices/devices.routes.js';
import { healthModule } from './modules/health/health.routes.js';
import { iotModule } from './modules/iot/iot.routes.js';
import { commandCentersModule } from './modules/command-centers/command-centers.routes.js';
import { prescriptionsModule } from './modules/prescriptions/prescriptions.routes.js';
import { serviceProvidersModule } from './modules/service-providers/service-providers.routes.js';
import { statsModule } from './modules/stats/stats.routes.js';
import { usersModule } from './modules/users/users.routes.js';
import { authPlugin } from './plugins/auth.js';
import { authenticatorWebPlugin } from './plugins/authenticator-web.js';
import { errorsPlugin } from './plugins/errors.js';
import { jsonBodyPlugin } from './plugins/json-body.js';
import { openapiPlugin } from './plugins/openapi.js';
import { webPlugin } from './plugins/web.js';

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
  // The auth server in this process (AUTH_SERVER=0 leaves it to another); the API then verifies its tokens
  // with its key set directly instead of fetching its own JWKS over HTTP.
  const authServer = config.auth.server.enabled ? await createAuthServer(config, { db, log: app.log }) : null;
  app.decorate('authServer', authServer);
  const localKeys =
    authServer && config.auth.jwksUrl === `${config.auth.issuer}/jwks` ? authServer.getKey : null;
  // One key source for access tokens (authPlugin) and id tokens (POST /api/auth).
  const tokenKeys = deps.keys ?? localKeys ?? createRemoteJWKSet(new URL(config.auth.jwksUrl));
  await app.register(authPlugin, {
    db,
    issuer: config.auth.issuer,
    audience: config.auth.audience,
    jwksUrl: config.auth.jwksUrl,
    keys: tokenKeys,
  });

  await app.register(healthModule, { database: deps.database });
  await app.register(usersModule, {
    db,
    identities: authServer?.identities ?? new IdentityService(db, authServerSettings(config)),
    verifier: { issuer: config.auth.issuer, keys: tokenKeys },
  });
  await app.register(auditModule, { db });
  await app.register(statsModule, { db, deviceDomains: config.deviceDomains });
  await app.register(commandCentersModule, { db });
  await app.register(serviceProvidersModule, { db });
  await app.register(prescriptionsModule, { db });
  await app.register(iotModule, { db });
  await app.register(alertsModule, { db });
  await app.register(devicesModule, { db });
  if (authServer) await app.register(authServerRoutes, { server: authServer });
  await app.register(authenticatorWebPlugin, {});
  await app.register(webPlugin, { config });
  return app;
}
