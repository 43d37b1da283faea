// The embedded database's own thread: PGlite runs here, off the server's event loop (decision 088).
//
// The server's thread sends each statement as a message and goes on with its HTTP work while the database runs
// it; PGlite's work and the server's no longer take turns on one core, nor evict each other's code and data from
// its caches between two statements. What runs here is what ran in the server's thread before: the same PGlite,
// the same text parsers, every data statement prepared once (pglite-statements.ts), transactions under PGlite's
// own lock. This module imports nothing through the `@/` alias: it is loaded by a worker, from the built
// dist/pglite-thread.js or from its source through tsx.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, messages, type Results, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { TEXT_TYPES } from './pglite-drizzle.js';
import { PgliteStatements } from './pglite-statements.js';
import type { EmbeddedOptions, ErrorFields, Reply, Request } from './pglite-protocol.js';

const BYTEA_OID = 17;

/**
 * bytea in PGlite's text protocol, converted by Buffer in one step: PGlite's own converters go through a string
 * per byte (about 300 ms and hundreds of MB per MiB), which froze the server during document uploads.
 */
const byteaToHex = (value: Uint8Array): string =>
  `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;

/** bytea read into a buffer of its own, so that it crosses to the server's thread by transfer, not by copy. */
const byteaFromHex = (text: string): Uint8Array => {
  const hex = text.slice(2);
  const bytes = new Uint8Array(new ArrayBuffer(hex.length / 2));
  Buffer.from(bytes.buffer).write(hex, 'hex');
  return bytes;
};

if (!parentPort) throw new Error('pglite-thread.ts runs in a worker thread');
const port = parentPort;
const options = workerData as EmbeddedOptions;

/** An error as the server's thread rebuilds it: the database's fields (code, constraint, detail…) kept. */
function fieldsOf(error: unknown): ErrorFields {
  if (!(error instanceof Error)) return { message: String(error), stack: '', database: false, fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    // A statement's options may hold functions; its text and values are kept, as PGlite keeps them.
    if (key !== 'queryOptions' && typeof value !== 'function') fields[key] = value;
  }
  return {
    message: error.message,
    stack: error.stack ?? '',
    database: error instanceof messages.DatabaseError,
    fields,
  };
}

/** The buffers of a result's bytea values, handed over instead of copied. */
function buffersOf(results: Results<unknown>): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const row of results.rows) {
    const values: unknown[] = Array.isArray(row) ? row : Object.values(row as object);
    for (const value of values) {
      if (value instanceof Uint8Array && value.byteLength === value.buffer.byteLength && value.byteLength > 0)
        buffers.push(value.buffer as ArrayBuffer);
    }
  }
  return buffers;
}

const post = (reply: Reply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

const client = await PGlite.create({
  ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  ...(options.loadDataDir ? { loadDataDir: new Blob([options.loadDataDir]) } : {}),
  extensions: { pg_trgm },
  serializers: { [BYTEA_OID]: byteaToHex },
  // Timestamps, dates and intervals as text, as drizzle reads them (pglite-drizzle.ts).
  parsers: { ...TEXT_TYPES, [BYTEA_OID]: byteaFromHex },
});
const statements = new PgliteStatements(client);

interface OpenTransaction {
  query: Transaction['query'];
  /** Lets PGlite's callback return (commit) or throw (rollback). */
  end: (outcome: 'commit' | 'rollback') => void;
  /** Settles when PGlite has ended it: undefined once committed or rolled back as asked, else the error. */
  outcome: Promise<Error | undefined>;
}
/** By the id of the message that began each; the server's thread sends its statements with that id. */
const transactions = new Map<number, OpenTransaction>();
const listeners = new Map<number, Promise<() => Promise<void>>>();
/** Thrown inside PGlite's transaction so that PGlite rolls it back. */
const ROLLBACK = new Error('rolled back as the server asked');

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/**
 * A transaction held open across messages: PGlite's callback waits until the server's thread ends it. Other
 * statements wait for PGlite's lock meanwhile, as they did in one thread.
 */
function begin(): Promise<OpenTransaction> {
  return new Promise((opened, failed) => {
    let end!: OpenTransaction['end'];
    const ended = new Promise<'commit' | 'rollback'>((resolve) => (end = resolve));
    const outcome: Promise<Error | undefined> = client
      .transaction(async (tx) => {
        opened({ query: statements.inTransaction(tx), end, outcome });
        if ((await ended) === 'rollback') throw ROLLBACK;
      })
      .then(
        () => undefined,
        (error: unknown) => (error === ROLLBACK ? undefined : asError(error)),
      );
    // BEGIN itself failed: the callback never ran (a promise settles once, so after `opened` this is nothing).
    void outcome.then((error) => failed(error ?? new Error('Transaction is closed')));
  });
}

async function answer(request: Request): Promise<void> {
  const { id } = request;
  try {
    switch (request.type) {
      case 'query': {
        const run = request.tx === undefined ? statements.query : transactions.get(request.tx)?.query;
        if (!run) throw new Error('Transaction is closed');
        const results = await run(request.text, request.params, request.options);
        post({ id, ok: true, value: results }, buffersOf(results));
        return;
      }
      case 'begin': {
        transactions.set(id, await begin());
        post({ id, ok: true, value: id });
        return;
      }
      case 'end': {
        const open = transactions.get(request.tx);
        transactions.delete(request.tx);
        if (!open) throw new Error('Transaction is closed');
        open.end(request.outcome);
        const error = await open.outcome;
        if (error !== undefined) throw error;
        post({ id, ok: true, value: null });
        return;
      }
      case 'listen': {
        const unlisten = client.listen(request.channel, (payload) =>
          post({ id: request.id, notification: payload }),
        );
        listeners.set(id, unlisten);
        await unlisten;
        post({ id, ok: true, value: null });
        return;
      }
      case 'unlisten': {
        const listening = listeners.get(request.listener);
        listeners.delete(request.listener);
        const stop = await listening;
        await stop?.();
        post({ id, ok: true, value: null });
        return;
      }
      case 'dump': {
        const file = await client.dumpDataDir(request.compression);
        const bytes = await file.arrayBuffer();
        post({ id, ok: true, value: bytes }, [bytes]);
        return;
      }
      case 'close': {
        await client.close();
        post({ id, ok: true, value: null });
        port.close();
        return;
      }
    }
  } catch (error) {
    post({ id, ok: false, error: fieldsOf(error) });
  }
}
port.on('message', (request: Request) => void answer(request));
post({ id: 0, ok: true, value: 'ready' });
