// The one reader of the runtime configuration (decisions §8): /config.json, fetched once at start. The
// server answers by the shared schema (@careplane/shared/common/runtime-config); the console checks the answer
// with the same rules written out below instead of zod, which would add about 17 kB of gzip script to the
// first page (decision 029). config.test.ts holds the two to the same results.
import type { RuntimeConfig } from '@careplane/shared/common/runtime-config';

export type { RuntimeConfig };

/** Every field of the shared schema, in its order: the longest string it takes and whether null is allowed. */
const FIELDS = {
  apiUrl: { max: 2048, nullable: false },
  appServerUrl: { max: 2048, nullable: false },
  authUrl: { max: 2048, nullable: false },
  supportEmail: { max: 254, nullable: false },
  googlePlayUrl: { max: 2048, nullable: true },
  appStoreUrl: { max: 2048, nullable: true },
  mapsKey: { max: 512, nullable: true },
  mapsRegion: { max: 8, nullable: false },
  mapsLanguage: { max: 35, nullable: false },
  sentryDsn: { max: 2048, nullable: true },
} as const satisfies Record<keyof RuntimeConfig, { max: number; nullable: boolean }>;

export const RUNTIME_CONFIG_FIELDS = Object.keys(FIELDS) as (keyof RuntimeConfig)[];

/** zod's maxLength: strings are measured in Unicode code points, not UTF-16 units. */
const fits = (text: string, max: number) => text.length <= max || [...text].length <= max;

const withoutTrailingSlash = (address: string) => address.replace(/\/+$/, '');

/**
 * Reads a served configuration; a broken deployment fails at start with a message that names the first wrong
 * field. Unknown fields are dropped and addresses lose their trailing slashes, so paths can be appended.
 */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  // An array is refused here too; zod would name no field for it.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('The runtime configuration is not an object');
  }
  const served = value as Record<string, unknown>;
  const config: Record<string, string | null> = {};
  for (const field of RUNTIME_CONFIG_FIELDS) {
    const { max, nullable } = FIELDS[field];
    const item = served[field];
    if (typeof item === 'string' && fits(item, max)) config[field] = item;
    else if (item === null && nullable) config[field] = null;
    else {
      throw new Error(
        `The runtime configuration ${item === undefined ? 'lacks' : 'has an invalid'} ${field}`,
      );
    }
  }
  const checked = config as unknown as RuntimeConfig;
  return {
    ...checked,
    apiUrl: withoutTrailingSlash(checked.apiUrl),
    appServerUrl: withoutTrailingSlash(checked.appServerUrl),
    authUrl: withoutTrailingSlash(checked.authUrl),
  };
}

let current: RuntimeConfig | undefined;
let loading: Promise<RuntimeConfig> | undefined;

/**
 * Where the last configuration the server sent is kept on the device: a phone that reloads without a network,
 * even on its first visit (before the service worker keeps anything), starts with it (decision 076).
 */
export const CONFIG_STORAGE_KEY = 'careplane.config';

function keep(config: RuntimeConfig) {
  try {
    localStorage.setItem(CONFIG_STORAGE_KEY, JSON.stringify(config));
  } catch {
    // Storage full or refused (a private window): the next start without a network has none to use.
  }
}

function kept(): RuntimeConfig | undefined {
  try {
    const stored = localStorage.getItem(CONFIG_STORAGE_KEY);
    return stored ? parseRuntimeConfig(JSON.parse(stored)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Fetches /config.json the first time; later calls share the same answer. When the fetch finds no network
 * (it rejects, as opposed to a server that answers with an error), the configuration kept from the last start
 * serves instead; a server that answers wrongly is still a failed start.
 */
export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  loading ??= fetch('/config.json', { headers: { accept: 'application/json' } })
    .then(
      async (response) => {
        if (!response.ok) throw new Error(`The runtime configuration answered ${response.status}`);
        current = parseRuntimeConfig(await response.json());
        keep(current);
        return current;
      },
      (error: unknown) => {
        current = kept();
        if (!current) throw error;
        return current;
      },
    )
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
