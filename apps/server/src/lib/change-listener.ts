// Listens for the changes other server processes relay through the database (LISTEN on the change channel)
// and hands them to this process's change feed (its own messages too, for the listeners that need every
// process's messages in one order). On PostgreSQL one dedicated connection; when it is lost the
// feed hears RESYNC (caches forget what they hold) and the listener reconnects. The embedded database has one
// process only, but several apps may share its handle (as tests do), so it listens the same way.
import type pg from 'pg';
import { CHANGE_CHANNEL, parseRelayedChanges, type ChangeFeed } from './changes.js';
import type { DatabaseHandle } from '@/db/client.js';

export interface ChangeListenerHandle {
  close: () => Promise<void>;
}

const RETRY_MS = 1_000;

export interface ChangeListenerOptions {
  /**
   * The `application_name` the listening connection carries on PostgreSQL: one connection per process for as
   * long as it runs, so other processes can tell it is up (modules/iot/mqtt-members.ts).
   */
  presence?: string;
  /** Told once the listener listens again after a failure it reported. */
  onRecovered?: () => void;
}

export function listenForRemoteChanges(
  database: DatabaseHandle,
  feed: ChangeFeed,
  onError: (error: unknown) => void = () => {},
  options: ChangeListenerOptions = {},
): ChangeListenerHandle {
  const { driver } = database;
  if (driver.kind === 'postgres') return listenOnPool(driver.pool, feed, onError, options);
  const receive = (payload: string) => {
    const relayed = parseRelayedChanges(payload);
    if (relayed) feed.receive(relayed);
  };
  const stop = driver.client.listen(CHANGE_CHANNEL, receive).catch((error: unknown) => {
    onError(error);
    return undefined;
  });
  return {
    close: async () => {
      const unlisten = await stop;
      await unlisten?.();
    },
  };
}

function listenOnPool(
  pool: pg.Pool,
  feed: ChangeFeed,
  onError: (error: unknown) => void,
  { presence, onRecovered }: ChangeListenerOptions,
): ChangeListenerHandle {
  let client: pg.PoolClient | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  // One report per outage, not one per retry (a second apart): the first failure, then quiet until it listens.
  let failing = false;
  const report = (error: unknown) => {
    if (failing) return;
    failing = true;
    onError(error);
  };

  const connect = async () => {
    try {
      const connected = await pool.connect();
      client = connected;
      connected.on('notification', (message) => {
        if (message.channel !== CHANGE_CHANNEL) return;
        const relayed = parseRelayedChanges(message.payload);
        if (relayed) feed.receive(relayed);
      });
      connected.on('error', (error) => {
        report(error);
        lost(connected, error);
      });
      await connected.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (presence) await connected.query(`select set_config('application_name', $1, false)`, [presence]);
      if (failing) onRecovered?.();
      failing = false;
    } catch (error) {
      report(error);
      if (client) lost(client, error);
      else schedule();
    }
  };

  const lost = (lostClient: pg.PoolClient, error: unknown) => {
    if (client !== lostClient) return;
    client = undefined;
    lostClient.release(error instanceof Error ? error : true);
    feed.lost();
    schedule();
  };

  const schedule = () => {
    if (closed) return;
    retry = setTimeout(() => void connect(), RETRY_MS);
    retry.unref();
  };

  void connect();
  return {
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = undefined;
      if (current) {
        await current.query(`UNLISTEN ${CHANGE_CHANNEL}`).catch(() => undefined);
        // Back in the pool, the connection no longer tells that this process is up.
        if (presence) await current.query('RESET application_name').catch(() => undefined);
        current.release();
      }
    },
  };
}
