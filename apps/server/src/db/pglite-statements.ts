// Statements on the embedded database, each parsed and planned once.
//
// PGlite's `query` sends every statement through six calls into the database (parse, describe, bind, describe,
// execute, sync), and the database parses, analyses and plans its text each time. For the short statements the
// server sends most (a token read, a row update, a page of a list), that is most of their cost: a primary-key
// select measured 586 µs that way and 168 µs prepared, an update 407 µs and 144 µs. So the first time a text is
// seen it is prepared under a name of its own (parse + describe, one call), and from then on each run is one call
// (bind, execute, sync), as node-postgres does with a named statement on PostgreSQL.
//
// The answers are PGlite's own: the same result parser (`parseResults`), the same parameter serializers (by the
// types the database inferred), the same error (a DatabaseError carrying the query, its parameters and options),
// under the same locks, and written to disk after a statement outside a transaction as PGlite does. Only data
// statements are prepared (select, insert, update, delete, with); anything else, and any call that brings a blob,
// its own parameter types or serializers, goes through `query` as it came. At most MAX_PREPARED texts are kept:
// the least recently used is closed when another is prepared.
import {
  parse,
  protocol,
  type PGlite,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';

const { serialize } = protocol;
type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

/** How many statement texts stay prepared on one database (the same bound as the list statements' names). */
export const MAX_PREPARED = 500;

const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;
/** Errors after which a prepared statement is gone or no longer fits its table: prepared again, once. */
const STALE = new Set(['26000', '0A000']);
/** Names are unique in the process, so two sets of statements can share one database. */
let sequence = 0;

interface Prepared {
  name: string;
  /** The parameter types the database inferred: they pick each value's serializer, as PGlite's `query` does. */
  paramTypes: number[];
  /** The row description from the describe step; undefined for a statement that returns no rows. */
  rowDescription: BackendMessage | undefined;
}

type Query = Transaction['query'];

const preparable = (text: string, options: QueryOptions | undefined) =>
  DATA_STATEMENT.test(text) && !options?.blob && !options?.paramTypes && !options?.serializers;

/** PGlite's error shape (its makePGliteError): the database's error with the statement that raised it. */
function asQueryError(error: unknown, query: string, params: unknown[], options: QueryOptions | undefined) {
  if (error instanceof Error && 'code' in error)
    Object.assign(error, { query, params, queryOptions: options });
  return error;
}

const isStale = (error: unknown) =>
  error instanceof Error && STALE.has((error as { code?: string }).code ?? '');

export class PgliteStatements {
  readonly #client: PGlite;
  readonly #max: number;
  /** By text; a Map keeps insertion order, so re-inserting on use makes the first key the least recently used. */
  readonly #prepared = new Map<string, Prepared>();

  constructor(client: PGlite, max = MAX_PREPARED) {
    this.#client = client;
    this.#max = max;
  }

  /** How many texts are prepared now (for tests). */
  get size(): number {
    return this.#prepared.size;
  }

  /** A statement on its own, as `client.query` runs it: no other statement or transaction in between. */
  readonly query: Query = async (text, params = [], options) => {
    if (!preparable(text, options)) return this.#client.query(text, params, options);
    await this.#client._checkReady();
    return this.#client._runExclusiveTransaction(() =>
      this.#client._runExclusiveQuery(() => this.#run(text, params, options, true)),
    );
  };

  /** The same inside a transaction (`tx.query`): the transaction already holds the database. */
  inTransaction(tx: Transaction): Query {
    return async (text, params = [], options) => {
      if (!preparable(text, options)) return tx.query(text, params, options);
      if (tx.closed) throw new Error('Transaction is closed');
      return this.#client._runExclusiveQuery(() => this.#run(text, params, options, false));
    };
  }

  async #run<T>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    alone: boolean,
  ): Promise<Results<T>> {
    try {
      return await this.#execute<T>(await this.#statement(text), params, options, alone);
    } catch (error) {
      // Gone (DEALLOCATE) or changed under it (a column added to a `select *`): forget it. On its own the
      // statement is prepared again; inside a transaction the error has already ended the transaction.
      const forgotten = isStale(error) && this.#prepared.delete(text);
      if (!forgotten || !alone) throw asQueryError(error, text, params, options);
      try {
        return await this.#execute<T>(await this.#statement(text), params, options, alone);
      } catch (again) {
        throw asQueryError(again, text, params, options);
      }
    }
  }

  async #statement(text: string): Promise<Prepared> {
    const known = this.#prepared.get(text);
    if (known) {
      this.#prepared.delete(text);
      this.#prepared.set(text, known);
      return known;
    }
    const parts: Uint8Array[] = [];
    if (this.#prepared.size >= this.#max) {
      const [oldest, statement] = this.#prepared.entries().next().value as [string, Prepared];
      this.#prepared.delete(oldest);
      parts.push(serialize.close({ type: 'S', name: statement.name }));
    }
    const name = `careplane_${++sequence}`;
    parts.push(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync());
    const { messages } = await this.#client.execProtocol(Buffer.concat(parts), { syncToFs: false });
    const described = messages.find((message) => message.name === 'parameterDescription') as
      { dataTypeIDs: number[] } | undefined;
    const statement: Prepared = {
      name,
      paramTypes: described?.dataTypeIDs ?? [],
      rowDescription: messages.find((message) => message.name === 'rowDescription'),
    };
    this.#prepared.set(text, statement);
    return statement;
  }

  async #execute<T>(
    statement: Prepared,
    params: unknown[],
    options: QueryOptions | undefined,
    alone: boolean,
  ): Promise<Results<T>> {
    const serializers = this.#client.serializers;
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const serializer = serializers[statement.paramTypes[index] ?? -1];
      // A type without a serializer gets the value's own text, as in PGlite's `query`.
      return serializer ? serializer(param) : (param as { toString(): string }).toString();
    });
    const { messages } = await this.#client.execProtocol(
      Buffer.concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: alone, ...(options?.onNotice ? { onNotice: options.onNotice } : {}) },
    );
    const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    return parse.parseResults(described, this.#client.parsers, options)[0] as Results<T>;
  }
}
