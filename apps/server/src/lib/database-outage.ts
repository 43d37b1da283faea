// When the database cannot be reached, every request that needs it answers 503 with Retry-After instead of a
// 500, and the outage is logged once when it starts and once when it ends, not once per request. A probe
// looks every few seconds while it lasts.

/** Seconds a client waits before trying again while the database cannot be reached. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;
/** What a request is told meanwhile (localised where it is answered). */
export const DATABASE_AWAY_MESSAGE = 'The database is not available right now: try again shortly';

/** Node's socket errors of a server that cannot be reached. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or takes no connections: class 08, shutdowns, a database dropped,
 * too many connections, and what only a new connection is told (the database or the role is not there, or
 * connections to it are not allowed now).
 */
const UNAVAILABLE_STATES = /^(08\w{3}|57P0[1-4]|53300|3D000|28000|28P01)$/;
/** 55000 is "object not in prerequisite state": an outage only when a connection is refused with it. */
const NOT_ACCEPTING_CONNECTIONS = (code: string, message: string) =>
  code === '55000' && /not currently accepting connections/i.test(message);

/** What node-postgres and PGlite say when a connection is lost or never made. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed|PGlite is closed/i;

const codeOf = (error: object) => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * An error the HTTP layer already found to be the client's (4xx), such as a body its sender cut off: Fastify's
 * body reader marks it 400 and keeps the socket's code (ECONNRESET), which says nothing about the database.
 */
const clientsOwn = (error: unknown) => {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
};

/** Whether the error (or one it wraps) says the database cannot be reached at all. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (clientsOwn(error)) return false;
  let current = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const code = codeOf(current);
    if (code && (SOCKET_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (code && current instanceof Error && NOT_ACCEPTING_CONNECTIONS(code, current.message)) return true;
    if (current instanceof Error && UNAVAILABLE_MESSAGES.test(current.message)) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export interface OutageWatchOptions {
  /** Succeeds once the database answers again. */
  probe: () => Promise<unknown>;
  log: {
    error: (object: object, message: string) => void;
    info: (object: object, message: string) => void;
  };
  probeIntervalMs?: number;
}

export interface OutageWatch {
  /** Tells the watch a request found the database unreachable; logs only the first of an outage. */
  failed(error: unknown): void;
  /** Whether an outage is going on (from the first failure until a probe succeeds). */
  readonly down: boolean;
  close(): void;
}

export function createOutageWatch({ probe, log, probeIntervalMs = 2_000 }: OutageWatchOptions): OutageWatch {
  let since: number | null = null;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => void look(), probeIntervalMs);
    timer.unref();
  };
  const look = async () => {
    try {
      await probe();
    } catch {
      schedule();
      return;
    }
    if (since !== null) {
      log.info(
        { downSeconds: Math.round((Date.now() - since) / 1000), failedRequests: failures },
        'the database answers again',
      );
    }
    since = null;
    failures = 0;
  };

  return {
    failed(error) {
      failures += 1;
      if (since !== null) return;
      since = Date.now();
      log.error({ err: error }, 'the database cannot be reached: requests answer 503 until it is back');
      schedule();
    },
    get down() {
      return since !== null;
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
