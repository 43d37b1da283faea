import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_KEY, claimChunkReload, importWithReload } from './chunk-reload.ts';

afterEach(() => sessionStorage.clear());

describe('reloading after a failed script chunk', () => {
  it('allows one reload per 60 seconds and records when', () => {
    expect(claimChunkReload(1_000_000)).toBe(true);
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe('1000000');
    expect(claimChunkReload(1_000_000 + 59_999)).toBe(false);
    expect(claimChunkReload(1_000_000 + 60_000)).toBe(true);
  });

  it('reloads the page on the first failure and lets the second reach the error page', async () => {
    const reload = vi.fn();
    const failing = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    const first = importWithReload(failing, reload)();
    await Promise.resolve();
    await Promise.resolve();
    expect(reload).toHaveBeenCalledTimes(1);
    void first; // stays pending while the page reloads

    await expect(importWithReload(failing, reload)()).rejects.toThrow('dynamically imported module');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('passes a module that loads straight through', async () => {
    const reload = vi.fn();
    await expect(importWithReload(() => Promise.resolve({ ok: 1 }), reload)()).resolves.toEqual({ ok: 1 });
    expect(reload).not.toHaveBeenCalled();
  });
});
