// Demo sign-in: identities for the named demo users (subject = masterId), a store with their keys, the
// printed instructions; created once, and the store approves a real sign-in into the admin area.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import { startAuthTestServer, type AuthTestServer } from '@/test/auth-server.js';
import type { CliIo } from '@/cli/io.js';
import { run } from '@/cli/main.js';
import { readStore } from '@/lib/authenticator-store.js';
import { authAuthenticatorKeys, authIdentities } from '@/db/schema/index.js';
import { demoSignInUsers, loadDemoDataIfEmpty } from '@/db/seed/demo.js';
import { demoSignInInstructions, ensureDemoSignIn, injectFetch, type DemoSignIn } from './demo-sign-in.js';

let t: AuthTestServer;
let dataDir: string;
let first: DemoSignIn;

beforeAll(async () => {
  t = await startAuthTestServer({ AUTH_RATE_LIMIT_PER_IDENTITY: '1000' });
  dataDir = mkdtempSync(path.join(tmpdir(), 'careplane-demo-'));
  await loadDemoDataIfEmpty(t.database.handle);
  first = (await ensureDemoSignIn({
    db: t.database.handle.db,
    authServer: t.server,
    fetch: injectFetch(t.app),
    dataDir,
  }))!;
});

afterAll(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const demoUsers = demoSignInUsers();

describe('demo sign-in', () => {
  it('creates the eight identities with the demo users’ subjects and a store holding their keys', async () => {
    expect(first.createdIdentities).toBe(8);
    expect(first.enrolledKeys).toBe(8);
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

  it('creates nothing twice on a restart, and prints fresh links', async () => {
    const keysBefore = await t.database.handle.db.select().from(authAuthenticatorKeys);
    const storeBefore = readStore(first.storePath);
    const again = (await ensureDemoSignIn({
      db: t.database.handle.db,
      authServer: t.server,
      fetch: injectFetch(t.app),
      dataDir,
    }))!;
    expect(again.createdIdentities).toBe(0);
    expect(again.enrolledKeys).toBe(0);
    expect(await t.database.handle.db.select().from(authAuthenticatorKeys)).toHaveLength(keysBefore.length);
    expect(readStore(first.storePath)).toEqual(storeBefore);
    expect(again.identities.map((identity) => identity.username)).toEqual(
      first.identities.map((identity) => identity.username),
    );
    expect(again.identities[0]!.enrollmentLink).not.toBe(first.identities[0]!.enrollmentLink);
  });

  it('the store approves the admin’s sign-in, which opens the admin API', async () => {
    const oidc = await client.discovery(new URL(t.issuer), CONSOLE_CLIENT_ID, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    const started = await client.initiateBackchannelAuthentication(oidc, {
      scope: 'openid',
      login_hint: 'admin@careplane.local',
      binding_message: 'DEMO 1',
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
        'admin@careplane.local',
        '--code',
        'DEMO 1',
        '--wait',
        '10',
      ],
      { io, env: {}, client: { pollIntervalMs: 100 } },
    );
    expect(code, out.join('\n')).toBe(0);
    expect(out.join('\n')).toContain('Binding message: DEMO 1');
    const tokens = await client.pollBackchannelAuthenticationGrant(oidc, started);
    const admin = demoUsers.find((user) => user.username === 'admin@careplane.local')!;
    expect(tokens.claims()!.sub).toBe(admin.masterId);

    const list = await fetch(`${t.baseUrl}/api/users`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { total: number }).total).toBeGreaterThan(50);

    const signIn = await fetch(`${t.baseUrl}/api/auth`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: tokens.id_token }),
    });
    expect(signIn.status).toBe(200);
    expect(await signIn.json()).toMatchObject({
      username: 'admin@careplane.local',
      masterId: admin.masterId,
      roles: ['admin'],
      localRoles: ['application_admin'],
    });
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
