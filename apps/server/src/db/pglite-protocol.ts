// What the server's thread and the embedded database's thread say to each other (pglite-remote.ts,
// pglite-thread.ts). Every message is structured-cloned: plain values only, no functions.

/** How the database thread opens PGlite. */
export interface EmbeddedOptions {
  /** PGlite's data folder; none keeps the database in memory. */
  dataDir?: string | undefined;
  /** Start from this dump of a database (PGlite's dumpDataDir) instead of an empty one. */
  loadDataDir?: ArrayBuffer | undefined;
}

/** Statement options that can cross threads: PGlite's own, minus functions (parsers, serializers, onNotice). */
export interface PlainQueryOptions {
  rowMode?: 'array' | 'object';
}

export type Request =
  | {
      id: number;
      type: 'query';
      text: string;
      params: unknown[];
      options?: PlainQueryOptions | undefined;
      /** Inside this transaction (the id of the message that began it), else on its own. */
      tx?: number | undefined;
    }
  | { id: number; type: 'begin' }
  | { id: number; type: 'end'; tx: number; outcome: 'commit' | 'rollback' }
  | { id: number; type: 'listen'; channel: string }
  | { id: number; type: 'unlisten'; listener: number }
  | { id: number; type: 'dump'; compression: 'none' | 'gzip' | 'auto' }
  | { id: number; type: 'close' };

/** An error as it crosses: the database's own fields (code, detail, constraint, table, query…) by name. */
export interface ErrorFields {
  message: string;
  stack: string;
  /** PGlite's DatabaseError (an error the database raised), rebuilt as one. */
  database: boolean;
  fields: Record<string, unknown>;
}

export type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: ErrorFields }
  /** A NOTIFY heard by the listener that message `id` started. */
  | { id: number; notification: string };
