import { afterEach, describe, expect, it, vi } from 'vitest';
import { getRuntimeConfig, loadRuntimeConfig, parseRuntimeConfig, setRuntimeConfig } from './config.ts';

const served = {
  apiUrl: 'https://care.example.org/',
  appServerUrl: 'https://care.example.org',
  authUrl: 'https://care.example.org/auth/',
  supportEmail: 'help@example.org',
  googlePlayUrl: null,
  appStoreUrl: 'https://apps.apple.com/app/id1',
  mapsKey: null,
  mapsRegion: 'TH',
  mapsLanguage: 'th',
  sentryDsn: null,
};

afterEach(() => {
  setRuntimeConfig(undefined);
  vi.unstubAllGlobals();
});

describe('the runtime configuration', () => {
  it('reads the served settings and drops trailing slashes from addresses', () => {
    expect(parseRuntimeConfig(served)).toMatchObject({
      apiUrl: 'https://care.example.org',
      authUrl: 'https://care.example.org/auth',
      appStoreUrl: 'https://apps.apple.com/app/id1',
      googlePlayUrl: null,
    });
  });

  it('refuses a configuration that lacks an address or has a wrong type', () => {
    expect(() => parseRuntimeConfig({ ...served, authUrl: undefined })).toThrow('lacks authUrl');
    expect(() => parseRuntimeConfig({ ...served, sentryDsn: 42 })).toThrow('invalid sentryDsn');
    expect(() => parseRuntimeConfig('nope')).toThrow('not an object');
  });

  it('is fetched from /config.json once, however often it is asked for', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(served), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    expect(() => getRuntimeConfig()).toThrow('not been loaded');
    const [first, second] = await Promise.all([loadRuntimeConfig(), loadRuntimeConfig()]);
    expect(first).toBe(second);
    await loadRuntimeConfig();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]).toEqual(['/config.json', expect.anything()]);
    expect(getRuntimeConfig().supportEmail).toBe('help@example.org');
  });

  it('tries again after a failed fetch', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response('down', { status: 503 }))
      .mockResolvedValueOnce(new Response(JSON.stringify(served), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(loadRuntimeConfig()).rejects.toThrow('503');
    await expect(loadRuntimeConfig()).resolves.toMatchObject({ mapsRegion: 'TH' });
  });
});
