// The one reader of the runtime configuration (decisions §8): /config.json, fetched once at start.
// Its shape is the server's runtime settings (apps/server/src/plugins/web.ts).

export interface RuntimeConfig {
  apiUrl: string;
  appServerUrl: string;
  authUrl: string;
  supportEmail: string;
  googlePlayUrl: string | null;
  appStoreUrl: string | null;
  mapsKey: string | null;
  mapsRegion: string;
  mapsLanguage: string;
  sentryDsn: string | null;
}

const requiredText = [
  'apiUrl',
  'appServerUrl',
  'authUrl',
  'supportEmail',
  'mapsRegion',
  'mapsLanguage',
] as const;
const optionalText = ['googlePlayUrl', 'appStoreUrl', 'mapsKey', 'sentryDsn'] as const;

/** Checks the answer field by field, so a broken deployment fails at start with a clear message. */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  if (typeof value !== 'object' || value === null)
    throw new Error('The runtime configuration is not an object');
  const record = value as Record<string, unknown>;
  for (const key of requiredText) {
    if (typeof record[key] !== 'string') throw new Error(`The runtime configuration lacks ${key}`);
  }
  for (const key of optionalText) {
    const field = record[key];
    if (field !== null && field !== undefined && typeof field !== 'string') {
      throw new Error(`The runtime configuration has an invalid ${key}`);
    }
  }
  const text = (key: (typeof requiredText)[number]) => record[key] as string;
  const optional = (key: (typeof optionalText)[number]) => (record[key] as string | null | undefined) ?? null;
  return {
    apiUrl: text('apiUrl').replace(/\/+$/, ''),
    appServerUrl: text('appServerUrl').replace(/\/+$/, ''),
    authUrl: text('authUrl').replace(/\/+$/, ''),
    supportEmail: text('supportEmail'),
    googlePlayUrl: optional('googlePlayUrl'),
    appStoreUrl: optional('appStoreUrl'),
    mapsKey: optional('mapsKey'),
    mapsRegion: text('mapsRegion'),
    mapsLanguage: text('mapsLanguage'),
    sentryDsn: optional('sentryDsn'),
  };
}

let current: RuntimeConfig | undefined;
let loading: Promise<RuntimeConfig> | undefined;

/** Fetches /config.json the first time; later calls share the same answer. */
export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  loading ??= fetch('/config.json', { headers: { accept: 'application/json' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(`The runtime configuration answered ${response.status}`);
      current = parseRuntimeConfig(await response.json());
      return current;
    })
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}

/** The configuration read at start; calling it before loadRuntimeConfig finished is a programming error. */
export function getRuntimeConfig(): RuntimeConfig {
  if (!current) throw new Error('The runtime configuration has not been loaded yet');
  return current;
}

/** For tests and for start-up with a known configuration. */
export function setRuntimeConfig(config: RuntimeConfig | undefined) {
  current = config;
  loading = config ? Promise.resolve(config) : undefined;
}
