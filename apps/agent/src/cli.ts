// careplane-agent: `enroll --server <url> --token <t> [--state <dir>] [--allow-shell] [--allow-reboot]
// [--stats-interval <s>]`, then `run [--state <dir>]`; `simulate-iot` sends simulated IoT readings. See
// README.md ("The device agent").
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { runAgent } from './agent.js';
import { AgentApi, Offline, Refused } from './api.js';
import { createReadingGenerator } from './readings.js';
import {
  NotLinked,
  httpTransport,
  mqttTransport,
  runSimulation,
  summaryLine,
  type ReadingsTransport,
} from './simulate.js';
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
  careplane-agent simulate-iot --device <hardwareIdentifier> [--mqtt <url>] --rate <readings per second>
                         [--count <n>] [--secret <connection secret>] [--out-of-range <share 0..1>]
                         [--seed <integer>] [--topic-prefix <prefix>] [--state <dir>]

simulate-iot publishes to <prefix>/<hardwareIdentifier>/<dataType> (prefix careplane/iot) with --mqtt;
without it, it submits over HTTP as the enrolled device, for an IoT device linked to it.

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

/** The share of readings out of range when --out-of-range is not given: now and then, not constantly. */
const DEFAULT_OUT_OF_RANGE_SHARE = 0.05;

async function simulateIot(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      device: { type: 'string' },
      mqtt: { type: 'string' },
      rate: { type: 'string' },
      count: { type: 'string' },
      secret: { type: 'string' },
      'out-of-range': { type: 'string' },
      seed: { type: 'string' },
      'topic-prefix': { type: 'string', default: 'careplane/iot' },
      state: { type: 'string' },
    },
  });
  if (!values.device) throw new UsageError('simulate-iot needs --device <hardwareIdentifier>');
  if (values.rate === undefined) throw new UsageError('simulate-iot needs --rate <readings per second>');
  if (values.mqtt !== undefined && !/^(mqtts?|wss?|tcp|ssl):\/\//.test(values.mqtt)) {
    throw new UsageError(`Not an MQTT URL: ${values.mqtt}`);
  }
  if (/[#+]/.test(values.device) || values.device.includes('/')) {
    throw new UsageError('--device must not contain "/", "+" or "#"');
  }
  const rate = positiveNumber(values.rate, 'rate', 1, 100_000);
  let count: number | undefined;
  if (values.count !== undefined) {
    count = positiveNumber(values.count, 'count', 1);
    if (!Number.isInteger(count)) throw new UsageError('--count must be a whole number');
  }
  const share =
    values['out-of-range'] === undefined ? DEFAULT_OUT_OF_RANGE_SHARE : Number(values['out-of-range']);
  if (!(share >= 0 && share <= 1)) throw new UsageError('--out-of-range must be a share between 0 and 1');
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError('--seed must be an integer');

  const secret = values.secret ? { secret: values.secret } : {};
  let transport: ReadingsTransport;
  if (values.mqtt) {
    transport = await mqttTransport({
      url: values.mqtt,
      topicPrefix: values['topic-prefix'].replace(/\/+$/, ''),
      hardwareIdentifier: values.device,
      ...secret,
    });
  } else {
    // Over HTTP as the enrolled device, for an IoT device linked to it.
    const state = new AgentState(resolve(values.state ?? defaultStateDir()));
    const config = await state.readConfig();
    if (!config) {
      throw new UsageError(
        `Not enrolled (no configuration in ${state.dir}): run enroll first, or give --mqtt`,
      );
    }
    transport = await httpTransport({
      server: config.server,
      token: config.token,
      hardwareIdentifier: values.device,
      ...secret,
    });
  }
  const controller = new AbortController();
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    process.on(name, () => {
      // The first signal stops sending and waits for what is in flight; a second ends at once.
      if (controller.signal.aborted) process.exit(130);
      controller.abort();
    });
  }
  let reportedRefusal = false;
  const summary = await runSimulation({
    next: createReadingGenerator({ seed, outOfRangeShare: share }),
    transport,
    rate,
    ...(count === undefined ? {} : { count }),
    signal: controller.signal,
    onRefused: (dataType, error) => {
      if (reportedRefusal) return;
      reportedRefusal = true;
      console.error(`careplane-agent: ${dataType} readings refused: ${(error as Error).message}`);
    },
  });
  console.log(`simulate-iot ${values.device} (seed ${seed}): ${summaryLine(summary)}`);
  await transport.close(summary.unconfirmed > 0);
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  switch (command) {
    case 'enroll':
      return enroll(rest);
    case 'run':
      return run(rest);
    case 'simulate-iot':
      return simulateIot(rest);
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
  if (error instanceof Offline || error instanceof Refused || error instanceof NotLinked) {
    console.error(`careplane-agent: ${error.message}`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
