// A failed read is asked again only when that can help: once after no answer or a server failure, never after
// a 4xx (a refusal, a record not found, a bad request answers the same the second time).
import { QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from './api-client.ts';
import { createQueryClient, shouldRetryQuery } from './query-client.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs one query of the console's client that always fails with `error`; resolves with how often it ran. */
async function timesAsked(error: Error): Promise<number> {
  const client = createQueryClient();
  const queryFn = vi.fn(() => Promise.reject(error));
  const observer = new QueryObserver(client, { queryKey: ['failing'], queryFn });
  const settled = new Promise<void>((resolve) => {
    const stop = observer.subscribe((result) => {
      if (result.status !== 'error') return;
      stop();
      resolve();
    });
  });
  // Past every back-off TanStack would wait between tries.
  await vi.advanceTimersByTimeAsync(60_000);
  await settled;
  client.clear();
  return queryFn.mock.calls.length;
}

describe('the query client', () => {
  it.each([400, 401, 403, 404, 409, 422])('asks a read answered %i only once', async (status) => {
    expect(await timesAsked(new ApiError(status, 'Refused'))).toBe(1);
  });

  it.each([500, 502, 503])('asks a read answered %i once more, and no further', async (status) => {
    expect(await timesAsked(new ApiError(status, 'Server failure'))).toBe(2);
  });

  it('asks a read that got no answer once more, and no further', async () => {
    expect(await timesAsked(new NetworkError(new TypeError('Failed to fetch')))).toBe(2);
  });

  it('does not ask again after an error that is no answer of the server (a bug in the page)', async () => {
    expect(await timesAsked(new TypeError('x is undefined'))).toBe(1);
  });

  it('says so for each kind of failure', () => {
    expect(shouldRetryQuery(0, new ApiError(403, 'Forbidden'))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError(503, 'Unavailable'))).toBe(true);
    expect(shouldRetryQuery(1, new ApiError(503, 'Unavailable'))).toBe(false);
    expect(shouldRetryQuery(0, new NetworkError(new TypeError('Failed to fetch')))).toBe(true);
    expect(shouldRetryQuery(1, new NetworkError(new TypeError('Failed to fetch')))).toBe(false);
  });

  it('started offline, loads a failed read again by itself once the network is back', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const client = createQueryClient();
    client.mount(); // as the console's provider does: it then hears the network come and go
    let reachable = false;
    const queryFn = vi.fn(() =>
      reachable ? Promise.resolve('open alerts') : Promise.reject(new NetworkError(new TypeError('offline'))),
    );
    const observer = new QueryObserver(client, { queryKey: ['alerts'], queryFn });
    const stop = observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(60_000);
    // Asked once, then waiting for the network rather than asking again in vain.
    expect(observer.getCurrentResult()).toMatchObject({ status: 'pending', fetchStatus: 'paused' });
    expect(queryFn).toHaveBeenCalledTimes(1);

    reachable = true;
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(observer.getCurrentResult()).toMatchObject({ status: 'success', data: 'open alerts' });
    stop();
    client.unmount();
    client.clear();
    onLine.mockRestore();
  });
});
