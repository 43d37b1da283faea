import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  parseRuntimeConfig as sharedParse,
  runtimeConfigSchema,
} from '@careplane/shared/common/runtime-config';
import {
  CONFIG_STORAGE_KEY,
  getRuntimeConfig,
  loadRuntimeConfig,
  parseRuntimeConfig,
  RUNTIME_CONFIG_FIELDS,
  setRuntimeConfig,
} from './config.ts';

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
    expect(() => parseRuntimeConfig([])).toThrow('not an object');
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

  it('starts without a network with the configuration kept from the last start (decision 076)', async () => {
    localStorage.removeItem(CONFIG_STORAGE_KEY);
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    // Nothing kept yet (a first visit): the start fails with the network's error.
    await expect(loadRuntimeConfig()).rejects.toThrow('Failed to fetch');

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(served), { status: 200 })),
    );
    await loadRuntimeConfig();
    setRuntimeConfig(undefined);

    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(loadRuntimeConfig()).resolves.toMatchObject({
      apiUrl: 'https://care.example.org',
      mapsRegion: 'TH',
    });
    expect(getRuntimeConfig().supportEmail).toBe('help@example.org');
    localStorage.removeItem(CONFIG_STORAGE_KEY);
  });

  it('does not hide a server that answers with an error behind the kept configuration', async () => {
    localStorage.setItem(CONFIG_STORAGE_KEY, JSON.stringify(served));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('down', { status: 503 })),
    );
    await expect(loadRuntimeConfig()).rejects.toThrow('503');
    localStorage.setItem(CONFIG_STORAGE_KEY, '{"apiUrl": 1');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    // What is kept and no longer reads as a configuration is not used.
    await expect(loadRuntimeConfig()).rejects.toThrow('Failed to fetch');
    localStorage.removeItem(CONFIG_STORAGE_KEY);
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

describe('the console’s check of the runtime configuration', () => {
  it('knows exactly the fields of the shared schema, in its order', () => {
    expect(RUNTIME_CONFIG_FIELDS).toEqual(Object.keys(runtimeConfigSchema.shape));
  });

  // The console checks without zod (decision 029); on every input it must decide as the shared schema does.
  const long = (length: number) => 'a'.repeat(length);
  const variants: [string, unknown][] = [
    ['the served settings', served],
    ['an unknown field', { ...served, extra: 'x' }],
    ['addresses with slashes', { ...served, apiUrl: 'https://a.example//', authUrl: '/' }],
    ['not an object', 'nope'],
    ['null', null],
    ['a missing address', { ...served, authUrl: undefined }],
    ['a null address', { ...served, apiUrl: null }],
    ['a number', { ...served, sentryDsn: 42 }],
    ['a nullable field left out', { ...served, mapsKey: undefined }],
    ['a store link set', { ...served, googlePlayUrl: 'https://play.example/app' }],
  ];
  for (const [field, max] of [
    ['apiUrl', 2048],
    ['supportEmail', 254],
    ['mapsKey', 512],
    ['mapsRegion', 8],
    ['mapsLanguage', 35],
    ['sentryDsn', 2048],
  ] as const) {
    variants.push([`${field} at its limit`, { ...served, [field]: long(max) }]);
    variants.push([`${field} over its limit`, { ...served, [field]: long(max + 1) }]);
    // Four characters outside the BMP are eight UTF-16 units: zod counts code points.
    variants.push([`${field} in code points`, { ...served, [field]: '😀'.repeat(Math.min(max, 8)) }]);
  }
  for (const [name, input] of variants) {
    it(`decides as the shared schema on ${name}`, () => {
      let expected: unknown;
      try {
        expected = sharedParse(input);
      } catch (error) {
        expect(() => parseRuntimeConfig(input)).toThrow((error as Error).message);
        return;
      }
      expect(parseRuntimeConfig(input)).toEqual(expected);
    });
  }
});
