import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, NetworkError, withMinimumDelay } from './api-client.ts';
import { setRuntimeConfig } from './config.ts';
import { sessionStore } from './session.ts';
import { testConfig } from '@/test/app.tsx';

beforeEach(() => {
  setRuntimeConfig(testConfig);
  sessionStore.logout();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the API client', () => {
  it('sends the bearer token and query to the configured server', async () => {
    sessionStore.set({ accessToken: 'tok' });
    const fetchMock = vi.fn(async () => Response.json({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(
      api.get('/api/users/logs', { query: { filters: ['a~1', 'b~2'], limit: 1 } }),
    ).resolves.toEqual({
      ok: true,
    });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://careplane.test/api/users/logs?filters=a%7E1&filters=b%7E2&limit=1');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok');
  });

  it('says in words that no answer came, offline or not, and lets an abort be an abort', async () => {
    sessionStore.set({ accessToken: 'tok' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const online = vi.spyOn(navigator, 'onLine', 'get');
    online.mockReturnValue(false);
    const offline = await api.get('/api/documents').catch((error: unknown) => error);
    expect(offline).toBeInstanceOf(NetworkError);
    expect(offline).not.toBeInstanceOf(ApiError);
    expect((offline as Error).message).toBe(
      'You are offline. This needs the network: it loads again once you are back online.',
    );
    online.mockReturnValue(true);
    await expect(api.get('/api/documents')).rejects.toThrow(
      'The server could not be reached. Check the connection, then try again.',
    );
    online.mockRestore();
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw abort;
      }),
    );
    await expect(api.get('/api/documents')).rejects.toBe(abort);
  });

  it('refuses to call without a token, with the spec message', async () => {
    vi.stubGlobal('fetch', vi.fn());
    await expect(api.get('/api/users/me')).rejects.toThrow('State does not contain a access token.');
  });

  it("turns an error answer into an ApiError with the server's message", async () => {
    sessionStore.set({ accessToken: 'tok' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json(
          { statusCode: 403, error: 'Forbidden', message: 'Admin rights required' },
          { status: 403 },
        ),
      ),
    );
    const error = await api.get('/api/users').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, message: 'Admin rights required' });
  });

  it('keeps a fast fetch loading for at least 200 ms', async () => {
    vi.useFakeTimers();
    let settled = false;
    const pending = withMinimumDelay(async () => 'data').then((value) => {
      settled = true;
      return value;
    });
    await vi.advanceTimersByTimeAsync(199);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toBe('data');
  });
});
