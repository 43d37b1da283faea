// Starts the server: configuration, database (migrated), demo data and its sign-in on an empty database,
// listen, graceful shutdown. `careplane start --only auth|api` starts one part (see server.ts). A start that
// fails for a reason an operator can put right says so in one sentence and exits 1 (startup-failure.ts).
import { loadConfig } from '@/config.js';
import { closeOnSignals, startServer } from '@/server.js';
import { startupFailureMessage } from '@/startup-failure.js';

let port: number | undefined;
try {
  const config = loadConfig();
  port = config.port;
  const server = await startServer(config, { cwd: process.env.INIT_CWD ?? process.cwd() });
  closeOnSignals(server, { drainSeconds: config.shutdownDrainSeconds });
} catch (error) {
  const message = startupFailureMessage(error, port);
  if (message === undefined) throw error;
  console.error(`careplane: ${message}`);
  process.exit(1);
}
