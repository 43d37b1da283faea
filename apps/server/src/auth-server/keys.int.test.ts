// Signing keys at rest: sealed with the encryption key, a key stored in the clear sealed on the way, and a
// server started with another key refused loudly instead of minting tokens nobody can verify.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSigningKeys } from '@/db/schema/index.js';
import { createSecretBox } from '@/lib/secret-box.js';
import { createTestDatabase, type TestDatabase } from '@/test/harness.js';
import { KeyStore, SigningKeysLocked } from './keys.js';

let database: TestDatabase;
const key = randomBytes(32);
const open = (secrets = createSecretBox(key)) =>
  KeyStore.open({ db: database.handle.db, tokenLifetime: 1800, maxAgeDays: 90, secrets });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe('signing keys at rest', () => {
  it('are stored sealed, never as a private JWK in the clear', async () => {
    const store = await open();
    const rows = await database.handle.db.select().from(authSigningKeys);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.privateJwk).toBeNull();
    expect(rows[0]!.privateJwkSealed).toMatch(/^v1\./);
    expect(JSON.stringify(rows[0])).not.toContain(store.providerJwks().keys[0]!.d);
    // The private half opens again, and it is the key the provider signs with.
    expect(store.providerJwks().keys[0]).toMatchObject({ kid: rows[0]!.kid, kty: 'EC', crv: 'P-256' });
  });

  it('seals a key found in the clear (a database from before sealing)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = { ...(await exportJWK(privateKey)), kid: 'legacy', alg: 'ES256', use: 'sig' };
    await database.handle.db.insert(authSigningKeys).values({
      kid: 'legacy',
      privateJwk: privateJwk as unknown as Record<string, string>,
      publicJwk: { ...(await exportJWK(publicKey)), kid: 'legacy' } as unknown as Record<string, string>,
      createdAt: new Date(Date.now() - 86_400_000),
    });
    const store = await open();
    const [legacy] = await database.handle.db
      .select()
      .from(authSigningKeys)
      .where(eq(authSigningKeys.kid, 'legacy'));
    expect(legacy!.privateJwk).toBeNull();
    expect(legacy!.privateJwkSealed).toMatch(/^v1\./);
    expect(store.providerJwks().keys.map((jwk) => jwk.kid)).toContain('legacy');
  });

  it('refuse to start with another encryption key', async () => {
    await expect(open(createSecretBox(randomBytes(32)))).rejects.toThrow(SigningKeysLocked);
    await expect(open(createSecretBox(randomBytes(32)))).rejects.toThrow(/ENCRYPTION_KEY/);
  });
});
