// The outbox of actions taken offline (decision 046): kept in order, sent in order, one key per action for all
// its sends, a conflict or refusal reported and dropped, anything without an answer kept for the next try, and
// the entries still there for a new page (IndexedDB, here fake-indexeddb).
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { indexedDbStorage, outcomeOf } from './action-outbox.ts';
import {
  createOutbox,
  keptOn,
  memoryStorage,
  newIdempotencyKey,
  type KeptPrescriptionAction,
  type OutboxEntry,
  type OutboxInput,
  type SendOutcome,
} from './outbox.ts';

const DRIVER = 'driver-1';
const action = (
  prescriptionId: string,
  overrides: Partial<Omit<KeptPrescriptionAction, 'kind'>> = {},
): OutboxInput => ({
  userId: DRIVER,
  prescriptionId,
  action: 'delivered',
  label: 'Delivered',
  subject: `Metformin for ${prescriptionId}`,
  ...overrides,
});

/** A server that answers from a script, one outcome per send, and remembers what it was sent. */
function scriptedServer(...answers: SendOutcome[]) {
  const sent: OutboxEntry[] = [];
  const send = vi.fn((entry: OutboxEntry): Promise<SendOutcome> => {
    sent.push(entry);
    return Promise.resolve(answers.shift() ?? { kind: 'sent' });
  });
  return { sent, send };
}

describe('the outbox', () => {
  it('sends the kept actions in the order they were taken, and empties', async () => {
    const server = scriptedServer();
    const outbox = createOutbox({ storage: memoryStorage(), send: server.send });
    for (const id of ['a', 'b', 'c']) await outbox.enqueue(action(id));
    expect(outbox.entries().map((entry) => keptOn(entry))).toEqual(['a', 'b', 'c']);

    const results = await outbox.flush(DRIVER);
    expect(server.sent.map((entry) => keptOn(entry))).toEqual(['a', 'b', 'c']);
    expect(results.map((result) => result.outcome.kind)).toEqual(['sent', 'sent', 'sent']);
    expect(outbox.entries()).toEqual([]);
  });

  it('gives every action a key of its own and sends it with the same key on every try', async () => {
    const server = scriptedServer(
      { kind: 'retry', message: 'Failed to fetch' },
      { kind: 'retry', message: 'Service Unavailable' },
    );
    const outbox = createOutbox({ storage: memoryStorage(), send: server.send });
    const first = await outbox.enqueue(action('a'));
    const second = await outbox.enqueue(action('b'));
    expect(first.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.key).not.toBe(first.key);

    await outbox.flush(DRIVER);
    await outbox.flush(DRIVER);
    await outbox.flush(DRIVER);
    expect(server.sent.map((entry) => [keptOn(entry), entry.key])).toEqual([
      ['a', first.key],
      ['a', first.key],
      ['a', first.key],
      ['b', second.key],
    ]);
  });

  it('keeps what got no answer, with the attempt counted, and sends nothing after it until it goes', async () => {
    const server = scriptedServer({ kind: 'retry', message: 'Failed to fetch' });
    const outbox = createOutbox({ storage: memoryStorage(), send: server.send });
    await outbox.enqueue(action('a'));
    await outbox.enqueue(action('b'));

    const results = await outbox.flush(DRIVER);
    expect(results).toHaveLength(1);
    expect(results[0]!.outcome).toEqual({ kind: 'retry', message: 'Failed to fetch' });
    expect(server.sent.map((entry) => keptOn(entry))).toEqual(['a']);
    expect(outbox.entries().map((entry) => [keptOn(entry), entry.attempts, entry.lastError])).toEqual([
      ['a', 1, 'Failed to fetch'],
      ['b', 0, undefined],
    ]);
  });

  it('treats a send that throws as one without an answer', async () => {
    const send = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    const outbox = createOutbox({ storage: memoryStorage(), send });
    await outbox.enqueue(action('a'));
    const [result] = await outbox.flush(DRIVER);
    expect(result!.outcome).toEqual({ kind: 'retry', message: 'Failed to fetch' });
    expect(outbox.entries()).toHaveLength(1);
  });

  it('reports a conflict and a refusal, drops them, and goes on with the next ones', async () => {
    const server = scriptedServer(
      { kind: 'conflict', status: 'returned' },
      {
        kind: 'rejected',
        message: 'Only whoever picked it up may mark this prescription delivered (delivered)',
      },
    );
    const outbox = createOutbox({ storage: memoryStorage(), send: server.send });
    for (const id of ['a', 'b', 'c']) await outbox.enqueue(action(id));
    const results = await outbox.flush(DRIVER);
    expect(results.map((result) => [keptOn(result.entry), result.outcome.kind])).toEqual([
      ['a', 'conflict'],
      ['b', 'rejected'],
      ['c', 'sent'],
    ]);
    expect(results[0]!.outcome).toEqual({ kind: 'conflict', status: 'returned' });
    expect(outbox.entries()).toEqual([]);
  });

  it('holds only the later actions on the same record when a server answered in trouble for one', async () => {
    const server = scriptedServer({ kind: 'retry', message: 'Internal Server Error', answered: true });
    const outbox = createOutbox({ storage: memoryStorage(), send: server.send });
    await outbox.enqueue(action('a'));
    await outbox.enqueue(action('a', { action: 'return', label: 'Return' }));
    const alert: OutboxInput = {
      kind: 'alert',
      userId: DRIVER,
      alertId: 'alert-1',
      action: 'acknowledge',
      via: 'commandCenter',
      label: 'Acknowledge',
    };
    await outbox.enqueue(alert);
    await outbox.enqueue(action('b'));

    const results = await outbox.flush(DRIVER);
    // a's delivered waits, and a's return, taken after it, with it; the alert and b go.
    expect(results.map((result) => [keptOn(result.entry), result.entry.action, result.outcome.kind])).toEqual(
      [
        ['a', 'delivered', 'retry'],
        ['alert-1', 'acknowledge', 'sent'],
        ['b', 'delivered', 'sent'],
      ],
    );
    expect(outbox.entries().map((entry) => [keptOn(entry), entry.action])).toEqual([
      ['a', 'delivered'],
      ['a', 'return'],
    ]);
  });

  it('tells every send, whoever asked for it, what became of the actions it tried', async () => {
    const server = scriptedServer({ kind: 'rejected', message: 'This alert is already closed' });
    const outbox = createOutbox({ storage: memoryStorage(), send: server.send });
    const told: string[][] = [];
    const stop = outbox.onSent((results) =>
      told.push(results.map((result) => `${keptOn(result.entry)} ${result.outcome.kind}`)),
    );
    await outbox.enqueue(action('a'));
    await outbox.flush(DRIVER);
    await outbox.flush(DRIVER);
    await outbox.enqueue(action('b'));
    stop();
    await outbox.flush(DRIVER);
    // Nothing is told of a send that tried nothing, nor to a listener gone.
    expect(told).toEqual([['a rejected']]);
  });

  it("sends only the signed-in user's actions", async () => {
    const server = scriptedServer();
    const outbox = createOutbox({ storage: memoryStorage(), send: server.send });
    await outbox.enqueue(action('mine'));
    await outbox.enqueue(action('theirs', { userId: 'pharmacist-1', action: 'mark-ready' }));
    await outbox.flush(DRIVER);
    expect(server.sent.map((entry) => keptOn(entry))).toEqual(['mine']);
    expect(outbox.entries().map((entry) => keptOn(entry))).toEqual(['theirs']);
  });

  it('sends each action once when asked to send twice at the same time, and what was kept meanwhile too', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const sent: string[] = [];
    const outbox = createOutbox({
      storage: memoryStorage(),
      send: async (entry) => {
        sent.push(keptOn(entry));
        await gate;
        return { kind: 'sent' };
      },
    });
    await outbox.enqueue(action('a'));
    const first = outbox.flush(DRIVER);
    const second = outbox.flush(DRIVER);
    await outbox.enqueue(action('b'));
    const third = outbox.flush(DRIVER);
    // The second call came before the first began: it is the first.
    expect(second).toBe(first);
    release();
    await Promise.all([first, second, third]);
    expect(sent).toEqual(['a', 'b']);
  });

  it('tells its subscribers when the kept entries change', async () => {
    const outbox = createOutbox({ storage: memoryStorage(), send: scriptedServer().send });
    const listener = vi.fn();
    const stop = outbox.subscribe(listener);
    await outbox.enqueue(action('a'));
    expect(listener).toHaveBeenCalled();
    stop();
    listener.mockClear();
    await outbox.flush(DRIVER);
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('kept in IndexedDB', () => {
  afterEach(async () => {
    await indexedDbStorage().update(() => []);
  });

  it('keeps the entries for the next page (a reload), in order and with their keys', async () => {
    const before = createOutbox({ storage: indexedDbStorage, send: scriptedServer().send });
    const kept = [await before.enqueue(action('a')), await before.enqueue(action('b'))];

    const server = scriptedServer();
    const after = createOutbox({ storage: indexedDbStorage, send: server.send });
    expect((await after.load()).map((entry) => entry.key)).toEqual(kept.map((entry) => entry.key));
    await after.flush(DRIVER);
    expect(server.sent.map((entry) => entry.key)).toEqual(kept.map((entry) => entry.key));
    expect(await indexedDbStorage().read()).toEqual([]);
  });

  it('loses nothing when two pages keep actions at the same time', async () => {
    const one = createOutbox({ storage: indexedDbStorage, send: scriptedServer().send });
    const two = createOutbox({ storage: indexedDbStorage, send: scriptedServer().send });
    await Promise.all([one.enqueue(action('a')), two.enqueue(action('b')), one.enqueue(action('c'))]);
    const entries = await indexedDbStorage().read();
    expect(entries.map((entry) => keptOn(entry)).sort()).toEqual(['a', 'b', 'c']);
    expect(new Set(entries.map((entry) => entry.seq)).size).toBe(3);
  });

  it('keeps the same action once when two pages keep it at the same time, and sends it once (decision 076)', async () => {
    const one = createOutbox({ storage: indexedDbStorage, send: scriptedServer().send });
    const two = createOutbox({ storage: indexedDbStorage, send: scriptedServer().send });
    const [first, second] = await Promise.all([one.enqueue(action('a')), two.enqueue(action('a'))]);
    expect(second.key).toBe(first.key);
    // Another action on it, or the same action of another user, is another entry.
    await one.enqueue(action('a', { action: 'return', label: 'Return' }));
    await two.enqueue(action('a', { userId: 'driver-2' }));
    const entries = await indexedDbStorage().read();
    expect(entries.map((entry) => `${entry.userId} ${entry.action}`)).toEqual([
      'driver-1 delivered',
      'driver-1 return',
      'driver-2 delivered',
    ]);
    const server = scriptedServer();
    const sender = createOutbox({ storage: indexedDbStorage, send: server.send });
    await sender.flush(DRIVER);
    expect(server.sent.map((entry) => entry.action)).toEqual(['delivered', 'return']);
  });
});

describe('what an answer means for a kept action', () => {
  it('reads the current status out of a 409', () => {
    const conflict = new ApiError(409, 'The prescription is returned: delivered needs picked_up', {
      statusCode: 409,
      error: 'Conflict',
      message: 'The prescription is returned: delivered needs picked_up',
      issues: [{ path: 'status', message: 'on_hold' }],
    });
    expect(outcomeOf(conflict)).toEqual({ kind: 'conflict', status: 'on hold' });
  });

  it('keeps it for later on no answer, a 401, a 408, a 429 or a 5xx; drops it on another 4xx', () => {
    expect(outcomeOf(new TypeError('Failed to fetch')).kind).toBe('retry');
    expect(outcomeOf(new ApiError(401, 'Token expired'))).toEqual({
      kind: 'retry',
      message: 'Token expired',
      signIn: true,
    });
    for (const status of [408, 429, 500, 503])
      expect(outcomeOf(new ApiError(status, 'x')).kind).toBe('retry');
    for (const status of [400, 403, 404, 422]) {
      expect(outcomeOf(new ApiError(status, 'Nope'))).toEqual({ kind: 'rejected', message: 'Nope' });
    }
    expect(outcomeOf(new ApiError(409, 'Signing is not available')).kind).toBe('rejected');
  });

  it('makes version 4 keys also without crypto.randomUUID', () => {
    const randomUUID = crypto.randomUUID.bind(crypto);
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newIdempotencyKey()).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: randomUUID, configurable: true });
    }
  });
});
