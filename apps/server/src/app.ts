// buildApp(): plugins, then modules. main.ts listens; tests call inject().
import type { FastifyInstance } from 'fastify';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import type { AppConfig } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { createGrantCheck } from './auth-server/grants.js';
import { IdentityService } from './auth-server/identities.js';
import { authServerSettings, createAuthServer } from './auth-server/index.js';
import { RequestService } from './auth-server/requests.js';
import { authServerRoutes } from './auth-server/routes.js';
import { auditModule } from './modules/audit/audit.routes.js';
import { alertsModule } from './modules/alerts/alerts.routes.js';
import { devicesModule } from './modules/devices/devices.routes.js';
import { documentsModule, openDocumentsService } from './modules/documents/documents.routes.js';
import { eventsModule } from './modules/events/events.routes.js';
import { healthModule } from './modules/health/health.routes.js';
import { iotModule } from './modules/iot/iot.routes.js';
import { commandCentersModule } from './modules/command-centers/command-centers.routes.js';
import { prescriptionsModule } from './modules/prescriptions/prescriptions.routes.js';
import { createPrescriptionsService } from './modules/prescriptions/prescriptions.service.js';
import { startSigningCompletion } from './modules/documents/signing-completion.js';
import { serviceProvidersModule } from './modules/service-providers/service-providers.routes.js';
import { statsModule } from './modules/stats/stats.routes.js';
import { usersModule } from './modules/users/users.routes.js';
import { listenForRemoteChanges, type ChangeListenerHandle } from './db/change-listener.js';
import { createChangeFeed, type ChangeFeed } from './lib/changes.js';
import { createSecretBox, type SecretBox } from './lib/secret-box.js';
import { createStore } from './lib/store.js';
import { describeEncryptionKey, loadEncryptionKey } from './encryption-key.js';
import { createHttpApp } from './http-app.js';
import { createDevicesService } from './modules/devices/devices.service.js';
import { createCommandCentersService } from './modules/command-centers/command-centers.service.js';
import { createCommandCenterScopeService } from './modules/command-centers/command-center-scope.service.js';
import { createUsersService } from './modules/users/users.service.js';
import { authPlugin } from './plugins/auth.js';
import { authenticatorWebPlugin } from './plugins/authenticator-web.js';
import { registerCompression } from './plugins/compression.js';
import { openapiPlugin } from './plugins/openapi.js';
import { webPlugin } from './plugins/web.js';
import { writeLimitPlugin } from './plugins/write-limit.js';

export interface AppDependencies {
  database: DatabaseHandle;
  /** Seals private keys at rest; defaults to the key of the configuration (encryption-key.ts). */
  secrets?: SecretBox;
  /** Key set for access tokens; defaults to the JWKS at config.auth.jwksUrl. */
  keys?: JWTVerifyGetKey;
  logger?: boolean;
  /** How long a request body may stall before a 408 (ms; default 5 s). */
  bodyIdleMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Committed changes of every audited write. */
    changes: ChangeFeed;
    /** Seals and derives this server's secrets at rest. */
    secrets: SecretBox;
  }
}

/** The secret box of the configured encryption key, saying at start where the key came from. */
export function secretsOf(config: AppConfig, app: FastifyInstance): SecretBox {
  const source = loadEncryptionKey(config);
  const said = describeEncryptionKey(source, config.production);
  app.log[said.level](said.message);
  return createSecretBox(source.key);
}

export async function buildApp(config: AppConfig, deps: AppDependencies): Promise<FastifyInstance> {
  const app = await createHttpApp(config, {
    logger: deps.logger,
    bodyLimit: 1024 * 1024,
    bodyIdleMs: deps.bodyIdleMs,
  });
  try {
    const db = deps.database.db;
    // One key seals every private key at rest: the auth server's signing keys, the documents' CA.
    const secrets = deps.secrets ?? secretsOf(config, app);
    app.decorate('secrets', secrets);
    // Every audited write is told here after its commit (caches, live updates, MQTT and jobs listen), and so
    // are the changes of every other server process on the same database.
    const changes = createChangeFeed({
      shared: true,
      onListenerError: (error) => app.log.error({ err: error }, 'a change listener failed'),
    });
    app.decorate('changes', changes);
    // Listening starts once the app is ready (an app whose building failed holds no connection for it).
    let listener: ChangeListenerHandle | undefined;
    app.addHook('onReady', async () => {
      listener = listenForRemoteChanges(deps.database, changes, (error) =>
        app.log.warn(
          { err: error },
          'the connection that carries the changes of other server processes failed',
        ),
      );
    });
    app.addHook('onClose', async () => listener?.close());
    const store = createStore(db, changes);
    await registerCompression(app);
    await app.register(openapiPlugin);
    // The auth server in this process (AUTH_SERVER=0 leaves it to another); the API then verifies its tokens
    // with its key set directly instead of fetching its own JWKS over HTTP.
    const authServer = config.auth.server.enabled
      ? await createAuthServer(config, {
          db,
          log: app.log,
          changes,
          secrets,
        })
      : null;
    app.decorate('authServer', authServer);
    const localKeys =
      authServer && config.auth.jwksUrl === `${config.auth.issuer}/jwks` ? authServer.getKey : null;
    // One key source for access tokens (authPlugin) and id tokens (POST /api/auth).
    const tokenKeys = deps.keys ?? localKeys ?? createRemoteJWKSet(new URL(config.auth.jwksUrl));
    // Without the auth server in this process, its services run on its tables (the same database).
    const identities = authServer?.identities ?? new IdentityService(db, authServerSettings(config));
    const authRequests =
      authServer?.requests ??
      new RequestService(db, identities, authServerSettings(config), () => {
        throw new Error('Sign-in requests are answered by the auth server process');
      });
    const users = createUsersService(store, identities);
    const devices = createDevicesService(store);
    await app.register(authPlugin, {
      findUser: users.findCaller,
      findDevice: devices.findDeviceByToken,
      // The auth server's grants live in this database (in this process or another): a token of an ended
      // sign-in is refused at once.
      isGrantActive: createGrantCheck(db, changes),
      changes,
      issuer: config.auth.issuer,
      audience: config.auth.audience,
      jwksUrl: config.auth.jwksUrl,
      keys: tokenKeys,
    });

    await app.register(writeLimitPlugin, { perMinute: config.apiWriteRateLimit });
    await app.register(healthModule, { database: deps.database });
    await app.register(usersModule, {
      service: users,
      verifier: { issuer: config.auth.issuer, keys: tokenKeys },
    });
    await app.register(auditModule, { store });
    await app.register(statsModule, { store, deviceDomains: config.deviceDomains });
    const commandCenterScope = createCommandCenterScopeService(store);
    await app.register(commandCentersModule, {
      service: createCommandCentersService(store, devices),
      scope: commandCenterScope,
    });
    await app.register(serviceProvidersModule, { store });
    const documents = await openDocumentsService({
      store,
      config,
      identities,
      requests: authRequests,
      secrets,
    });
    const prescriptions = createPrescriptionsService(store, { documents, publicUrl: config.publicUrl });
    await app.register(prescriptionsModule, {
      service: prescriptions,
      verifyRateLimit: config.documents.verifyRateLimit,
      redis: authServer?.redis ?? null,
      redisKeyPrefix: config.redisKeyPrefix,
    });
    // A phone's answer completes its signature (and the prescription's transition) here, in whichever
    // process hears it first; a sweep covers what no process heard.
    const signingCompletion = startSigningCompletion({
      changes,
      documents,
      sweeps: [() => prescriptions.settleWaitingSignings()],
      intervalMs: config.documents.signingSweepSeconds * 1000,
      log: app.log,
    });
    app.addHook('onReady', async () => {
      void signingCompletion.sweep();
    });
    app.addHook('onClose', async () => signingCompletion.close());
    await app.register(iotModule, { store, settings: config.iot, mqtt: config.mqtt });
    await app.register(alertsModule, { store });
    await app.register(devicesModule, { service: devices });
    await app.register(eventsModule, { store, secrets, scope: commandCenterScope });
    await app.register(documentsModule, {
      store,
      config,
      identities,
      requests: authRequests,
      redis: authServer?.redis ?? null,
      redisKeyPrefix: config.redisKeyPrefix,
      secrets,
      service: documents,
    });
    if (authServer) await app.register(authServerRoutes, { server: authServer });
    await app.register(authenticatorWebPlugin, {});
    await app.register(webPlugin, { config });
    return app;
  } catch (error) {
    // A part that failed to start (a wrong encryption key, say) leaves nothing running behind it.
    await app.close().catch(() => undefined);
    throw error;
  }
}
