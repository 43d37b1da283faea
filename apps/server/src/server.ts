// Starting a server process: the whole server (default), the API alone (AUTH_SERVER=0: the auth server runs
// elsewhere), or the auth server alone. Takes the embedded database's lock, migrates, loads demo data on an
// empty database with its sign-in, listens, and shuts down gracefully.
import type { FastifyInstance } from 'fastify';
import { buildApp, secretsOf } from '@/app.js';
import { createHttpApp } from '@/http-app.js';
import { createAuthServer } from '@/auth-server/index.js';
import { authServerRoutes } from '@/auth-server/routes.js';
import type { AppConfig } from '@/config.js';
import { openDatabase, type DatabaseHandle } from '@/db/client.js';
import { DatabaseUnavailable, databaseWhere } from '@/startup-failure.js';
import { createChangeFeed } from '@/lib/changes.js';
import { lockEmbeddedDatabase } from '@/db/embedded-lock.js';
import { loadDemoDataIfEmpty } from '@/db/seed/demo.js';
import { ensureDemoDocuments } from '@/dev/demo-documents.js';
import { ensureDemoPrescriptionReceipts } from '@/dev/demo-prescription-receipts.js';
import {
  demoSignInInstructions,
  demoSignInWarnings,
  ensureDemoSignIn,
  injectFetch,
} from '@/dev/demo-sign-in.js';
import { healthModule } from '@/modules/health/health.routes.js';

export type ServerPart = 'all' | 'auth' | 'api';

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** What was printed for signing in to the demo, if anything. */
  instructions: string | null;
  /**
   * Readiness answers 503 `closing` from now on while requests are still served; resolves after `seconds`
   * (SHUTDOWN_DRAIN_SECONDS), when a load balancer that polls readiness has taken the process out.
   */
  drain: (seconds: number) => Promise<void>;
  close: () => Promise<void>;
}

/** The auth server alone in a bare Fastify app: discovery, keys, CIBA, QR sessions, the authenticator API. */
export async function buildAuthOnlyApp(
  config: AppConfig,
  deps: { database: DatabaseHandle; logger?: boolean },
): Promise<FastifyInstance> {
  const app = await createHttpApp(config, {
    logger: deps.logger,
    bodyLimit: 64 * 1024,
    database: deps.database,
  });
  // Alone, the auth server has no listeners of its own, but its revocations reach the API processes.
  const changes = createChangeFeed({ shared: true });
  const authServer = await createAuthServer(config, {
    db: deps.database.db,
    ownDatabase: deps.database.kind === 'pglite',
    log: app.log,
    changes,
    secrets: secretsOf(config, app),
  });
  app.decorate('authServer', authServer);
  await app.register(healthModule, { database: deps.database });
  await app.register(authServerRoutes, { server: authServer });
  return app;
}

export interface StartOptions {
  part?: ServerPart;
  logger?: boolean;
  /** Where the printed paths are relative to (npm's start folder). */
  cwd?: string;
  print?: (text: string) => void;
}

export async function startServer(config: AppConfig, options: StartOptions = {}): Promise<RunningServer> {
  const part = options.part ?? 'all';
  const effective: AppConfig =
    part === 'api'
      ? { ...config, auth: { ...config.auth, server: { ...config.auth.server, enabled: false } } }
      : config;
  const lock = effective.databaseUrl
    ? undefined
    : lockEmbeddedDatabase(
        effective.dataDir,
        `the Careplane server (${part === 'all' ? 'all parts' : part})`,
      );
  try {
    // The app (and its logger) comes after the database; idle-connection failures are logged once it exists.
    const logger: { current?: { warn: (object: object, message: string) => void } } = {};
    const database = await openDatabase({
      databaseUrl: effective.databaseUrl,
      dataDir: effective.dataDir,
      timeouts: {
        connectMs: effective.database.connectTimeoutMs,
        statementMs: effective.database.statementTimeoutMs,
        lockMs: effective.database.lockTimeoutMs,
      },
      onIdleError: (error) =>
        logger.current?.warn({ err: error }, 'an idle database connection failed; it was replaced'),
    }).catch((error: unknown) => {
      throw new DatabaseUnavailable(databaseWhere(effective.databaseUrl, effective.dataDir), error);
    });
    const app =
      part === 'auth'
        ? await buildAuthOnlyApp(effective, {
            database,
            ...(options.logger === undefined ? {} : { logger: options.logger }),
          })
        : await buildApp(effective, {
            database,
            ...(options.logger === undefined ? {} : { logger: options.logger }),
          });
    logger.current = app.log;

    let demo = null;
    if (effective.demoData) {
      const loaded = await loadDemoDataIfEmpty(database);
      if (loaded) app.log.info(loaded, 'demo data loaded');
      if (app.authServer) {
        demo = await ensureDemoSignIn({
          db: database.db,
          authServer: app.authServer,
          fetch: injectFetch(app),
          dataDir: effective.dataDir,
        });
        if (demo) {
          app.log.info(
            {
              createdIdentities: demo.createdIdentities,
              enrolledKeys: demo.enrolledKeys,
              store: demo.storePath,
            },
            'demo sign-in ready',
          );
          // A revoked demo key stays revoked and a deleted store is not made again: the operator is told.
          for (const { identities, message } of demoSignInWarnings(demo)) {
            app.log.warn({ identities }, message);
          }
          const documents = await ensureDemoDocuments({
            db: database.db,
            config: effective,
            storePath: demo.storePath,
            issuer: app.authServer.settings.issuer,
            secrets: app.secrets,
          });
          if (documents) app.log.info({ documents }, 'demo documents created');
          const receipts = await ensureDemoPrescriptionReceipts({
            db: database.db,
            config: effective,
            storePath: demo.storePath,
            issuer: app.authServer.settings.issuer,
            secrets: app.secrets,
          });
          if (receipts) app.log.info({ receipts }, 'demo prescription receipts signed');
        }
      }
    }

    await app.listen({ port: effective.port, host: effective.host });
    // Where this process listens, and the public address people reach (the same for every process behind a
    // load balancer): an operator tells the processes apart by the first.
    const bound = app.server.address();
    const listening =
      typeof bound === 'object' && bound ? `${bound.address}:${bound.port}` : String(bound ?? effective.port);
    app.log.info(
      { listening, publicUrl: effective.publicUrl, database: database.kind },
      `Careplane (${part}) is listening on ${listening}; its public address is ${effective.publicUrl} (database: ${database.kind})`,
    );
    const instructions =
      demo && part === 'all' ? demoSignInInstructions(demo, effective.publicUrl, options.cwd) : null;
    if (instructions) (options.print ?? ((text: string) => process.stdout.write(`${text}\n`)))(instructions);

    let closed = false;
    return {
      app,
      database,
      instructions,
      drain: async (seconds) => {
        app.lifecycle.draining = true;
        if (seconds > 0) await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      },
      close: async () => {
        if (closed) return;
        closed = true;
        try {
          await app.close();
          await database.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

/**
 * Closes the server on SIGTERM or SIGINT (forced 10 s after the port starts closing). On SIGTERM, the way an
 * orchestrator or a supervisor stops a process, it first drains for `drainSeconds`: readiness says `closing`
 * while requests are still answered. Ctrl-C (SIGINT) closes at once.
 */
export function closeOnSignals(server: RunningServer, { drainSeconds = 0 }: { drainSeconds?: number } = {}) {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const drain = signal === 'SIGTERM' ? drainSeconds : 0;
    server.app.log.info({ signal, drainSeconds: drain }, 'shutting down');
    await server.drain(drain);
    const forced = setTimeout(() => process.exit(1), 10_000);
    forced.unref();
    try {
      await server.close();
      process.exit(0);
    } catch (error) {
      server.app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
