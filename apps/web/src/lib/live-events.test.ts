// The console's live event connection: one stream opened with a ticket, changes that invalidate the queries
// of their resource (and only those), resync, and a new ticket that resumes after the last event seen.
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';
import { connectLiveEvents, type LiveConnection } from './live-events.ts';

class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = FakeEventSource.OPEN;
  private readonly listeners = new Map<string, ((event: Event) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  emit(type: string, data: unknown, lastEventId = '') {
    const event = new MessageEvent(type, { data: JSON.stringify(data), lastEventId });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  fail() {
    this.readyState = FakeEventSource.CLOSED;
    for (const listener of this.listeners.get('error') ?? []) listener(new Event('error'));
  }
}

let network: FakeNetwork;
let client: QueryClient;
let connection: LiveConnection | undefined;
let tickets = 0;

const KEYS = {
  deviceStats: ['admin', 'device-stats', 'recent', 'd1', 5],
  homeSeries: ['admin', 'stats', 'devices'],
  centerDevices: ['command-center', 'devices', 'list'],
  users: ['admin', 'users', 'list', {}],
  account: ['account', 'me'],
} as const;

const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;
const connect = () => {
  connection = connectLiveEvents(client, {
    flushMs: 0,
    retryMs: 0,
    eventSource: FakeEventSource as unknown as typeof EventSource,
  });
};
const opened = async (count: number) => {
  await vi.waitFor(() => expect(FakeEventSource.opened).toHaveLength(count));
  return FakeEventSource.opened[count - 1]!;
};

beforeEach(() => {
  resetSession();
  signIn();
  tickets = 0;
  FakeEventSource.opened = [];
  network = fakeNetwork().install();
  network.on('POST', '/api/events/ticket', () =>
    json({ ticket: `ticket-${++tickets}`, expiresAt: 1_900_000_000_000 }),
  );
  client = new QueryClient();
  for (const key of Object.values(KEYS)) client.setQueryData(key, { any: 'data' });
});
afterEach(() => {
  connection?.close();
  vi.unstubAllGlobals();
});

describe('live events in the console', () => {
  it('opens one stream with a ticket and invalidates the queries of the resource that changed', async () => {
    connect();
    const source = await opened(1);
    expect(new URL(source.url).pathname).toBe('/api/events');
    expect(new URL(source.url).searchParams.get('ticket')).toBe('ticket-1');
    expect(network.callsTo('POST', '/api/events/ticket')[0]!.headers.authorization).toMatch(/^Bearer /);

    source.emit('change', { resource: 'device-stats', action: 'create', recordId: 's1', at: 1 }, 'o.1.0');
    await vi.waitFor(() => expect(invalidated(KEYS.deviceStats)).toBe(true));
    // The home's series and the lists that show devices are stale too; users and the account are not.
    expect(invalidated(KEYS.homeSeries)).toBe(true);
    expect(invalidated(KEYS.centerDevices)).toBe(true);
    expect(invalidated(KEYS.users)).toBe(false);
    expect(invalidated(KEYS.account)).toBe(false);
  });

  it('invalidates every live query on resync', async () => {
    connect();
    const source = await opened(1);
    source.emit('resync', {});
    await vi.waitFor(() => expect(invalidated(KEYS.users)).toBe(true));
    expect(invalidated(KEYS.centerDevices)).toBe(true);
    expect(invalidated(KEYS.account)).toBe(false);
  });

  it('asks for a new ticket when the stream is refused, resuming after the last event seen', async () => {
    connect();
    const first = await opened(1);
    first.emit('change', { resource: 'devices', action: 'update', recordId: 'd1', at: 1 }, 'origin.7.0');
    first.fail();
    const second = await opened(2);
    const url = new URL(second.url);
    expect(url.searchParams.get('ticket')).toBe('ticket-2');
    expect(url.searchParams.get('lastEventId')).toBe('origin.7.0');
  });

  it('reads everything live again once a stream opens that could not at first (the page loaded offline)', async () => {
    let offline = true;
    network.on('POST', '/api/events/ticket', () => {
      if (offline) throw new TypeError('Failed to fetch');
      return json({ ticket: `ticket-${++tickets}`, expiresAt: 1_900_000_000_000 });
    });
    connect();
    await vi.waitFor(() => expect(network.callsTo('POST', '/api/events/ticket').length).toBeGreaterThan(0));
    expect(invalidated(KEYS.users)).toBe(false);
    offline = false;
    const source = await opened(1);
    source.emit('ready', '');
    await vi.waitFor(() => expect(invalidated(KEYS.users)).toBe(true));
    expect(invalidated(KEYS.centerDevices)).toBe(true);
    expect(invalidated(KEYS.account)).toBe(false);
  });

  it('reads nothing again when the first stream opens at once', async () => {
    connect();
    const source = await opened(1);
    source.emit('ready', '');
    await Promise.resolve();
    expect(invalidated(KEYS.users)).toBe(false);
  });

  it('opens no stream for a caller who may not watch', async () => {
    network.on('POST', '/api/events/ticket', () =>
      json({ statusCode: 403, error: 'Forbidden', message: 'Only users assigned to a command center' }, 403),
    );
    connect();
    await vi.waitFor(() => expect(network.callsTo('POST', '/api/events/ticket')).toHaveLength(1));
    await Promise.resolve();
    expect(FakeEventSource.opened).toHaveLength(0);
  });
});
