// buildApp(): the composition root. The services are built once (services.ts), each module's routes get the
// service they expose, and the transports (other processes' changes, MQTT, signature completion) start when
// the app is ready. main.ts listens; tests call inject().
import type { FastifyInstance } from 'fastify';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import type { AppConfig } from '@/config.js';
import type { DatabaseHandle } from '@/db/client.js';
import { createAuthServer, type AuthServer } from '@/auth-server/index.js';
import { authServerRoutes } from '@/auth-server/routes.js';
import { recordRouteAccess, refuseNonDevicesFirst } from '@/lib/access.js';
import { refuseUndeclaredBodies } from '@/lib/no-body.js';
import { listenForRemoteChanges, type ChangeListenerHandle } from '@/lib/change-listener.js';
import {
  forgetMqttMember,
  mqttPresenceName,
  otherMqttMembers,
  watchMqttMembers,
} from '@/modules/iot/mqtt-members.js';
import { createChangeFeed, type ChangeFeed } from '@/lib/changes.js';
import type { OutsideServices } from '@/lib/outside-services.js';
import { createSecretBox, type SecretBox } from '@/lib/secret-box.js';
import { createStore } from '@/lib/store.js';
import { describeEncryptionKey, loadEncryptionKey } from '@/encryption-key.js';
import { createHttpApp } from '@/http-app.js';
import { alertsModule } from '@/modules/alerts/alerts.routes.js';
import { auditModule } from '@/modules/audit/audit.routes.js';
import { commandCentersModule } from '@/modules/command-centers/command-centers.routes.js';
import { devicesModule } from '@/modules/devices/devices.routes.js';
import { documentsModule } from '@/modules/documents/documents.routes.js';
import { STALE_UPLOAD_MS } from '@/modules/documents/documents.service.js';
import { startSigningCompletion } from '@/modules/documents/signing-completion.js';
import { eventsModule } from '@/modules/events/events.routes.js';
import { healthModule } from '@/modules/health/health.routes.js';
import { startMqttIngestion, type MqttIngestion } from '@/modules/iot/iot.mqtt.js';
import { iotModule } from '@/modules/iot/iot.routes.js';
import { metricsModule, requestMetricsPlugin } from '@/modules/metrics/metrics.routes.js';
import { prescriptionsModule } from '@/modules/prescriptions/prescriptions.routes.js';
import { serviceProvidersModule } from '@/modules/service-providers/service-providers.routes.js';
import { statsModule } from '@/modules/stats/stats.routes.js';
import { usersModule } from '@/modules/users/users.routes.js';
import { authPlugin } from '@/plugins/auth.js';
import { authenticatorWebPlugin } from '@/plugins/authenticator-web.js';
import { registerCompression } from '@/plugins/compression.js';
import { openapiPlugin } from '@/plugins/openapi.js';
import { webPlugin } from '@/plugins/web.js';
import { writeLimitPlugin } from '@/plugins/write-limit.js';
import { createServices, type Services } from '@/services.js';

/** How often a process looks for uploads left half staged. */
const UPLOAD_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

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
    database: deps.database,
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
    const store = createStore(db, changes);
    // The auth server in this process (AUTH_SERVER=0 leaves it to another); the API then verifies its tokens
    // with its key set directly instead of fetching its own JWKS over HTTP.
    const authServer = config.auth.server.enabled
      ? await createAuthServer(config, {
          db,
          ownDatabase: deps.database.kind === 'pglite',
          log: app.log,
          changes,
          secrets,
        })
      : null;
    app.decorate('authServer', authServer);
    // Redis and the broker as they are now, for the metrics; the broker's part is the MQTT ingestion, which
    // starts with the server (startTransports).
    const outside: OutsideServices = { redis: authServer?.redis ?? null, broker: null };
    const services = await createServices({
      config,
      database: deps.database,
      store,
      secrets,
      authServer,
      outside,
      log: app.log,
    });

    const parts = { config, deps, changes, services, outside };
    await registerRoutes(app, { ...parts, authServer });
    outside.broker = startTransports(app, parts);
    return app;
  } catch (error) {
    // A part that failed to start (a wrong encryption key, say) leaves nothing running behind it.
    await app.close().catch(() => undefined);
    throw error;
  }
}

interface Parts {
  config: AppConfig;
  deps: AppDependencies;
  changes: ChangeFeed;
  services: Services;
  outside: OutsideServices;
}

/** Cross-cutting plugins, then each module's routes with the service it exposes. */
async function registerRoutes(
  app: FastifyInstance,
  { config, deps, authServer, services }: Parts & { authServer: AuthServer | null },
) {
  recordRouteAccess(app);
  refuseNonDevicesFirst(app);
  refuseUndeclaredBodies(app);
  await app.register(requestMetricsPlugin, { service: services.metrics });
  await registerCompression(app);
  await app.register(openapiPlugin);
  const localKeys =
    authServer && config.auth.jwksUrl === `${config.auth.issuer}/jwks` ? authServer.getKey : null;
  // One key source for access tokens (authPlugin) and id tokens (POST /api/auth).
  const tokenKeys = deps.keys ?? localKeys ?? createRemoteJWKSet(new URL(config.auth.jwksUrl));
  await app.register(authPlugin, {
    findUser: services.users.findCaller,
    findDevice: services.devices.findDeviceByToken,
    // The auth server's grants live in this database (in this process or another): a token of an ended
    // sign-in is refused at once.
    isGrantActive: services.isGrantActive,
    changes: app.changes,
    issuer: config.auth.issuer,
    audience: config.auth.audience,
    jwksUrl: config.auth.jwksUrl,
    keys: tokenKeys,
  });
  await app.register(writeLimitPlugin, { perMinute: config.apiWriteRateLimit });

  // Shared rate-limit counts across processes (REDIS_URL, through the auth server's connection).
  const limits = { redis: authServer?.redis ?? null, redisKeyPrefix: config.redisKeyPrefix };
  await app.register(healthModule, { database: deps.database });
  await app.register(metricsModule, { service: services.metrics, token: config.metricsToken });
  await app.register(usersModule, {
    service: services.users,
    verifier: { issuer: config.auth.issuer, keys: tokenKeys },
  });
  await app.register(auditModule, { service: services.audit });
  await app.register(statsModule, { service: services.stats });
  await app.register(commandCentersModule, {
    service: services.commandCenters,
    scope: services.commandCenterScope,
    alerts: services.alerts,
    iot: services.iot,
  });
  await app.register(serviceProvidersModule, { service: services.serviceProviders });
  await app.register(prescriptionsModule, {
    service: services.prescriptions,
    verifyRateLimit: config.documents.verifyRateLimit,
    ...limits,
  });
  await app.register(iotModule, { service: services.iot });
  await app.register(alertsModule, { service: services.alerts });
  await app.register(devicesModule, { service: services.devices });
  await app.register(eventsModule, { service: services.events });
  await app.register(documentsModule, {
    service: services.documents,
    maxBytes: config.documents.maxBytes,
    maxConcurrentUploads: config.documents.maxConcurrentUploads,
    verifyRateLimit: config.documents.verifyRateLimit,
    ...limits,
  });
  if (authServer) await app.register(authServerRoutes, { server: authServer });
  await app.register(authenticatorWebPlugin, {});
  await app.register(webPlugin, { config });
}

/**
 * What runs beside the requests, started once the app is ready (an app whose building failed holds no
 * connection) and stopped when it closes: the changes of other processes (LISTEN), the IoT readings over MQTT,
 * and the completion of signatures when a phone answers.
 */
/** Starts what takes work from outside requests; answers the MQTT ingestion's connections (null without MQTT_URL). */
function startTransports(
  app: FastifyInstance,
  { config, deps, changes, services }: Parts,
): OutsideServices['broker'] {
  let listener: ChangeListenerHandle | undefined;
  let ingestion: MqttIngestion | undefined;
  let members: ReturnType<typeof watchMqttMembers> | undefined;
  let uploadSweep: NodeJS.Timeout | undefined;
  // Uploads a crash or a lost process left half staged (decision 037).
  const sweepUploads = () =>
    services.documents.sweepStaleUploads(STALE_UPLOAD_MS).catch((error: unknown) => {
      app.log.warn({ err: error }, 'sweeping unfinished uploads failed');
    });
  const signingCompletion = startSigningCompletion({
    changes,
    documents: services.documents,
    sweeps: [() => services.prescriptions.settleWaitingSignings()],
    intervalMs: config.documents.signingSweepSeconds * 1000,
    log: app.log,
  });
  // Tells the other processes of this deployment that this one takes MQTT readings, while it runs.
  const presence = config.mqtt.url ? mqttPresenceName({ ...config.mqtt, url: config.mqtt.url }) : undefined;
  app.addHook('onReady', async () => {
    listener = listenForRemoteChanges(
      deps.database,
      changes,
      (error) =>
        app.log.warn(
          { err: error },
          'the connection that carries the changes of other server processes failed',
        ),
      {
        ...(presence ? { presence } : {}),
        onRecovered: () =>
          app.log.info('the connection that carries the changes of other server processes listens again'),
      },
    );
    const { url, ...mqtt } = config.mqtt;
    if (url) {
      ingestion = startMqttIngestion(
        { ...mqtt, url, batchSize: config.iot.batchSize, batchDelayMs: config.iot.batchDelayMs },
        services.iot,
        app.log,
      );
      // The server starts whether or not the broker answers; the connections keep trying, and a backlog
      // a session brings back is taken in as soon as they are up.
      ingestion.ready.catch((error: unknown) =>
        app.log.error({ err: error }, 'subscribing to the IoT readings topic failed'),
      );
      // A member that stops without leaving (a crash) has its sessions, and their queued readings, taken over.
      if (presence) {
        members = watchMqttMembers({
          database: deps.database,
          member: { clientId: mqtt.clientId, presence, connections: mqtt.connections },
          takeOver: (stem, connections) => ingestion!.takeOver(stem, connections),
          log: app.log,
        });
      }
    }
    // Signatures a phone answered while no process listened (a restart) complete now.
    void signingCompletion.sweep();
    void sweepUploads();
    uploadSweep = setInterval(() => void sweepUploads(), UPLOAD_SWEEP_INTERVAL_MS);
    uploadSweep.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(uploadSweep);
    await signingCompletion.close();
    await members?.close();
    if (ingestion && presence) {
      // Another member up: this one leaves the shared subscription, and the broker gives it all to the others.
      // The last one keeps its sessions subscribed: the broker keeps its readings until it is back.
      const others = await otherMqttMembers(deps.database, presence).catch(() => 0);
      app.log.info(
        { otherMembers: others },
        others > 0
          ? 'leaving the shared MQTT subscription to the other processes'
          : 'keeping the MQTT sessions subscribed: the broker keeps the readings until this process is back',
      );
      await ingestion.close({ leave: others > 0 });
      // Having left, nothing of this process is left to take over; the last one is, should it not come back.
      if (others > 0) {
        await forgetMqttMember(deps.database, config.mqtt.clientId).catch((error: unknown) =>
          app.log.warn({ err: error }, 'forgetting this MQTT member failed'),
        );
      }
    }
    services.events.close();
    await listener?.close();
  });
  if (!config.mqtt.url) return null;
  const connections = config.mqtt.connections;
  // Before the ingestion starts (and after a start that failed) none of its connections is subscribed.
  return { connections: () => ingestion?.connections() ?? { subscribed: 0, total: connections } };
}
