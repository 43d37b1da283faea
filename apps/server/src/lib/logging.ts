// What the server logs, and what it never does: one JSON line per event with the request's id (the caller's
// `x-request-id` when it is a sane one, so a proxy's id follows the request; else a new UUID, sent back in
// the same header), and no secret: credentials in headers are redacted, and so are the values of query
// parameters that carry one (the live stream's ticket, enrollment codes, tokens) and the values a failed
// database statement was given (a token looked up, a name, a reading).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
/** Query parameters whose values are credentials. */
const SECRET_PARAMETERS = /^(ticket|token|code|secret|access_token|refresh_token|id_token|auth_req_id)$/i;
export const REDACTED = '[redacted]';

export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(given) ? given[0] : given;
  return value && SANE_REQUEST_ID.test(value) ? value : randomUUID();
}

/** The URL as logged: path and query, with the values of credential parameters replaced. */
export function loggableUrl(url: string | undefined): string {
  if (!url) return '';
  const question = url.indexOf('?');
  if (question < 0) return url;
  const query = new URLSearchParams(url.slice(question + 1));
  for (const key of [...query.keys()]) if (SECRET_PARAMETERS.test(key)) query.set(key, REDACTED);
  return `${url.slice(0, question)}?${query.toString()}`;
}

/**
 * An error as logged: its type, message, stack, own properties and cause, as pino logs errors, but without the
 * values of a failed statement. drizzle writes them into its error's message ("Failed query: …\nparams: …") and
 * keeps them on it, as PGlite does on its own error; they are replaced, and the statement's text (placeholders
 * only) stays.
 */
export function loggableError(error: Error, depth = 0): LoggedError {
  const logged: LoggedError = {
    type: error.constructor.name,
    message: error.message,
    stack: error.stack ?? '',
  };
  for (const [key, value] of Object.entries(error)) if (!(key in logged)) logged[key] = value;
  if (Object.hasOwn(error, 'params')) {
    logged.params = REDACTED;
    delete logged.queryOptions;
    const values = error.message.indexOf('\nparams: ');
    if (values >= 0) {
      const message = error.message.slice(0, values);
      logged.message = message;
      logged.stack = logged.stack.replace(error.message, message);
    }
  }
  if (error.cause !== undefined) {
    logged.cause =
      error.cause instanceof Error && depth < 5 ? loggableError(error.cause, depth + 1) : error.cause;
  }
  return logged;
}

/**
 * An error in one line for a warning's `reason`: its message, without a failed statement's values (a batch of
 * readings is health data, and a warning repeats while the database is away).
 */
export function loggableReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const logged = loggableError(error);
  const cause = logged.cause as LoggedError | undefined;
  return `${logged.type}: ${logged.message}${cause?.message ? ` (${cause.message})` : ''}`;
}

interface LoggedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

export function loggerOptions(level: string): Exclude<NonNullable<FastifyServerOptions['logger']>, boolean> {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-connection-secret"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.secret',
        '*.connectionSecret',
        '*.token',
        '*.enrollmentCode',
      ],
      censor: REDACTED,
    },
    serializers: {
      // Anything thrown can be logged as an error: a value that is not one is written as its text.
      err: (error: Error) =>
        error instanceof Error
          ? loggableError(error)
          : { type: typeof error, message: String(error), stack: '' },
      req: (request: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
        method: request.method,
        url: loggableUrl(request.url),
        remoteAddress: request.ip ?? request.socket?.remoteAddress,
      }),
    },
  };
}
