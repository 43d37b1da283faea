// Demo sign-in: identities for the named demo users (subject = masterId), a store with their keys, the
// printed instructions; created once, and the store approves a real sign-in into the admin area. A restart
// issues no enrollment code, keeps a revoked demo key revoked, says when the store is gone instead of making
// it again, and enrolls a key only for a demo identity that has none at all.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import { startAuthTestServer, type AuthTestServer } from '@/test/auth-server.js';
import type { CliIo } from '@/cli/io.js';
import { run } from '@/cli/main.js';
import { readStore } from '@/lib/authenticator-store.js';
import { authAuthenticatorKeys, authEnrollmentCodes, authIdentities, users } from '@/db/schema/index.js';
import { demoSignInUsers, loadDemoDataIfEmpty } from '@/db/seed/demo.js';
import { DEMO_SETUP_TIMEOUT_MS } from './demo.test-helpers.js';
import {
  demoSignInInstructions,
  demoSignInWarnings,
  ensureDemoSignIn,
  injectFetch,
  type DemoSignIn,
} from './demo-sign-in.js';

let t: AuthTestServer;
let dataDir: string;
let first: DemoSignIn;

/** What a server start does for the demo's sign-in, on the same database and data folder. */
const start = async () =>
  (await ensureDemoSignIn({
    db: t.database.handle.db,
    authServer: t.server,
    fetch: injectFetch(t.app),
    dataDir,
  }))!;

beforeAll(async () => {
  t = await startAuthTestServer({ AUTH_RATE_LIMIT_PER_IDENTITY: '1000' });
  dataDir = mkdtempSync(path.join(tmpdir(), 'careplane-demo-'));
  await loadDemoDataIfEmpty(t.database.handle);
  first = await start();
}, DEMO_SETUP_TIMEOUT_MS);

afterAll(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const demoUsers = demoSignInUsers();
const demoUser = (prefix: string) => demoUsers.find((user) => user.username.startsWith(`${prefix}@`))!;
const ENROLLMENT_LINK = '/authenticator/enroll#code=';

const enrollmentCodes = async () =>
  (await t.database.handle.db.select({ id: authEnrollmentCodes.id }).from(authEnrollmentCodes)).length;
const keysOf = (identityId: string) =>
  t.database.handle.db
    .select()
    .from(authAuthenticatorKeys)
    .where(eq(authAuthenticatorKeys.identityId, identityId));

/**
 * A console's sign-in as the user, approved with the demo store by the command-line authenticator: its exit
 * code and output, and the tokens when it was approved.
 */
async function signInWithStore(username: string, bindingMessage: string) {
  const oidc = await client.discovery(new URL(t.issuer), CONSOLE_CLIENT_ID, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
  const started = await client.initiateBackchannelAuthentication(oidc, {
    scope: 'openid',
    login_hint: username,
    binding_message: bindingMessage,
  });
  const out: string[] = [];
  const io: CliIo = { out: (line) => out.push(line), err: (line) => out.push(line) };
  const code = await run(
    [
      'authenticator',
      'approve',
      '--store',
      first.storePath,
      '--username',
      username,
      '--code',
      bindingMessage,
      '--wait',
      '10',
    ],
    { io, env: {}, client: { pollIntervalMs: 100 } },
  );
  const tokens = code === 0 ? await client.pollBackchannelAuthenticationGrant(oidc, started) : undefined;
  return { code, out: out.join('\n'), tokens };
}

describe('demo sign-in', () => {
  it('creates the eight identities with the demo users’ subjects and a store holding their keys', async () => {
    expect(first.createdIdentities).toBe(8);
    expect(first.enrolledKeys).toBe(8);
    expect(first.storeFound).toBe(false);
    expect(first.identities.map((identity) => identity.storeKey)).toEqual(Array(8).fill('enrolled'));
    expect(demoSignInWarnings(first)).toEqual([]);
    const identities = await t.database.handle.db
      .select()
      .from(authIdentities)
      .where(
        inArray(
          authIdentities.id,
          demoUsers.map((user) => user.masterId),
        ),
      );
    expect(identities.map((identity) => [identity.id, identity.username]).sort()).toEqual(
      demoUsers.map((user) => [user.masterId, user.username]).sort(),
    );
    expect(identities.find((identity) => identity.username === 'admin@careplane.local')?.roles).toEqual([
      'admin',
    ]);

    const storePath = path.join(dataDir, 'demo-authenticator.json');
    expect(first.storePath).toBe(storePath);
    expect(statSync(storePath).mode & 0o777).toBe(0o600);
    const store = readStore(storePath);
    expect(store.identities.map((entry) => entry.username).sort()).toEqual(
      demoUsers.map((user) => user.username).sort(),
    );
    expect(new Set(store.identities.map((entry) => entry.issuer))).toEqual(new Set([t.issuer]));
  });

  it('prints the console address, the identifiers, enrollment links and the approve command', () => {
    const text = demoSignInInstructions(first, 'http://localhost:3000', dataDir);
    expect(text).toContain('open http://localhost:3000/login');
    for (const user of demoUsers) expect(text).toContain(user.username);
    expect(text).toContain(
      'npx careplane authenticator approve --store demo-authenticator.json --username admin@careplane.local --code "<the code the console shows>"',
    );
    expect(first.identities).toHaveLength(8);
    for (const identity of first.identities) {
      expect(identity.enrollmentLink).toContain(`${t.baseUrl}/authenticator/enroll#code=`);
      expect(text).toContain(identity.enrollmentLink);
    }
  });

  it('creates nothing twice on a restart and issues no enrollment code', async () => {
    const keysBefore = await t.database.handle.db.select().from(authAuthenticatorKeys);
    const codesBefore = await enrollmentCodes();
    const storeBefore = readStore(first.storePath);
    const again = await start();
    expect(again.createdIdentities).toBe(0);
    expect(again.enrolledKeys).toBe(0);
    expect(await t.database.handle.db.select().from(authAuthenticatorKeys)).toHaveLength(keysBefore.length);
    expect(await enrollmentCodes()).toBe(codesBefore);
    expect(readStore(first.storePath)).toEqual(storeBefore);
    expect(again.identities.map((identity) => identity.username)).toEqual(
      first.identities.map((identity) => identity.username),
    );
    expect(again.identities.map((identity) => [identity.storeKey, identity.enrollmentLink])).toEqual(
      Array(8).fill(['kept', null]),
    );
    expect(demoSignInWarnings(again)).toEqual([]);
    // The instructions still say how to sign in with the store, but carry no working credential.
    const text = demoSignInInstructions(again, 'http://localhost:3000', dataDir);
    expect(text).toContain(
      'npx careplane authenticator approve --store demo-authenticator.json --username admin@careplane.local --code "<the code the console shows>"',
    );
    expect(text).not.toContain(ENROLLMENT_LINK);
    expect(text).toContain('only the first start prints links');
  });

  it('the store approves the admin’s sign-in, which opens the admin API', async () => {
    const signIn = await signInWithStore('admin@careplane.local', 'DEMO 1');
    expect(signIn.code, signIn.out).toBe(0);
    expect(signIn.out).toContain('Binding message: DEMO 1');
    const tokens = signIn.tokens!;
    const admin = demoUser('admin');
    expect(tokens.claims()!.sub).toBe(admin.masterId);

    const list = await fetch(`${t.baseUrl}/api/users`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { total: number }).total).toBeGreaterThan(50);

    const account = await fetch(`${t.baseUrl}/api/auth`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: tokens.id_token }),
    });
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({
      username: 'admin@careplane.local',
      masterId: admin.masterId,
      roles: ['admin'],
      localRoles: ['application_admin'],
    });
  });

  it('a demo key an admin revoked stays revoked across a restart, and the start names who has no phone', async () => {
    const nurse = demoUser('nurse');
    const [nurseUser] = await t.database.handle.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.masterId, nurse.masterId));
    const [key] = await keysOf(nurse.masterId);
    const stored = readStore(first.storePath).identities.find((entry) => entry.username === nurse.username);
    expect(stored?.keyId).toBe(key!.id);
    // A lost phone, revoked the way an admin does on the person's page (decision 099).
    const admin = await signInWithStore('admin@careplane.local', 'DEMO 2');
    expect(admin.code, admin.out).toBe(0);
    const revoked = await fetch(`${t.baseUrl}/api/users/${nurseUser!.id}/phones/${key!.id}/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.tokens!.access_token}` },
    });
    expect(revoked.status).toBe(200);
    const codesBefore = await enrollmentCodes();

    const again = await start();
    expect(again.enrolledKeys).toBe(0);
    expect(await enrollmentCodes()).toBe(codesBefore);
    const keys = await keysOf(nurse.masterId);
    expect(keys.map((row) => [row.id, row.revokedAt !== null])).toEqual([[key!.id, true]]);
    expect(
      readStore(first.storePath).identities.find((entry) => entry.username === nurse.username)?.keyId,
    ).toBe(key!.id);
    expect(again.identities.find((identity) => identity.username === nurse.username)).toMatchObject({
      storeKey: 'revoked',
      hasActiveKey: false,
      enrollmentLink: null,
    });

    const warnings = demoSignInWarnings(again);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.identities).toEqual([nurse.username]);
    expect(warnings[0]!.message).toContain(
      `without a usable phone (their keys were revoked and stay so): ${nurse.username};`,
    );
    expect(warnings[0]!.message).toContain('an administrator enrolls a phone on the person’s page');
    const text = demoSignInInstructions(again, 'http://localhost:3000', dataDir);
    expect(text).toMatch(new RegExp(`${nurse.username} +its key was revoked`));
    expect(text).not.toContain(ENROLLMENT_LINK);

    const signIn = await signInWithStore(nurse.username, 'DEMO 3');
    expect(signIn.code, signIn.out).toBe(1);
    expect(signIn.out).toContain('Unknown or revoked authenticator key (HTTP 401)');
    expect(signIn.tokens).toBeUndefined();
  });

  it('a demo identity with no key at all gets one in the store, and a phone link, at the next start', async () => {
    const driver = demoUser('driver');
    const [old] = await keysOf(driver.masterId);
    await t.database.handle.db
      .delete(authAuthenticatorKeys)
      .where(eq(authAuthenticatorKeys.identityId, driver.masterId));

    const again = await start();
    expect(again.enrolledKeys).toBe(1);
    const keys = await keysOf(driver.masterId);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ label: 'demo store', revokedAt: null });
    expect(keys[0]!.id).not.toBe(old!.id);
    const entries = readStore(first.storePath).identities.filter(
      (entry) => entry.username === driver.username,
    );
    expect(entries.map((entry) => entry.keyId)).toEqual([keys[0]!.id]);
    // Its phone link is the only one this start issued.
    const linked = again.identities.filter((identity) => identity.enrollmentLink !== null);
    expect(linked.map((identity) => [identity.username, identity.storeKey])).toEqual([
      [driver.username, 'enrolled'],
    ]);
    expect(linked[0]!.enrollmentLink).toContain(`${t.baseUrl}${ENROLLMENT_LINK}`);

    const signIn = await signInWithStore(driver.username, 'DEMO 4');
    expect(signIn.code, signIn.out).toBe(0);
    expect(signIn.tokens!.claims()!.sub).toBe(driver.masterId);
  });

  it('a missing store is said so and not made again: the keys on the database are kept', async () => {
    const keysBefore = await t.database.handle.db.select().from(authAuthenticatorKeys);
    const codesBefore = await enrollmentCodes();
    rmSync(first.storePath);

    const again = await start();
    expect(again.enrolledKeys).toBe(0);
    expect(again.storeFound).toBe(false);
    expect(existsSync(first.storePath)).toBe(false);
    expect(await t.database.handle.db.select().from(authAuthenticatorKeys)).toEqual(keysBefore);
    expect(await enrollmentCodes()).toBe(codesBefore);
    expect(again.identities.map((identity) => [identity.storeKey, identity.enrollmentLink])).toEqual(
      Array(8).fill(['missing', null]),
    );
    const missing = demoSignInWarnings(again).find((warning) => warning.message.includes('is missing'));
    expect(missing?.identities).toEqual(demoUsers.map((user) => user.username));
    expect(missing?.message).toContain(`the demo authenticator store ${first.storePath} is missing`);
    expect(missing?.message).toContain('their keys on the database are kept and none is enrolled again');
    const text = demoSignInInstructions(again, 'http://localhost:3000', dataDir);
    expect(text).toContain('The demo authenticator store (demo-authenticator.json) is missing');
    expect(text).toMatch(/admin@careplane\.local +no key of it in the store/);
    expect(text).not.toContain('npx careplane authenticator approve');
    expect(text).not.toContain(ENROLLMENT_LINK);
  });

  it('does nothing on a database without the demo users', async () => {
    const empty = await startAuthTestServer();
    try {
      const result = await ensureDemoSignIn({
        db: empty.database.handle.db,
        authServer: empty.server,
        fetch: injectFetch(empty.app),
        dataDir: path.join(dataDir, 'none'),
      });
      expect(result).toBeNull();
      expect(await empty.database.handle.db.select().from(authIdentities)).toHaveLength(0);
    } finally {
      await empty.close();
    }
  });
});
