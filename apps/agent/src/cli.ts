// careplane-agent: `enroll --server <url> --token <t> [--state <dir>] [--allow-shell] [--allow-reboot]
// [--stats-interval <s>]`, then `run [--state <dir>]`. See README.md ("The device agent").
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { runAgent } from './agent.js';
import { AgentApi, Offline, Refused } from './api.js';
import {
  AgentState,
  DEFAULT_COMMAND_TIMEOUT_SECONDS,
  DEFAULT_STATS_INTERVAL_SECONDS,
  defaultStateDir,
} from './state.js';
import { AGENT_VERSION } from './version.js';

/** The exit code after a `restart-agent` job: a supervisor (systemd `Restart=always`) starts it again. */
export const RESTART_EXIT_CODE = 75;

/** How long a stop waits for a running command before the process ends anyway. */
const STOP_GRACE_MS = 10_000;

const USAGE = `careplane-agent ${AGENT_VERSION}

Usage:
  careplane-agent enroll --server <url> --token <device token> [--state <dir>]
                         [--allow-shell] [--allow-reboot] [--stats-interval <seconds>]
                         [--command-timeout <seconds>]
  careplane-agent run [--state <dir>] [--poll-wait <seconds>] [--retry <seconds>]

The state directory defaults to ~/.careplane-agent (or CAREPLANE_AGENT_STATE).`;

class UsageError extends Error {}

function positiveNumber(value: string | undefined, name: string, fallback: number, max = Infinity) {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0 || number > max) {
    throw new UsageError(`--${name} must be a positive number${max < Infinity ? ` up to ${max}` : ''}`);
  }
  return number;
}

/**
 * A command must end well inside the server's job lease (15 minutes, renewed by each report), or its job
 * would time out while it runs.
 */
const MAX_COMMAND_TIMEOUT_SECONDS = 600;

async function enroll(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      state: { type: 'string' },
      'allow-shell': { type: 'boolean', default: false },
      'allow-reboot': { type: 'boolean', default: false },
      'stats-interval': { type: 'string' },
      'command-timeout': { type: 'string' },
    },
  });
  if (!values.server || !values.token) throw new UsageError('enroll needs --server and --token');
  let server: URL;
  try {
    server = new URL(values.server);
  } catch {
    throw new UsageError(`Not a URL: ${values.server}`);
  }
  if (server.protocol !== 'http:' && server.protocol !== 'https:')
    throw new UsageError('--server must be http(s)');
  const statsIntervalSeconds = positiveNumber(
    values['stats-interval'],
    'stats-interval',
    DEFAULT_STATS_INTERVAL_SECONDS,
  );
  const commandTimeoutSeconds = positiveNumber(
    values['command-timeout'],
    'command-timeout',
    DEFAULT_COMMAND_TIMEOUT_SECONDS,
    MAX_COMMAND_TIMEOUT_SECONDS,
  );
  const state = new AgentState(resolve(values.state ?? defaultStateDir()));
  await state.init();
  // The token is checked before it is stored.
  const me = await new AgentApi(server.origin, values.token).me();
  await state.writeConfig({
    server: server.origin,
    token: values.token,
    deviceId: me.id,
    deviceTitle: me.title,
    allowShell: values['allow-shell'],
    allowReboot: values['allow-reboot'],
    statsIntervalSeconds,
    commandTimeoutSeconds,
  });
  console.log(`Enrolled as "${me.title}" (${me.id}); state in ${state.dir}`);
}

async function run(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      state: { type: 'string' },
      'poll-wait': { type: 'string' },
      retry: { type: 'string' },
    },
  });
  const state = new AgentState(resolve(values.state ?? defaultStateDir()));
  await state.init();
  const config = await state.readConfig();
  if (!config) throw new UsageError(`Not enrolled (no configuration in ${state.dir}): run enroll first`);
  const controller = new AbortController();
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    process.on(name, () => {
      // A second signal, or a command still running after a grace period, ends the process at once; the
      // journal reports that job as interrupted on the next start.
      if (controller.signal.aborted) process.exit(0);
      controller.abort();
      setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
    });
  }
  const end = await runAgent({
    state,
    config,
    pollWaitSeconds: positiveNumber(values['poll-wait'], 'poll-wait', 25),
    retrySeconds: positiveNumber(values.retry, 'retry', 10),
    signal: controller.signal,
  });
  process.exit(end === 'restart' ? RESTART_EXIT_CODE : 0);
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  switch (command) {
    case 'enroll':
      return enroll(rest);
    case 'run':
      return run(rest);
    case '--version':
      return console.log(AGENT_VERSION);
    case undefined:
    case 'help':
    case '--help':
      return console.log(USAGE);
    default:
      throw new UsageError(`Unknown command: ${command}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof Offline || error instanceof Refused) {
    console.error(`careplane-agent: ${error.message}`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
