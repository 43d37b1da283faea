// An outage is logged once when it starts and once when it ends, however many requests meet it; what counts
// as the database being unreachable, and what does not.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOutageWatch, isDatabaseUnavailable } from './database-outage.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string) => Object.assign(new Error('failed'), { code });

  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a server shutting down', withCode('57P01')],
    ['a server that takes no connections yet', withCode('57P03')],
    ['a connection failure', withCode('08006')],
    ['too many connections', withCode('53300')],
    [
      'a database that takes no connections now',
      Object.assign(new Error('database "careplane" is not currently accepting connections'), {
        code: '55000',
      }),
    ],
    ['a database dropped', withCode('3D000')],
    ['a role refused', withCode('28000')],
    ['a pool that waited too long', new Error('timeout exceeded when trying to connect')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a wrapped one', new Error('Failed query', { cause: withCode('ECONNREFUSED') })],
    ['one of several', new AggregateError([new Error('x'), withCode('ECONNREFUSED')])],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a statement deadline', withCode('57014')],
    ['another object not in its prerequisite state', withCode('55000')],
    ['a bug', new TypeError('x is undefined')],
    // Fastify's body reader marks a body its sender cut off as 400 and keeps the socket's code.
    ['a request body cut off by its sender', Object.assign(withCode('ECONNRESET'), { statusCode: 400 })],
    ['nothing', undefined],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('createOutageWatch', () => {
  it('logs the first failure of an outage only, and its end once a probe succeeds', async () => {
    vi.useFakeTimers();
    const log = { error: vi.fn(), info: vi.fn() };
    let reachable = false;
    const watch = createOutageWatch({
      probe: async () => {
        if (!reachable) throw new Error('ECONNREFUSED');
      },
      log,
      probeIntervalMs: 1000,
    });
    for (let request = 0; request < 50; request++) watch.failed(new Error('ECONNREFUSED'));
    expect(watch.down).toBe(true);
    expect(log.error).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(log.info).not.toHaveBeenCalled();
    reachable = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(watch.down).toBe(false);
    expect(log.info).toHaveBeenCalledTimes(1);
    expect(log.info.mock.calls[0]![0]).toMatchObject({ failedRequests: 50 });
    // A new outage is a new first failure.
    watch.failed(new Error('ECONNREFUSED'));
    expect(log.error).toHaveBeenCalledTimes(2);
    watch.close();
  });
});
