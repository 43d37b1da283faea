// What an operator reads when the server cannot start: one sentence naming the setting to put right, not a
// stack. A configuration that does not parse, an embedded database another process holds, a database that
// cannot be reached, an encryption key that is none or not the one the keys were sealed with, a port in use.
// Anything else is a fault worth its stack, and is left to crash as it is.
import { ConfigurationError } from '@/config.js';
import { SigningKeysLocked } from '@/auth-server/keys.js';
import { EmbeddedDatabaseBusy } from '@/db/embedded-lock.js';
import { SecretBoxError } from '@/lib/secret-box.js';

/** The database could not be opened at start (unreachable, unknown, refused, or its migration failed). */
export class DatabaseUnavailable extends Error {
  constructor(where: string, cause: unknown) {
    const reason = reasonOf(cause);
    // A reason that ends as a question or a sentence gets no second stop.
    super(`The database ${where} cannot be opened: ${reason}${/[.?!]$/.test(reason) ? '' : '.'}`, { cause });
    this.name = 'DatabaseUnavailable';
  }
}

/** "postgres://careplane:***@db:5432/careplane", or the embedded database's folder. */
export function databaseWhere(databaseUrl: string | undefined, dataDir: string) {
  if (!databaseUrl) return `in ${dataDir} (embedded)`;
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return `at DATABASE_URL ${url.toString()}`;
  } catch {
    return 'at DATABASE_URL';
  }
}

const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';

/** The driver's words, with what to do for the usual ones. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  switch (codeOf(error)) {
    case 'ECONNREFUSED':
      return `nothing answers there (${message}); is PostgreSQL running, on that host and port?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name is not known (${message})`;
    case 'ETIMEDOUT':
      return `the connection timed out (${message})`;
    case '3D000':
      return `${message}; create it first (createdb), or name another`;
    case '28P01':
    case '28000':
      return `${message}; check the user name and password`;
    default:
      return message;
  }
}

/** The sentence for a failure an operator can put right, or undefined for a fault. */
export function startupFailureMessage(error: unknown, port?: number): string | undefined {
  if (
    error instanceof ConfigurationError ||
    error instanceof EmbeddedDatabaseBusy ||
    error instanceof SigningKeysLocked ||
    // At start, only the encryption key itself (ENCRYPTION_KEY, ENCRYPTION_KEY_FILE) can be wrong.
    error instanceof SecretBoxError ||
    error instanceof DatabaseUnavailable
  ) {
    return error.message;
  }
  const which = port === undefined ? 'The port' : `Port ${port}`;
  if (codeOf(error) === 'EADDRINUSE') {
    return `${which} is in use by another process: stop it, or start with another PORT.`;
  }
  if (
    codeOf(error) === 'EACCES' &&
    error instanceof Error &&
    'syscall' in error &&
    error.syscall === 'listen'
  ) {
    return `${which} may not be opened by this user: choose a PORT above 1023.`;
  }
  return undefined;
}
