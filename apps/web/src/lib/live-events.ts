// Live updates (docs/decisions/027): one EventSource per tab, shared by every screen that wants it, opened with
// a short-lived ticket (an EventSource cannot send the bearer token). Each `change` event invalidates the
// queries that show that resource, a few at a time; `resync` (events were missed) invalidates them all. The
// stream resumes after the last event seen, and asks for a new ticket when the old one no longer opens it.
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  eventEndpoints,
  liveChangeSchema,
  liveEventNames,
  type EventTicket,
  type LiveResource,
} from '@careplane/shared/events/events.contract';
import { ApiError, api, apiUrl } from './api-client.ts';

/**
 * Query keys that live events refresh start with one of these roots and then the resource's name:
 * `['admin', 'devices', …]` (the admin area) and `['command-center', 'devices', …]` (a supervisor's view).
 */
export const LIVE_QUERY_ROOTS = ['admin', 'command-center'] as const;

/** What else a resource's change makes stale: the admin home's series and the lists that embed it. */
const alsoStale: Partial<Record<LiveResource, readonly string[]>> = {
  'device-stats': ['stats', 'devices'],
  'device-jobs': ['devices'],
  'iot-device-data': ['iot-devices', 'alerts'],
  alerts: ['users', 'iot-devices'],
  users: ['stats'],
  devices: ['stats'],
};

/** Whether a query shows one of `resources` (by its key: a live root, then the resource's name). */
export function showsAny(key: QueryKey, resources: ReadonlySet<string>): boolean {
  const [root, resource] = key;
  return (
    (LIVE_QUERY_ROOTS as readonly unknown[]).includes(root) &&
    typeof resource === 'string' &&
    resources.has(resource)
  );
}

export interface LiveConnectionOptions {
  /** Changes are gathered this long before their queries refetch (a burst of readings refetches once). */
  flushMs?: number;
  /** The first wait before trying to reconnect after a failure; it doubles up to `maxRetryMs`. */
  retryMs?: number;
  /** The longest wait before trying to reconnect after a failure. */
  maxRetryMs?: number;
  /** For tests: the EventSource to use. */
  eventSource?: typeof EventSource;
}

export interface LiveConnection {
  close(): void;
}

/** Opens the stream for `client` and keeps it open until closed. */
export function connectLiveEvents(client: QueryClient, options: LiveConnectionOptions = {}): LiveConnection {
  const flushMs = options.flushMs ?? 300;
  const retryMs = options.retryMs ?? 1_000;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  const Source = options.eventSource ?? globalThis.EventSource;
  // A browser without server-sent events (or a test without them) shows what it loaded, as before.
  if (!Source) return { close: () => undefined };
  let source: EventSource | undefined;
  let lastEventId: string | undefined;
  let closed = false;
  let failures = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let flush: ReturnType<typeof setTimeout> | undefined;
  const stale = new Set<string>();

  const refresh = () => {
    flush = undefined;
    const resources = new Set(stale);
    stale.clear();
    void client.invalidateQueries({ predicate: (query) => showsAny(query.queryKey, resources) });
  };
  const markStale = (resource: LiveResource) => {
    stale.add(resource);
    for (const other of alsoStale[resource] ?? []) stale.add(other);
    flush ??= setTimeout(refresh, flushMs);
  };

  const invalidateLive = () =>
    void client.invalidateQueries({
      predicate: (query) => (LIVE_QUERY_ROOTS as readonly unknown[]).includes(query.queryKey[0]),
    });

  const scheduleReconnect = () => {
    if (closed) return;
    failures += 1;
    const wait = Math.min(maxRetryMs, retryMs * 2 ** Math.min(failures - 1, 5));
    retry = setTimeout(() => void open(), wait);
  };

  async function open() {
    retry = undefined;
    let ticket: EventTicket;
    try {
      ticket = await api.post<EventTicket>(eventEndpoints.ticket);
    } catch (error) {
      // Not an admin nor a supervisor, signed out, or a server without live events: nothing to watch.
      if (error instanceof ApiError && [401, 403, 404].includes(error.status)) return;
      scheduleReconnect();
      return;
    }
    if (closed) return;
    const next = new Source(apiUrl(eventEndpoints.stream, { ticket: ticket.ticket, lastEventId }));
    source = next;
    // A stream that could not open at first (the page was loaded offline, or the network came back) has no event
    // to resume after: what changed meanwhile is unknown, and what is shown may be a kept answer of the service
    // worker (decision 106). Once it listens, everything live is read again, as on a resync.
    const missedSome = failures > 0 && lastEventId === undefined;
    next.addEventListener(liveEventNames.ready, () => {
      failures = 0;
      if (missedSome) invalidateLive();
    });
    next.addEventListener(liveEventNames.change, (event) => {
      const message = event as MessageEvent<string>;
      if (message.lastEventId) lastEventId = message.lastEventId;
      const parsed = liveChangeSchema.safeParse(JSON.parse(message.data));
      if (parsed.success) markStale(parsed.data.resource);
    });
    next.addEventListener(liveEventNames.resync, invalidateLive);
    next.addEventListener('error', () => {
      // The browser retries a dropped stream itself (resending Last-Event-ID); a refused one (an expired
      // ticket) it gives up on: then a new ticket, resuming after the last event seen.
      if (next.readyState === Source.CLOSED && source === next) {
        source = undefined;
        scheduleReconnect();
      }
    });
  }

  void open();
  return {
    close() {
      closed = true;
      if (retry) clearTimeout(retry);
      if (flush) clearTimeout(flush);
      source?.close();
      source = undefined;
    },
  };
}

// One connection per tab, however many screens ask for it.
let shared: { client: QueryClient; connection: LiveConnection; users: number } | undefined;

/** Keeps the tab's live event stream open while the calling screen is shown (when `enabled`). */
export function useLiveEvents(enabled = true) {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    if (!shared || shared.client !== client) {
      shared?.connection.close();
      shared = { client, connection: connectLiveEvents(client), users: 0 };
    }
    const current = shared;
    current.users += 1;
    return () => {
      current.users -= 1;
      if (current.users === 0 && shared === current) {
        current.connection.close();
        shared = undefined;
      }
    };
  }, [client, enabled]);
}
