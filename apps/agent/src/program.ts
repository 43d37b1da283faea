// The careplane-agent commands: `enroll`, `run` and `simulate-iot`, each with --help, and what each mistake
// on the command line answers. main() returns the exit code: 0 done, 1 a failure said in one line (the server
// cannot be reached, refused, ...), 2 a command line it cannot take (one line, the synopsis and a pointer to
// --help, on stderr), 75 after a restart-agent job. See README.md ("The device agent").
import { resolve } from 'node:path';
import { runAgent } from './agent.js';
import { AgentApi, BadAnswer, Offline, Refused } from './api.js';
import {
  UsageError,
  asksForHelp,
  brokerUrl,
  dataTypes,
  integer,
  parseOptions,
  positiveNumber,
  serverUrl,
  share,
  wholeNumber,
} from './args.js';
import { MAX_JOB_WAIT_SECONDS } from './limits.js';
import { createReadingGenerator, type IotDataType } from './readings.js';
import {
  NotLinked,
  Unsupported,
  chooseDataTypes,
  httpTransport,
  linkedIotDevice,
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
  type AgentConfig,
} from './state.js';
import { COMMANDS, SYNOPSIS, USAGE, type Command } from './usage.js';
import { AGENT_VERSION } from './version.js';

/** The exit code after a `restart-agent` job: a supervisor (systemd `Restart=always`) starts it again. */
export const RESTART_EXIT_CODE = 75;
/** The exit code of a command line the agent cannot take. */
export const USAGE_EXIT_CODE = 2;

/** How long a stop waits for a running command before the process ends anyway. */
const STOP_GRACE_MS = 10_000;

/** Where the agent's lines go: stdout and stderr, or a test's lists. */
export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}
const consoleOutput: Output = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

/** A failure said in one line, exit code 1: the state directory cannot be used, the token is refused, ... */
export class Failure extends Error {}

/**
 * A command must end well inside the server's job lease (15 minutes, renewed by each report), or its job
 * would time out while it runs.
 */
const MAX_COMMAND_TIMEOUT_SECONDS = 600;

/** The state directory, its errors (not a directory, not writable, a damaged file) said in one line. */
async function openState(dir: string | undefined, options: { create: boolean }) {
  const state = new AgentState(resolve(dir ?? defaultStateDir()));
  let config: AgentConfig | null;
  try {
    if (options.create) await state.init();
    config = await state.readConfig();
  } catch (error) {
    throw new Failure(`The state directory ${state.dir} cannot be used: ${(error as Error).message}`);
  }
  if (config && (typeof config.server !== 'string' || typeof config.token !== 'string')) {
    throw new Failure(`${state.dir}/config.json is not the agent's configuration: enroll again`);
  }
  return { state, config };
}

async function enroll(args: string[], output: Output) {
  const values = parseOptions('enroll', args, {
    server: { type: 'string' },
    token: { type: 'string' },
    state: { type: 'string' },
    'allow-shell': { type: 'boolean', default: false },
    'allow-reboot': { type: 'boolean', default: false },
    'stats-interval': { type: 'string' },
    'command-timeout': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.server === undefined) throw new UsageError('missing --server <url>');
  if (!values.token) throw new UsageError('missing --token <device token>');
  const server = serverUrl('server', values.server);
  const statsIntervalSeconds = positiveNumber(
    'stats-interval',
    values['stats-interval'],
    DEFAULT_STATS_INTERVAL_SECONDS,
  );
  const commandTimeoutSeconds = positiveNumber(
    'command-timeout',
    values['command-timeout'],
    DEFAULT_COMMAND_TIMEOUT_SECONDS,
    MAX_COMMAND_TIMEOUT_SECONDS,
  );
  const { state } = await openState(values.state, { create: true });
  // The token is checked before it is stored.
  let me: { id: string; title: string };
  try {
    me = await new AgentApi(server.origin, values.token).me();
  } catch (error) {
    if (error instanceof Refused && error.status === 401) {
      throw new Failure(
        `${server.origin} refused the device token (401): check it, or have an admin issue the device a new one`,
      );
    }
    throw error;
  }
  if (typeof me?.id !== 'string') {
    throw new BadAnswer(`${server.origin} did not answer with a device: is it a Careplane server?`);
  }
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
  output.out(`Enrolled as "${me.title}" (${me.id}); state in ${state.dir}`);
  return 0;
}

async function run(args: string[], output: Output) {
  const values = parseOptions('run', args, {
    state: { type: 'string' },
    'poll-wait': { type: 'string' },
    retry: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const pollWaitSeconds =
    values['poll-wait'] === undefined
      ? 25
      : wholeNumber('poll-wait', values['poll-wait'], 1, MAX_JOB_WAIT_SECONDS);
  const retrySeconds = positiveNumber('retry', values.retry, 10);
  const { state, config } = await openState(values.state, { create: true });
  if (!config) throw new UsageError(`not enrolled (no configuration in ${state.dir}): run enroll first`);
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
    pollWaitSeconds,
    retrySeconds,
    signal: controller.signal,
    print: output.out,
  });
  return end === 'restart' ? RESTART_EXIT_CODE : 0;
}

/** The share of readings out of range when --out-of-range is not given: now and then, not constantly. */
const DEFAULT_OUT_OF_RANGE_SHARE = 0.05;

async function simulateIot(args: string[], output: Output) {
  const values = parseOptions('simulate-iot', args, {
    device: { type: 'string' },
    mqtt: { type: 'string' },
    rate: { type: 'string' },
    count: { type: 'string' },
    types: { type: 'string' },
    secret: { type: 'string' },
    'out-of-range': { type: 'string' },
    seed: { type: 'string' },
    'topic-prefix': { type: 'string', default: 'careplane/iot' },
    state: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (!values.device) throw new UsageError('missing --device <hardwareIdentifier>');
  if (values.rate === undefined) throw new UsageError('missing --rate <readings per second>');
  if (/[#+/]/.test(values.device)) throw new UsageError('--device must not contain "/", "+" or "#"');
  if (values.mqtt !== undefined) brokerUrl('mqtt', values.mqtt);
  const rate = positiveNumber('rate', values.rate, 1, 100_000);
  const count = values.count === undefined ? undefined : wholeNumber('count', values.count, 1);
  const requested: IotDataType[] | undefined =
    values.types === undefined ? undefined : dataTypes('types', values.types);
  const outOfRange =
    values['out-of-range'] === undefined
      ? DEFAULT_OUT_OF_RANGE_SHARE
      : share('out-of-range', values['out-of-range']);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : integer('seed', values.seed);
  const topicPrefix = values['topic-prefix'].replace(/\/+$/, '');
  if (values.mqtt !== undefined && (!topicPrefix || /[#+]/.test(topicPrefix))) {
    throw new UsageError('--topic-prefix must not be empty or contain "+" or "#"');
  }

  const secret = values.secret ? { secret: values.secret } : {};
  let transport: ReadingsTransport;
  /** Over MQTT, what the server says the device sends (the broker cannot tell). */
  let supported: readonly string[] | undefined;
  if (values.mqtt !== undefined) {
    if (requested === undefined) {
      const { config } = await openState(values.state, { create: false });
      if (!config) {
        throw new UsageError(
          'over MQTT the broker cannot tell which data types the device sends: name them with --types, ' +
            'or enroll this agent so that it asks the server',
        );
      }
      supported = (
        await linkedIotDevice({
          server: config.server,
          token: config.token,
          hardwareIdentifier: values.device,
        })
      ).supportedDataTypes;
    }
    transport = await mqttTransport({
      url: values.mqtt,
      topicPrefix,
      hardwareIdentifier: values.device,
      ...secret,
    });
  } else {
    // Over HTTP as the enrolled device, for an IoT device linked to it.
    const { state, config } = await openState(values.state, { create: false });
    if (!config) {
      throw new UsageError(
        `not enrolled (no configuration in ${state.dir}): run enroll first, or give --mqtt`,
      );
    }
    transport = await httpTransport({
      server: config.server,
      token: config.token,
      hardwareIdentifier: values.device,
      ...secret,
    });
  }
  let types: IotDataType[];
  try {
    types = chooseDataTypes({
      hardwareIdentifier: values.device,
      supported: supported ?? transport.supportedDataTypes,
      requested,
    });
  } catch (error) {
    await transport.close(true);
    throw error;
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
    next: createReadingGenerator({ seed, outOfRangeShare: outOfRange, types }),
    transport,
    rate,
    ...(count === undefined ? {} : { count }),
    signal: controller.signal,
    onRefused: (dataType, error) => {
      if (reportedRefusal) return;
      reportedRefusal = true;
      output.err(`careplane-agent: ${dataType} readings refused: ${(error as Error).message}`);
    },
  });
  output.out(`simulate-iot ${values.device} (seed ${seed}; ${types.join(', ')}): ${summaryLine(summary)}`);
  await transport.close(summary.unconfirmed > 0);
  return 0;
}

const commands: Record<Command, (args: string[], output: Output) => Promise<number>> = {
  enroll,
  run,
  'simulate-iot': simulateIot,
};

const isCommand = (name: string): name is Command => (COMMANDS as readonly string[]).includes(name);

async function dispatch(argv: string[], output: Output): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('no command given');
  if (isCommand(command)) {
    if (asksForHelp(rest)) {
      output.out(USAGE[command]);
      return 0;
    }
    try {
      return await commands[command](rest, output);
    } catch (error) {
      // A usage error inside a command goes with that command's usage.
      if (error instanceof UsageError && !error.command) throw new UsageError(error.message, command);
      throw error;
    }
  }
  switch (command) {
    case '--version':
    case '-V':
    case 'version':
      output.out(AGENT_VERSION);
      return 0;
    case '--help':
    case '-h':
    case 'help': {
      const topic = rest[0];
      if (topic === undefined || topic === '--help' || topic === '-h') output.out(USAGE.agent);
      else if (isCommand(topic)) output.out(USAGE[topic]);
      else throw new UsageError(`no help on ${JSON.stringify(topic)}: not a command`);
      return 0;
    }
    default:
      throw new UsageError(
        command.startsWith('-') ? `unknown option ${command}` : `unknown command ${JSON.stringify(command)}`,
      );
  }
}

/**
 * Runs one command line and answers its exit code. A usage error and a known failure are each said in one
 * line on stderr, never with a stack; anything else is unexpected and rejects, for the caller to show whole.
 */
export async function main(argv: string[], output: Output = consoleOutput): Promise<number> {
  try {
    return await dispatch(argv, output);
  } catch (error) {
    if (error instanceof UsageError) {
      const command = error.command && isCommand(error.command) ? error.command : undefined;
      output.err(`careplane-agent${command ? ` ${command}` : ''}: ${error.message}`);
      output.err(`Usage: ${SYNOPSIS[command ?? 'agent']}`);
      output.err(`Run \`careplane-agent ${command ? `${command} ` : ''}--help\` for more.`);
      return USAGE_EXIT_CODE;
    }
    if (
      error instanceof Offline ||
      error instanceof Refused ||
      error instanceof BadAnswer ||
      error instanceof NotLinked ||
      error instanceof Unsupported ||
      error instanceof Failure
    ) {
      output.err(`careplane-agent: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
