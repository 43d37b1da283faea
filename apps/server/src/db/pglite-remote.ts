// The embedded database as the server's thread sees it: PGlite on a thread of its own (pglite-thread.ts,
// decision 088), reached by messages. It answers the part of PGlite's interface the server uses (query,
// transaction, listen, dumpDataDir, close) with PGlite's own results and errors: a statement's rows, a
// DatabaseError with its code, constraint and detail, "PGlite is closed" once closed or when the thread is gone.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { messages, type QueryOptions, type Results } from '@electric-sql/pglite';
import { withoutRedundantParsers } from './pglite-drizzle.js';
import type { EmbeddedOptions, ErrorFields, PlainQueryOptions, Reply, Request } from './pglite-protocol.js';

type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

/** What a transaction's callback gets (as drizzle's PGlite session uses it). */
export interface EmbeddedTransaction {
  query: Query;
  readonly closed: boolean;
}

/** Built, the thread is dist/pglite-thread.js beside this code; from source, tsx loads pglite-thread.ts. */
function startThread(options: EmbeddedOptions): Worker {
  const transferList = options.loadDataDir ? [options.loadDataDir] : [];
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./pglite-thread.js', import.meta.url), { workerData: options, transferList });
  // tsx's ES module API, found through its package.json (its CommonJS build cannot register a loader there).
  const require = createRequire(import.meta.url);
  const manifest = require('tsx/package.json') as {
    exports: Record<string, { import: { default: string } }>;
  };
  const tsx = new URL(
    manifest.exports['./esm/api']!.import.default,
    pathToFileURL(require.resolve('tsx/package.json')),
  ).href;
  const entry = new URL('./pglite-thread.ts', import.meta.url).href;
  const load = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return new Worker(load, { eval: true, workerData: options, transferList });
}

const closedError = (cause?: unknown) =>
  new Error('PGlite is closed', cause === undefined ? undefined : { cause });

/** The error the thread sent, as PGlite raised it: a DatabaseError keeps its class and every field. */
function rebuilt({ message, database, fields }: ErrorFields): Error {
  const error = database ? new messages.DatabaseError(message, 0, 'error') : new Error(message);
  return Object.assign(error, fields);
}

/** The options a statement can carry across: drizzle's text parsers are the thread's own already. */
function plain(options: QueryOptions | undefined): PlainQueryOptions | undefined {
  const rest = withoutRedundantParsers(options);
  if (!rest) return undefined;
  const { rowMode, ...others } = rest;
  const unsupported = Object.entries(others).filter(([, value]) => value !== undefined);
  if (unsupported.length > 0)
    throw new Error(`The embedded database takes no ${unsupported.map(([key]) => key).join(', ')} option`);
  return rowMode ? { rowMode } : undefined;
}

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

type Message = Request extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

export class EmbeddedDatabase {
  readonly #worker: Worker;
  #next = 1;
  readonly #waiting = new Map<number, Waiting>();
  readonly #listeners = new Map<number, (payload: string) => void>();
  #closed: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: Reply) => this.#receive(reply));
    worker.on('error', (error) => this.#lost(error));
    worker.on('exit', (code) =>
      this.#lost(new Error(`The embedded database's thread stopped (exit code ${code})`)),
    );
  }

  /** Starts the thread and waits until PGlite has opened its database there. */
  static async open(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
    const database = new EmbeddedDatabase(startThread(options));
    await new Promise((resolve, reject) => database.#waiting.set(0, { resolve, reject }));
    return database;
  }

  /** A statement on its own (prepared in the thread when it is a data statement). */
  readonly query: Query = (text, params = [], options) =>
    this.#call({ type: 'query', text, params, options: plain(options) });

  /**
   * The callback's statements in one transaction: committed when it returns, rolled back when it throws. Other
   * statements wait meanwhile, as on one PGlite.
   */
  async transaction<T>(callback: (tx: EmbeddedTransaction) => Promise<T>): Promise<T> {
    const id = await this.#call<number>({ type: 'begin' });
    let closed = false;
    const tx: EmbeddedTransaction = {
      query: (text, params = [], options) =>
        closed
          ? Promise.reject(new Error('Transaction is closed'))
          : this.#call({ type: 'query', text, params, options: plain(options), tx: id }),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      closed = true;
      // The callback's error is the one to tell; a rollback that fails too leaves nothing to keep.
      await this.#call({ type: 'end', tx: id, outcome: 'rollback' }).catch(() => undefined);
      throw error;
    }
    closed = true;
    await this.#call({ type: 'end', tx: id, outcome: 'commit' });
    return result;
  }

  /** Hears NOTIFY on a channel until the returned function is called. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const id = this.#next++;
    this.#listeners.set(id, callback);
    try {
      await this.#send(id, { type: 'listen', channel });
    } catch (error) {
      this.#listeners.delete(id);
      throw error;
    }
    return async () => {
      if (!this.#listeners.delete(id) || this.#closed) return;
      await this.#call({ type: 'unlisten', listener: id });
    };
  }

  /** PGlite's dump of its data folder (a tar file). */
  async dumpDataDir(compression: 'none' | 'gzip' | 'auto' = 'auto'): Promise<Blob> {
    return new Blob([await this.#call<ArrayBuffer>({ type: 'dump', compression })]);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#call({ type: 'close' });
    } finally {
      this.#closed = closedError();
      this.#listeners.clear();
      await this.#worker.terminate();
    }
  }

  #call<T>(message: Message): Promise<T> {
    return this.#send(this.#next++, message);
  }

  #send<T>(id: number, message: Message): Promise<T> {
    if (this.#closed) return Promise.reject(this.#closed);
    return new Promise<T>((resolve, reject) => {
      this.#worker.postMessage({ ...message, id });
      // The thread keeps the process alive only while a statement is on its way, as a socket with a query would.
      if (this.#waiting.size === 0) this.#worker.ref();
      this.#waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
    });
  }

  #receive(reply: Reply): void {
    if ('notification' in reply) {
      this.#listeners.get(reply.id)?.(reply.notification);
      return;
    }
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    if (this.#waiting.size === 0) this.#worker.unref();
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(rebuilt(reply.error));
  }

  /** The thread failed or stopped: whatever waited hears it, and every later statement is refused. */
  #lost(cause: Error): void {
    if (!this.#closed) this.#closed = closedError(cause);
    // While it was opening, the cause itself is the answer (a data folder PGlite cannot open, say).
    const error = this.#waiting.has(0) ? cause : this.#closed;
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
    this.#listeners.clear();
  }
}
