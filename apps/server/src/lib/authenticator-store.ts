// The command-line authenticator's key store: a JSON file (mode 0600) holding, per identity, the issuer,
// username, key id and the private key as a JWK. (The PWA keeps non-extractable keys in IndexedDB instead.)
// The CLI reads and writes it, and so do the demo's sign-in and documents (dev/), which keep the demo
// identities' keys in one.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { importPrivateJwk, type AuthenticatorKey } from '@careplane/shared/authenticator/protocol';

/** A store that cannot be used as asked (not a store, no such identity): said to the user as it is. */
export class AuthenticatorStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthenticatorStoreError';
  }
}

const storedIdentitySchema = z.object({
  issuer: z.string().url(),
  username: z.string().min(1),
  keyId: z.string().min(1),
  privateJwk: z.object({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: z.string(),
    y: z.string(),
    d: z.string(),
  }),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  enrolledAt: z.string(),
});
export type StoredIdentity = z.infer<typeof storedIdentitySchema>;

const storeSchema = z.object({
  version: z.literal(1),
  identities: z.array(storedIdentitySchema),
});
export type AuthenticatorStore = z.infer<typeof storeSchema>;

export const emptyStore = (): AuthenticatorStore => ({ version: 1, identities: [] });

export function readStore(file: string): AuthenticatorStore {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyStore();
    throw error;
  }
  const parsed = storeSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new AuthenticatorStoreError(`${file} is not an authenticator store`);
  return parsed.data;
}

/** Written to a temporary file and renamed, readable by the owner only. */
export function writeStore(file: string, store: AuthenticatorStore) {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/** Adds or replaces the identity's entry (one key per identity and issuer). */
export function putIdentity(store: AuthenticatorStore, entry: StoredIdentity): AuthenticatorStore {
  const others = store.identities.filter(
    (identity) => !(identity.username === entry.username && identity.issuer === entry.issuer),
  );
  return { ...store, identities: [...others, entry] };
}

/** The identity to act for: the named one, or the only one in the store. */
export function pickIdentity(store: AuthenticatorStore, file: string, username?: string): StoredIdentity {
  if (username) {
    const wanted = username.trim().toLowerCase();
    const found = store.identities.find((identity) => identity.username === wanted);
    if (!found) {
      const known = store.identities.map((identity) => identity.username).join(', ') || 'none';
      throw new AuthenticatorStoreError(`${file} holds no key for ${wanted} (it holds: ${known})`);
    }
    return found;
  }
  if (store.identities.length === 1) return store.identities[0]!;
  if (store.identities.length === 0) throw new AuthenticatorStoreError(`${file} holds no keys: enroll first`);
  throw new AuthenticatorStoreError(`${file} holds several identities: name one with --username`);
}

/** The members of a private P-256 JWK a store keeps (no key_ops or ext flags). */
export function storableJwk(jwk: Record<string, unknown>): StoredIdentity['privateJwk'] {
  const { kty, crv, x, y, d } = jwk;
  if (
    kty !== 'EC' ||
    crv !== 'P-256' ||
    typeof x !== 'string' ||
    typeof y !== 'string' ||
    typeof d !== 'string'
  ) {
    throw new Error('Not a private P-256 key');
  }
  return { kty, crv, x, y, d };
}

export async function keyOf(entry: StoredIdentity): Promise<AuthenticatorKey> {
  return { keyId: entry.keyId, privateKey: await importPrivateJwk(entry.privateJwk) };
}
