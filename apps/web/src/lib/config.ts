// The one reader of the runtime configuration (decisions §8): /config.json, fetched once at start and parsed
// with the shared schema the server answers by.
import { parseRuntimeConfig, type RuntimeConfig } from '@careplane/shared/common/runtime-config';

export { parseRuntimeConfig, type RuntimeConfig };

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
