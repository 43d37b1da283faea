// Test support: a whole server listening on 127.0.0.1 (openid-client needs real HTTP) with the auth server
// mounted at its issuer, and identities enrolled through the authenticator protocol module.
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import {
  AuthenticatorClient,
  generateAuthenticatorKey,
  type AuthenticatorKey,
} from '@careplane/shared/authenticator/protocol';
import { buildApp } from '@/app.js';
import { loadConfig, type AppConfig } from '@/config.js';
import { TEST_CA_PASSPHRASE, TEST_ENCRYPTION_KEY, createTestDatabase, type TestDatabase } from './harness.js';
import type { IdentityInput } from '@/auth-server/identities.js';
import type { AuthServer } from '@/auth-server/index.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface AuthTestServer {
  app: FastifyInstance;
  config: AppConfig;
  server: AuthServer;
  baseUrl: string;
  issuer: string;
  authenticator: AuthenticatorClient;
  database: TestDatabase;
  close: () => Promise<void>;
}

/** Starts the server; `database` lets a second process share the first one's (PostgreSQL) database. */
export async function startAuthTestServer(
  env: Record<string, string> = {},
  database?: TestDatabase,
): Promise<AuthTestServer> {
  const db = database ?? (await createTestDatabase());
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'silent',
    DEMO_DATA: '0',
    AUTH_POLL_INTERVAL: '1',
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    DOCUMENTS_CA_PASSPHRASE: TEST_CA_PASSPHRASE,
    ...env,
  });
  const app = await buildApp(config, { database: db.handle, logger: false });
  await app.listen({ host: '127.0.0.1', port });
  const server = app.authServer!;
  return {
    app,
    config,
    server,
    baseUrl,
    issuer: config.auth.issuer,
    authenticator: new AuthenticatorClient({ issuer: config.auth.issuer }),
    database: db,
    close: async () => {
      await app.close();
      if (!database) await db.drop();
    },
  };
}

export interface EnrolledIdentity {
  identityId: string;
  username: string;
  key: AuthenticatorKey;
}

/** Creates an identity and enrolls a fresh authenticator key for it over HTTP. */
export async function enrolledIdentity(
  target: Pick<AuthTestServer, 'server' | 'authenticator'>,
  input: Partial<IdentityInput> & { username: string },
): Promise<EnrolledIdentity> {
  const identity = await target.server.identities.create({
    firstName: 'Test',
    lastName: 'Person',
    ...input,
  });
  const { code } = await target.server.identities.issueEnrollmentCode(identity.id);
  const keyPair = await generateAuthenticatorKey();
  const enrolled = await target.authenticator.enroll(code, keyPair);
  return {
    identityId: identity.id,
    username: identity.username,
    key: { keyId: enrolled.keyId, privateKey: keyPair.privateKey },
  };
}

/** An answer of the auth server: status, every header but the date, the JSON body. */
export interface FormAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A form POST to a path below the issuer, with the body exactly as given. */
export async function postForm(
  server: Pick<AuthTestServer, 'issuer'>,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<FormAnswer> {
  const response = await fetch(`${server.issuer}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  const answer = Object.fromEntries(response.headers);
  delete answer.date;
  return {
    status: response.status,
    headers: answer,
    body: (await response.json()) as Record<string, unknown>,
  };
}
