// Starts the server: configuration, database (migrated), demo data on an empty database, listen, graceful shutdown.
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { loadDemoDataIfEmpty } from './db/seed/demo.js';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const app = await buildApp(config, { database });

if (config.demoData) {
  const loaded = await loadDemoDataIfEmpty(database);
  if (loaded) app.log.info(loaded, 'demo data loaded');
}

let closing = false;
const shutdown = async (signal: string) => {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const forced = setTimeout(() => process.exit(1), 10_000);
  forced.unref();
  try {
    await app.close();
    await database.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
app.log.info(`Careplane is serving ${config.publicUrl} (database: ${database.kind})`);
