// One canonical JSON for everything that hashes or signs JSON: the authenticator's signed payloads and the
// content-derived ids of IoT readings. Equal values always give equal text.

/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, arrays in order. Only plain JSON values
 * (strings, finite numbers, booleans, null, arrays, objects) are accepted; `undefined` members are left out.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('Non-finite number in canonical JSON');
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, member]) => member !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
    }
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      break;
  }
  throw new TypeError(`Unsupported value in canonical JSON: ${typeof value}`);
}
