// What changed, told after the commit: every audited write becomes a change, and listeners (live updates,
// caches, MQTT, jobs) hear about it once its transaction has committed, never before and never for a
// rolled-back one. A write's changes also travel to the other server processes on the same database as a
// NOTIFY sent inside its transaction, so they arrive exactly when it commits.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';

export interface Change {
  /** The resource's name in the audit log (`devices`, `device-jobs`, ...), or a sign-in artifact. */
  resource: string;
  /** `create`, `update`, `delete` or a domain action (`sign-in`, `rekey`, `revoke`, ...). */
  action: string;
  recordId: string | null;
  /** The application user who made the change, when known. */
  actorUserId: string | null;
  /** Milliseconds since the epoch when the change was made. */
  at: number;
}

/**
 * Told to listeners when changes may have been missed (the connection that carries other processes'
 * changes was lost): caches should forget what they hold.
 */
export const RESYNC: Change = { resource: '*', action: 'resync', recordId: null, actorUserId: null, at: 0 };

/**
 * Told by the auth server when a phone answers a resource request (`approve` or `deny`, the request's id):
 * the process that asked for a signature completes it then (modules/documents/signing-completion.ts).
 */
export const AUTH_REQUEST_ANSWERED = 'auth-requests';

export type ChangeListener = (changes: readonly Change[]) => void | Promise<void>;

/** The PostgreSQL channel other processes' changes arrive on. */
export const CHANGE_CHANNEL = 'careplane_changes';
/** NOTIFY payloads stay well under PostgreSQL's 8000-byte limit. */
const CHANGES_PER_NOTIFY = 25;

export interface RelayedChanges {
  origin: string;
  /** The message's number among its origin's messages: with `origin`, a name every process shares. */
  seq: number;
  changes: Change[];
}

/**
 * Told every message heard on the database channel, this process's own included, in the order the database
 * delivers them (commit order, the same in every process), and `null` when messages may have been missed.
 */
export type RelayedListener = (message: RelayedChanges | null) => void;

export interface ChangeFeed {
  /** This process's name in relayed messages, so it can skip its own. */
  readonly origin: string;
  /** Adds a listener; the returned function removes it. */
  subscribe(listener: ChangeListener): () => void;
  /** Hands committed changes to this process's listeners; a failing listener is reported, never thrown. */
  publish(changes: readonly Change[]): void;
  /**
   * Sends changes to the other server processes: inside a transaction the message leaves when it commits,
   * outside one at once. A no-op for a feed that is not shared.
   */
  relay(executor: Executor, changes: readonly Change[]): Promise<void>;
  /**
   * `relay` for changes already committed (a write of one statement): sent in a transaction of their own that
   * does not wait for a disk flush. NOTIFY holds a lock of the whole server from its commit until that commit
   * is flushed, so transactions that notify commit one flush after another; writes that stay out of it
   * commit side by side. A crash between the write and this message loses the message, never the write.
   */
  relayCommitted(executor: Executor, changes: readonly Change[]): Promise<void>;
  /** Both: relay, then publish here. For writes made outside `store.write` (the auth server's revocations). */
  announce(executor: Executor, changes: readonly Change[]): Promise<void>;
  /**
   * Adds a listener to the messages heard on the database (every process's, in commit order): what a process
   * must hear in the same order as the others, such as live events that a client may resume at another
   * process. The returned function removes it.
   */
  subscribeRelayed(listener: RelayedListener): () => void;
  /** For the database listener: a message heard on the channel (others' are published here too). */
  receive(message: RelayedChanges): void;
  /** For the database listener: the channel was lost, so messages may have been missed. */
  lost(): void;
}

export interface ChangeFeedOptions {
  /** Whether other apps may share the database: then changes are relayed to them through it. */
  shared?: boolean;
  onListenerError?: (error: unknown) => void;
}

export function createChangeFeed(options: ChangeFeedOptions = {}): ChangeFeed {
  const listeners = new Set<ChangeListener>();
  const relayedListeners = new Set<RelayedListener>();
  const origin = randomUUID();
  let seq = 0;
  const tellRelayed = (message: RelayedChanges | null) => {
    for (const listener of relayedListeners) {
      try {
        listener(message);
      } catch (error) {
        onError(error);
      }
    }
  };
  const onError = options.onListenerError ?? (() => {});
  /** The messages that carry these changes to the other processes (none for a feed that is not shared). */
  const messages = (changes: readonly Change[]) => {
    const texts: string[] = [];
    if (!options.shared) return texts;
    for (let start = 0; start < changes.length; start += CHANGES_PER_NOTIFY) {
      const message: RelayedChanges = {
        origin,
        seq: ++seq,
        changes: changes.slice(start, start + CHANGES_PER_NOTIFY),
      };
      texts.push(JSON.stringify(message));
    }
    return texts;
  };
  const feed: ChangeFeed = {
    origin,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish(changes) {
      if (changes.length === 0) return;
      for (const listener of listeners) {
        try {
          const pending = listener(changes);
          if (pending instanceof Promise) pending.catch(onError);
        } catch (error) {
          onError(error);
        }
      }
    },
    async relay(executor, changes) {
      for (const message of messages(changes)) {
        await executor.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${message})`);
      }
    },
    async relayCommitted(executor, changes) {
      for (const message of messages(changes)) {
        await executor.execute(
          sql`select pg_notify(${CHANGE_CHANNEL}, ${message}), set_config('synchronous_commit', 'off', true)`,
        );
      }
    },
    async announce(executor, changes) {
      await feed.relay(executor, changes);
      feed.publish(changes);
    },
    subscribeRelayed(listener) {
      relayedListeners.add(listener);
      return () => relayedListeners.delete(listener);
    },
    receive(message) {
      if (message.origin !== origin) feed.publish(message.changes);
      tellRelayed(message);
    },
    lost() {
      // What arrived while no one listened is unknown: every cache starts over.
      feed.publish([{ ...RESYNC, at: Date.now() }]);
      tellRelayed(null);
    },
  };
  return feed;
}

/** Reads one relayed message; anything malformed is ignored. */
export function parseRelayedChanges(payload: string | undefined): RelayedChanges | undefined {
  if (!payload) return undefined;
  try {
    const message = JSON.parse(payload) as Partial<RelayedChanges>;
    if (typeof message.origin !== 'string' || !Array.isArray(message.changes)) return undefined;
    const seq = typeof message.seq === 'number' && Number.isSafeInteger(message.seq) ? message.seq : 0;
    const changes = message.changes.filter(
      (change): change is Change =>
        typeof change === 'object' &&
        change !== null &&
        typeof change.resource === 'string' &&
        typeof change.action === 'string',
    );
    return { origin: message.origin, seq, changes };
  } catch {
    return undefined;
  }
}
