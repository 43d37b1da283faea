// Test harness: a throwaway database (PGlite in memory, or a fresh PostgreSQL database when
// DATABASE_URL_TEST is set), an app built on it, and access tokens signed by a key of the test's own.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { SignJWT, exportJWK, generateKeyPair, createLocalJWKSet, type JWK } from 'jose';
import { buildApp } from '@/app.js';
import { loadConfig, type AppConfig } from '@/config.js';
import { openDatabase, type DatabaseHandle, type OpenDatabaseOptions } from '@/db/client.js';
import { users } from '@/db/schema/index.js';
import { createPostgresDatabase } from './postgres-database.js';

export const TEST_ISSUER = 'http://careplane.test/auth';
export const TEST_AUDIENCE = 'careplane-api';
/** One encryption key per test run, so no test writes a key file. */
export const TEST_ENCRYPTION_KEY = randomBytes(32).toString('hex');
export const TEST_CA_PASSPHRASE = 'careplane test CA passphrase';

export interface TestDatabase {
  handle: DatabaseHandle;
  drop: () => Promise<void>;
}

export { createPostgresDatabase } from './postgres-database.js';

/**
 * What Vitest's global setup provided for this run (global-setup.ts): the migrated database every test file's
 * own starts from. Nothing outside Vitest (the benches) or without that setup: a database then starts empty.
 */
async function provided<K extends 'pgliteTemplate' | 'postgresTemplate'>(
  key: K,
): Promise<string | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  return inject(key);
}

/** The migrated embedded database, read once per test file. */
let pgliteTemplate: Promise<Blob | undefined> | undefined;
const migratedPglite = () =>
  (pgliteTemplate ??= provided('pgliteTemplate').then(async (file) =>
    file ? new Blob([await readFile(file)]) : undefined,
  ));

/**
 * A database of the test file's own; on PostgreSQL a uniquely named one, dropped afterwards. `timeouts` are
 * the server's database deadlines (the test configuration's, when a context builds it).
 */
export async function createTestDatabase(
  options: Pick<OpenDatabaseOptions, 'timeouts' | 'onQuery'> = {},
): Promise<TestDatabase> {
  const { timeouts, onQuery } = options;
  if (!process.env.DATABASE_URL_TEST) {
    const handle = await openDatabase({
      loadDataDir: await migratedPglite(),
      ...(onQuery ? { onQuery } : {}),
    });
    return { handle, drop: () => handle.close() };
  }
  const created = await createPostgresDatabase('careplane_test', await provided('postgresTemplate'));
  const handle = await openDatabase({
    databaseUrl: created.url,
    poolSize: 5,
    ...(timeouts ? { timeouts } : {}),
    ...(onQuery ? { onQuery } : {}),
  });
  return {
    handle,
    drop: async () => {
      await handle.close();
      await created.drop();
    },
  };
}

export interface TokenSigner {
  jwk: JWK;
  sign: (claims: Record<string, unknown>, options?: SignOptions) => Promise<string>;
}

export interface SignOptions {
  subject?: string;
  audience?: string;
  issuer?: string;
  expiresInSeconds?: number;
  typ?: string;
  kid?: string;
  /** Leaves out `iat`, as a careless issuer would. */
  withoutIssuedAt?: boolean;
}

export async function createSigner(kid = 'test-key'): Promise<TokenSigner> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  return {
    jwk,
    sign: async (claims, options = {}) => {
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? kid, typ: options.typ ?? 'at+jwt' })
        .setIssuer(options.issuer ?? TEST_ISSUER)
        .setAudience(options.audience ?? TEST_AUDIENCE)
        .setSubject(options.subject ?? randomUUID());
      if (!options.withoutIssuedAt) jwt.setIssuedAt(now);
      return jwt
        .setJti(randomUUID())
        .setExpirationTime(now + (options.expiresInSeconds ?? 600))
        .sign(privateKey);
    },
  };
}

export interface TestContext {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: AppConfig;
  signer: TokenSigner;
  /** Token of an admin whose user record exists. */
  adminToken: string;
  adminUserId: string;
  /** Token of a signed-in user without admin rights (a nurse). */
  userToken: string;
  userId: string;
  close: () => Promise<void>;
}

/** `env` adds to (or overrides) the test configuration. */
export async function createTestContext(env: Record<string, string> = {}): Promise<TestContext> {
  const config = loadConfig({
    // Every answer is also checked against its contract (config.checkAnswers).
    NODE_ENV: 'test',
    AUTH_ISSUER: TEST_ISSUER,
    AUTH_AUDIENCE: TEST_AUDIENCE,
    LOG_LEVEL: 'silent',
    DEMO_DATA: '0',
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    // Test files write far faster than people do; the limit itself has a test of its own.
    API_WRITE_RATE_LIMIT: '1000000',
    // Keeps the documents' CA passphrase out of the working copy's DATA_DIR.
    DOCUMENTS_CA_PASSPHRASE: TEST_CA_PASSPHRASE,
    ...env,
  });
  const database = await createTestDatabase({
    timeouts: {
      connectMs: config.database.connectTimeoutMs,
      statementMs: config.database.statementTimeoutMs,
      lockMs: config.database.lockTimeoutMs,
    },
  });
  const signer = await createSigner();
  const app = await buildApp(config, {
    database: database.handle,
    keys: createLocalJWKSet({ keys: [signer.jwk] }),
    logger: false,
  });
  await app.ready();

  const adminSubject = randomUUID();
  const userSubject = randomUUID();
  const [admin, user] = await database.handle.db
    .insert(users)
    .values([
      {
        username: 'admin@careplane.test',
        usernameWithoutDomain: 'admin',
        primaryDomain: 'careplane.test',
        masterId: adminSubject,
        firstName: 'Ada',
        lastName: 'Admin',
        roles: ['admin'],
        localRoles: ['application_admin'],
      },
      {
        username: 'nina@careplane.test',
        usernameWithoutDomain: 'nina',
        primaryDomain: 'careplane.test',
        masterId: userSubject,
        firstName: 'Nina',
        lastName: 'Nurse',
        roles: ['public'],
        localRoles: ['nurse'],
      },
    ])
    .returning({ id: users.id });

  return {
    app,
    database: database.handle,
    config,
    signer,
    adminToken: await signer.sign({ roles: ['admin'] }, { subject: adminSubject }),
    adminUserId: admin!.id,
    userToken: await signer.sign({ roles: ['public'] }, { subject: userSubject }),
    userId: user!.id,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/** inject() with a bearer token and JSON. */
export function api(context: TestContext, token = context.adminToken) {
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE') => (url: string, payload?: unknown) =>
    context.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return { get: call('GET'), post: call('POST'), patch: call('PATCH'), delete: call('DELETE') };
}
