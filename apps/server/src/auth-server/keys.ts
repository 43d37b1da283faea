// The auth server's signing keys (ES256, each with a kid), kept in the database so that every process signs
// and publishes the same set; the private halves are sealed with the server's encryption key, so a copy of the
// database alone cannot mint tokens. Rotation adds a new active key and retires the old one, which stays in
// the JWKS until every token it signed has expired.
import { desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import type { Database } from '@/db/client.js';
import { authSigningKeys } from '@/db/schema/index.js';
import { SecretBoxError, type SecretBox } from '@/lib/secret-box.js';

export interface KeyStoreOptions {
  db: Database;
  /** The longest lifetime of a token signed by these keys (seconds): how long a retired key stays published. */
  tokenLifetime: number;
  /** An active key older than this is replaced at start and on refresh. */
  maxAgeDays: number;
  /** Seals and opens the private keys. */
  secrets: SecretBox;
}

export class SigningKeysLocked extends Error {
  constructor() {
    super(
      'The auth server’s signing keys do not open with this encryption key (ENCRYPTION_KEY, ENCRYPTION_KEY_FILE or ' +
        'the generated key in DATA_DIR): start it with the key the database was written with.',
    );
    this.name = 'SigningKeysLocked';
  }
}

const purposeOf = (kid: string) => `auth-signing-key:${kid}`;

interface StoredKey {
  kid: string;
  privateJwk: Record<string, string>;
  publicJwk: Record<string, string>;
  createdAt: Date;
  retiredAt: Date | null;
}

const CLOCK_SKEW_SECONDS = 300;
/** An unknown kid makes the store re-read the database, at most this often. */
const RELOAD_THROTTLE_MS = 10_000;
const ROTATION_LOCK = sql`select pg_advisory_xact_lock(hashtext('careplane.auth.signing-keys'))`;

async function newKey(): Promise<Omit<StoredKey, 'createdAt' | 'retiredAt'>> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const meta = { kid, alg: 'ES256', use: 'sig' };
  return {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), ...meta } as unknown as Record<string, string>,
    publicJwk: { ...publicJwk, ...meta } as unknown as Record<string, string>,
  };
}

export class KeyStore {
  private keys: StoredKey[] = [];
  private verifier: JWTVerifyGetKey = createLocalJWKSet({ keys: [] });
  private lastReload = 0;
  private readonly listeners = new Set<() => void>();

  private constructor(private readonly options: KeyStoreOptions) {}

  static async open(options: KeyStoreOptions): Promise<KeyStore> {
    const store = new KeyStore(options);
    await store.ensureActive();
    return store;
  }

  /** Keys in signing order: the active key first, then retired keys still published. */
  get current(): readonly StoredKey[] {
    return this.keys;
  }

  /** Changes whenever the key set does (the provider is rebuilt on change). */
  get version(): string {
    return this.keys.map((key) => key.kid).join(',');
  }

  onChange(listener: () => void) {
    this.listeners.add(listener);
  }

  /** The provider's key set (private keys). */
  providerJwks(): { keys: JWK[] } {
    return { keys: this.keys.map((key) => ({ ...key.privateJwk })) };
  }

  publicJwks(): JSONWebKeySet {
    return { keys: this.keys.map((key) => ({ ...key.publicJwk })) };
  }

  /** For jose's jwtVerify: resolves a token's kid against the published keys, re-reading on an unknown kid. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    try {
      return await this.verifier(header, token);
    } catch (error) {
      const known = this.keys.some((key) => key.kid === header.kid);
      if (known || Date.now() - this.lastReload < RELOAD_THROTTLE_MS) throw error;
      await this.reload();
      return this.verifier(header, token);
    }
  };

  async reload(): Promise<void> {
    const { db } = this.options;
    const stored = await db
      .select()
      .from(authSigningKeys)
      .where(or(isNull(authSigningKeys.retiredAt), gt(authSigningKeys.publishUntil, new Date())))
      .orderBy(desc(authSigningKeys.createdAt));
    const rows: StoredKey[] = [];
    for (const row of stored) rows.push({ ...row, privateJwk: await this.privateJwkOf(row) });
    const active = rows.filter((row) => !row.retiredAt);
    const retired = rows.filter((row) => row.retiredAt);
    const before = this.version;
    this.keys = [...active, ...retired];
    this.verifier = createLocalJWKSet(this.publicJwks());
    this.lastReload = Date.now();
    if (this.version !== before) for (const listener of this.listeners) listener();
  }

  /** Opens a stored private key; a key stored in the clear (older databases) is sealed on the way. */
  private async privateJwkOf(row: typeof authSigningKeys.$inferSelect): Promise<Record<string, string>> {
    const { secrets, db } = this.options;
    if (row.privateJwkSealed) {
      try {
        return JSON.parse(secrets.open(row.privateJwkSealed, purposeOf(row.kid))) as Record<string, string>;
      } catch (error) {
        if (error instanceof SecretBoxError) throw new SigningKeysLocked();
        throw error;
      }
    }
    if (!row.privateJwk) throw new Error(`Signing key ${row.kid} has no private half`);
    await db
      .update(authSigningKeys)
      .set({
        privateJwkSealed: secrets.seal(JSON.stringify(row.privateJwk), purposeOf(row.kid)),
        privateJwk: null,
      })
      .where(eq(authSigningKeys.kid, row.kid));
    return row.privateJwk;
  }

  /** Makes sure a fresh active key exists (creating one on a new database or when the active one is too old). */
  async ensureActive(): Promise<void> {
    await this.reload();
    const active = this.keys[0];
    if (active && !active.retiredAt && !this.tooOld(active)) return;
    await this.rotate({ onlyIfStale: true });
  }

  private tooOld(key: { createdAt: Date }) {
    return Date.now() - key.createdAt.getTime() > this.options.maxAgeDays * 86_400_000;
  }

  /**
   * A new active key; the previous active keys are retired and stay published for the token lifetime (plus
   * clock skew). Serialized across processes by an advisory lock.
   */
  async rotate(options: { onlyIfStale?: boolean } = {}): Promise<string> {
    const { db, tokenLifetime } = this.options;
    const key = await newKey();
    const kid = await db.transaction(async (tx) => {
      await tx.execute(ROTATION_LOCK);
      const active = await tx.select().from(authSigningKeys).where(isNull(authSigningKeys.retiredAt));
      if (options.onlyIfStale && active.some((row) => !this.tooOld(row))) return active[0]!.kid;
      const now = new Date();
      const publishUntil = new Date(now.getTime() + (tokenLifetime + CLOCK_SKEW_SECONDS) * 1000);
      await tx
        .update(authSigningKeys)
        .set({ retiredAt: now, publishUntil })
        .where(isNull(authSigningKeys.retiredAt));
      await tx.insert(authSigningKeys).values({
        kid: key.kid,
        publicJwk: key.publicJwk,
        privateJwkSealed: this.options.secrets.seal(JSON.stringify(key.privateJwk), purposeOf(key.kid)),
        createdAt: now,
      });
      return key.kid;
    });
    await this.reload();
    return kid;
  }
}
