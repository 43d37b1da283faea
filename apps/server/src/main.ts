// Starts the server: configuration, database (migrated), demo data and its sign-in on an empty database,
// listen, graceful shutdown. `careplane start --only auth|api` starts one part (see server.ts).
import { loadConfig } from '@/config.js';
import { EmbeddedDatabaseBusy } from '@/db/embedded-lock.js';
import { closeOnSignals, startServer } from '@/server.js';

const config = loadConfig();
try {
  const server = await startServer(config, { cwd: process.env.INIT_CWD ?? process.cwd() });
  closeOnSignals(server);
} catch (error) {
  if (!(error instanceof EmbeddedDatabaseBusy)) throw error;
  console.error(error.message);
  process.exit(1);
}
