// What one request to the provider has already read, so that its later questions in the same request are
// answered without asking the database again. A refresh grant asks for the refresh token, then its grant,
// then the identity (twice: the account, then the token's claims); the refresh token's statement brings the
// grant and the identity along (adapter.ts), and they are answered from here. Nothing outlives the request:
// the next one reads afresh, so a revoked grant or a blocked identity is seen at once, as before.
const reads = new WeakMap<object, Map<string, unknown>>();

const of = (ctx: object) => {
  let found = reads.get(ctx);
  if (!found) reads.set(ctx, (found = new Map<string, unknown>()));
  return found;
};

export const requestReads = {
  /** Remembers what the request read under `key` (undefined: read, and not there). */
  set(ctx: object, key: string, value: unknown) {
    of(ctx).set(key, value);
  },
  /** What the request already read under `key`, or `miss` when it has not read it. */
  get<T>(ctx: object, key: string, miss: T): T {
    const found = reads.get(ctx);
    return found?.has(key) ? (found.get(key) as T) : miss;
  },
  /** Forgets `key`: the request changed it, so a later read must ask the database. */
  forget(ctx: object, key: string) {
    reads.get(ctx)?.delete(key);
  },
  /** The value under `key`, read once per request. */
  async once<T>(ctx: object, key: string, read: () => Promise<T>): Promise<T> {
    const found = of(ctx);
    if (found.has(key)) return found.get(key) as T;
    const value = await read();
    found.set(key, value);
    return value;
  },
};

/** The key an identity is remembered under (the provider's account and claims lookups read it). */
export const identityKey = (id: string) => `identity:${id}`;
/** The key an artifact of the provider's storage is remembered under. */
export const artifactKey = (model: string, id: string) => `${model}:${id}`;
