// The careplane command: identities, the command-line authenticator and starting the server.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@/config.js';
import {
  approveCommand,
  enrollCommand,
  pendingCommand,
  scanCommand,
  type ClientOptions,
} from './authenticator.js';
import { CliError, terminalIo, type CliIo } from './io.js';
import { AuthenticatorStoreError } from '@/lib/authenticator-store.js';

export const usage = `Usage: careplane <command> [options]

Identities (opens the database like the server: DATABASE_URL, or the embedded one in DATA_DIR while no
server holds it):
  careplane identity create --username <name@domain> --first-name <name> --last-name <name>
                            [--email <address>] [--phone <number>] [--title <title>]
                            [--assurance low|substantial|high] [--roles admin,master,public]
      Creates a sign-in identity and prints its one-time enrollment code and link.

Authenticator (keys kept in a store file, mode 0600):
  careplane authenticator enroll --store <file> [--issuer <url>] [--label <text>] <code-or-link>
      Makes a key and enrolls it with an enrollment code or link.
  careplane authenticator pending --store <file> [--username <u>]
      Lists the identity's pending requests, newest first: the code each shows, what asks, the time left.
  careplane authenticator approve --store <file> [--username <u>] --code <code> [--wait <seconds>] [--deny]
      Approves (or denies) the one pending request that shows the code your screen shows, for example
      --code "AB 12" (case and spaces do not count), waiting up to --wait seconds for it (default 60).
      Without --code at a terminal it lists the pending requests and asks for the code; elsewhere it
      refuses, since a request may be a stranger's. Exits with 2 when nothing was answered.
  careplane authenticator deny --store <file> [--username <u>] --code <code> [--wait <seconds>]
      The same as approve --deny.
  careplane authenticator scan --store <file> --username <u> <cbUrl> [--approve]
      Claims a QR sign-in (the link of the QR code); --approve also approves the sign-in.

Backup (the embedded database in DATA_DIR, with its encryption key; decision 039):
  careplane backup <file> [--force]
      Writes the database and the files beside it to one archive (mode 0600). Refused while a server holds
      the database: stop it first. --force replaces an existing file. Exit 4 when refused.
  careplane restore <file> [--force]
      Checks the whole archive, then restores it into DATA_DIR, which must be empty or new (--force replaces
      it); nothing changes when anything fails. Exit 3 for a damaged, foreign or newer-format file, 4 when
      refused. With DATABASE_URL both print the pg_dump / pg_restore commands instead and exit 2.

Server:
  careplane start [--only auth|api]
      Starts the server with every part, or only the auth server, or only the API (its tokens then come
      from the auth server at AUTH_ISSUER / AUTH_JWKS_URL).

  careplane --help`;

export interface RunContext {
  io?: CliIo;
  env?: NodeJS.ProcessEnv;
  /** For tests: fetch replacement and polling pace of the authenticator commands. */
  client?: ClientOptions;
}

const positiveSeconds = (value: string | undefined, fallback: number) => {
  if (value === undefined) return fallback;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600) {
    throw new CliError('--wait must be a number of seconds between 0 and 3600');
  }
  return seconds;
};

const required = (value: string | undefined, flag: string) => {
  if (!value) throw new CliError(`${flag} is required`);
  return value;
};

/** Resolves a path against the folder the command was started in (npm sets INIT_CWD). */
const fromStartFolder = (env: NodeJS.ProcessEnv, file: string) =>
  path.resolve(env.INIT_CWD ?? process.cwd(), file);

/**
 * Runs one command. Returns the exit code, or null for `start` (the server keeps running until a signal).
 */
export async function run(argv: string[], context: RunContext = {}): Promise<number | null> {
  const io = context.io ?? terminalIo;
  const env = context.env ?? process.env;
  const clientOptions = context.client ?? {};
  const [command, sub, ...rest] = argv;
  try {
    if (!command || command === '--help' || command === '-h' || command === 'help') {
      io.out(usage);
      return 0;
    }
    if (command === 'identity' && sub === 'create') {
      const { values } = parseArgs({
        args: rest,
        options: {
          username: { type: 'string' },
          'first-name': { type: 'string' },
          'last-name': { type: 'string' },
          email: { type: 'string' },
          phone: { type: 'string' },
          title: { type: 'string' },
          assurance: { type: 'string' },
          roles: { type: 'string' },
        },
        strict: true,
      });
      const { identityCreateCommand } = await import('./identity.js');
      await identityCreateCommand(
        {
          username: required(values.username, '--username'),
          firstName: required(values['first-name'], '--first-name'),
          lastName: required(values['last-name'], '--last-name'),
          email: values.email,
          phoneNumber: values.phone,
          title: values.title,
          assuranceLevel: values.assurance,
          roles: values.roles
            ?.split(',')
            .map((role) => role.trim())
            .filter(Boolean),
        },
        io,
        { config: loadConfig(env) },
      );
      return 0;
    }
    if (command === 'authenticator' && sub === 'enroll') {
      const { values, positionals } = parseArgs({
        args: rest,
        options: { store: { type: 'string' }, issuer: { type: 'string' }, label: { type: 'string' } },
        allowPositionals: true,
        strict: true,
      });
      if (positionals.length !== 1) throw new CliError('Give one enrollment code or link');
      await enrollCommand(
        {
          ...clientOptions,
          store: fromStartFolder(env, required(values.store, '--store')),
          input: positionals[0]!,
          issuer:
            values.issuer ?? (env.AUTH_ISSUER || env.PUBLIC_URL ? loadConfig(env).auth.issuer : undefined),
          label: values.label,
        },
        io,
      );
      return 0;
    }
    if (command === 'authenticator' && sub === 'pending') {
      const { values } = parseArgs({
        args: rest,
        options: { store: { type: 'string' }, username: { type: 'string' } },
        strict: true,
      });
      return await pendingCommand(
        {
          ...clientOptions,
          store: fromStartFolder(env, required(values.store, '--store')),
          username: values.username,
        },
        io,
      );
    }
    if (command === 'authenticator' && (sub === 'approve' || sub === 'deny')) {
      const { values } = parseArgs({
        args: rest,
        options: {
          store: { type: 'string' },
          username: { type: 'string' },
          code: { type: 'string' },
          wait: { type: 'string' },
          ...(sub === 'approve' ? { deny: { type: 'boolean' as const } } : {}),
        },
        strict: true,
      });
      return await approveCommand(
        {
          ...clientOptions,
          store: fromStartFolder(env, required(values.store, '--store')),
          username: values.username,
          code: values.code,
          wait: positiveSeconds(values.wait, 60),
          deny: sub === 'deny' || values.deny === true,
        },
        io,
      );
    }
    if (command === 'authenticator' && sub === 'scan') {
      const { values, positionals } = parseArgs({
        args: rest,
        options: { store: { type: 'string' }, username: { type: 'string' }, approve: { type: 'boolean' } },
        allowPositionals: true,
        strict: true,
      });
      if (positionals.length !== 1) throw new CliError('Give the link of the QR code (cbUrl)');
      return await scanCommand(
        {
          ...clientOptions,
          store: fromStartFolder(env, required(values.store, '--store')),
          username: required(values.username, '--username'),
          link: positionals[0]!,
          approve: values.approve ?? false,
        },
        io,
      );
    }
    if (command === 'backup' || command === 'restore') {
      const { values, positionals } = parseArgs({
        args: sub === undefined ? [] : [sub, ...rest],
        options: { force: { type: 'boolean' } },
        allowPositionals: true,
        strict: true,
      });
      if (positionals.length !== 1) throw new CliError(`Give one file: careplane ${command} <file>`);
      const { backupCommand, restoreCommand } = await import('./backup.js');
      const options = { file: fromStartFolder(env, positionals[0]!), force: values.force ?? false };
      return command === 'backup'
        ? await backupCommand(options, io, loadConfig(env))
        : await restoreCommand(options, io, loadConfig(env));
    }
    if (command === 'start') {
      const { values } = parseArgs({
        args: sub === undefined ? [] : [sub, ...rest],
        options: { only: { type: 'string' } },
        strict: true,
      });
      if (values.only !== undefined && values.only !== 'auth' && values.only !== 'api') {
        throw new CliError('--only takes auth or api');
      }
      const { closeOnSignals, startServer } = await import('@/server.js');
      const config = loadConfig(env);
      const server = await startServer(config, {
        part: values.only ?? 'all',
        cwd: env.INIT_CWD ?? process.cwd(),
      });
      closeOnSignals(server, { drainSeconds: config.shutdownDrainSeconds });
      return null;
    }
    throw new CliError(`Unknown command: ${argv.join(' ')}\n\n${usage}`);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(error.message);
      return error.exitCode;
    }
    if (error instanceof AuthenticatorStoreError) {
      io.err(error.message);
      return 1;
    }
    // Argument errors of parseArgs name the flag; anything else is a bug worth its stack.
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      io.err(`${error.message}\n\nRun careplane --help for the commands.`);
      return 1;
    }
    // Settings, a database or a port an operator can put right (startup-failure.ts).
    const { startupFailureMessage } = await import('@/startup-failure.js');
    const message = startupFailureMessage(error);
    if (message !== undefined) {
      io.err(message);
      return 1;
    }
    throw error;
  }
}
