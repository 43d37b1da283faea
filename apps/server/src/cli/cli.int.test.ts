// The careplane command in-process against a listening server: identity create, authenticator enroll /
// approve / deny / scan end to end (openid-client completes the sign-in), admin provisioning, the embedded
// database lock, `start --only`, and one real spawn of the launcher.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import { enrolledIdentity, startAuthTestServer, type AuthTestServer } from '../test/auth-server.js';
import { loadConfig } from '../config.js';
import { lockEmbeddedDatabase } from '../db/embedded-lock.js';
import { users } from '../db/schema/index.js';
import { startServer } from '../server.js';
import { identityCreateCommand } from './identity.js';
import type { CliIo } from './io.js';
import { run } from './main.js';
import { readStore } from './store.js';

let t: AuthTestServer;
let oidc: client.Configuration;
let folder: string;

beforeAll(async () => {
  t = await startAuthTestServer({ AUTH_RATE_LIMIT_PER_IDENTITY: '1000' });
  oidc = await client.discovery(new URL(t.issuer), CONSOLE_CLIENT_ID, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
  folder = mkdtempSync(path.join(tmpdir(), 'careplane-cli-'));
});

afterAll(async () => {
  await t?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

function capture(): CliIo & { stdout: () => string; stderr: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    stdout: () => out.join('\n'),
    stderr: () => err.join('\n'),
  };
}

/** Runs a command as the terminal would, with a quick polling pace. */
async function careplane(...argv: string[]) {
  const io = capture();
  const code = await run(argv, { io, env: { PUBLIC_URL: t.baseUrl }, client: { pollIntervalMs: 100 } });
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

async function createIdentity(username: string, roles = 'public') {
  const io = capture();
  const { enrollment } = await identityCreateCommand(
    { username, firstName: 'Cleo', lastName: 'Cli', email: username, roles: roles.split(',') },
    io,
    { config: t.config, database: t.database.handle },
  );
  return { enrollment, stdout: io.stdout() };
}

const signInAt = async (username: string, bindingMessage: string) =>
  client.initiateBackchannelAuthentication(oidc, {
    scope: 'openid',
    login_hint: username,
    binding_message: bindingMessage,
  });

describe('careplane identity create and authenticator enroll', () => {
  it('creates an identity, prints its code and link once, and the link enrolls a key once', async () => {
    const store = path.join(folder, 'enroll.json');
    const { enrollment, stdout } = await createIdentity('cleo@careplane.test', 'admin');
    expect(stdout).toContain('Created identity cleo@careplane.test (Cleo Cli)');
    expect(stdout).toContain(enrollment.code);
    expect(stdout).toContain(enrollment.link);

    const enrolled = await careplane('authenticator', 'enroll', '--store', store, enrollment.link);
    expect(enrolled.code, enrolled.stderr).toBe(0);
    expect(enrolled.stdout).toContain(`Enrolled cleo@careplane.test (Cleo Cli) at ${t.issuer}`);
    expect(statSync(store).mode & 0o777).toBe(0o600);
    const saved = readStore(store);
    expect(saved.identities).toHaveLength(1);
    expect(saved.identities[0]).toMatchObject({ issuer: t.issuer, username: 'cleo@careplane.test' });
    expect(saved.identities[0]!.privateJwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(saved.identities[0]!.privateJwk.d).toMatch(/^[\w.~+/=-]{16,}$/);

    const again = await careplane(
      'authenticator',
      'enroll',
      '--store',
      path.join(folder, 'x.json'),
      enrollment.link,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/Invalid, used or expired enrollment code/);

    await expect(createIdentity('cleo@careplane.test')).rejects.toThrow(/already exists/);
    await expect(createIdentity('no-domain')).rejects.toThrow(/--username/);
  });

  it('enrolls with a bare code and --issuer', async () => {
    const store = path.join(folder, 'code.json');
    const { enrollment } = await createIdentity('coda@careplane.test');
    const missingIssuer = await run(['authenticator', 'enroll', '--store', store, enrollment.code], {
      io: capture(),
      env: {},
    });
    expect(missingIssuer).toBe(1);
    const enrolled = await careplane(
      'authenticator',
      'enroll',
      '--store',
      store,
      '--issuer',
      t.issuer,
      enrollment.code,
    );
    expect(enrolled.code, enrolled.stderr).toBe(0);
    expect(readStore(store).identities[0]!.username).toBe('coda@careplane.test');
  });
});

describe('careplane authenticator approve and scan', () => {
  const store = () => path.join(folder, 'signin.json');
  beforeAll(async () => {
    const { enrollment } = await createIdentity('dana@careplane.test', 'admin');
    expect((await careplane('authenticator', 'enroll', '--store', store(), enrollment.link)).code).toBe(0);
  });

  it('approves a CIBA sign-in: openid-client gets tokens, and POST /api/auth creates the user', async () => {
    const started = await signInAt('dana@careplane.test', 'CLI 4711');
    const approved = await careplane('authenticator', 'approve', '--store', store(), '--wait', '10');
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('Sign-in request from Careplane console (careplane-console)');
    expect(approved.stdout).toContain('Binding message: CLI 4711');
    expect(approved.stdout).toContain('Approved.');

    const tokens = await client.pollBackchannelAuthenticationGrant(oidc, started);
    expect(tokens.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(tokens.id_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

    const signIn = await fetch(`${t.baseUrl}/api/auth`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: tokens.id_token }),
    });
    expect(signIn.status).toBe(200);
    const user = (await signIn.json()) as Record<string, unknown>;
    expect(user).toMatchObject({
      username: 'dana@careplane.test',
      firstName: 'Cleo',
      roles: ['admin'],
      masterId: tokens.claims()!.sub,
    });
    const me = await fetch(`${t.baseUrl}/api/users/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { id: string }).id).toBe(user.id);
  });

  it('denies with --deny: the console gets access_denied', async () => {
    const started = await signInAt('dana@careplane.test', 'NOPE 1');
    const denied = await careplane(
      'authenticator',
      'approve',
      '--store',
      store(),
      '--username',
      'dana@careplane.test',
      '--deny',
      '--wait',
      '10',
    );
    expect(denied.code, denied.stderr).toBe(0);
    expect(denied.stdout).toContain('Denied.');
    await expect(client.pollBackchannelAuthenticationGrant(oidc, started)).rejects.toMatchObject({
      error: 'access_denied',
    });
  });

  it('exits non-zero when no request came within --wait', async () => {
    const waited = await careplane('authenticator', 'approve', '--store', store(), '--wait', '1');
    expect(waited.code).toBe(2);
    expect(waited.stderr).toContain('No request for dana@careplane.test came within 1 s.');
    const unknown = await careplane(
      'authenticator',
      'approve',
      '--store',
      store(),
      '--username',
      'zed@careplane.test',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('holds no key for zed@careplane.test');
    expect((await careplane('authenticator', 'approve', '--store', store(), '--wait', 'soon')).code).toBe(1);
    expect((await careplane('authenticator', 'approve', '--bogus')).code).toBe(1);
  });

  it('approves a resource authorization and shows what is asked', async () => {
    const started = await signInAt('dana@careplane.test', 'RES 1');
    expect((await careplane('authenticator', 'approve', '--store', store(), '--wait', '10')).code).toBe(0);
    const tokens = await client.pollBackchannelAuthenticationGrant(oidc, started);
    const asked = await fetch(`${t.issuer}/resource-authorization`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'care-plan.approve',
        resource: 'care-plans/42',
        digest: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg',
        description: 'Sign the care plan',
        bindingMessage: 'DOC 42',
      }),
    });
    expect(asked.status).toBe(200);
    const { id } = (await asked.json()) as { id: string };
    const approved = await careplane('authenticator', 'approve', '--store', store(), '--wait', '10');
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('Authorization request from');
    expect(approved.stdout).toContain('Action: care-plan.approve');
    expect(approved.stdout).toContain('Description: Sign the care plan');
    const state = await fetch(`${t.issuer}/resource-authorization/${id}`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(((await state.json()) as { status: string }).status).toBe('approved');
  });

  it('scans a QR sign-in with --approve: the session hands over a request that redeems for tokens', async () => {
    const session = (await (
      await fetch(`${t.issuer}/qr/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ binding_message: 'QR 77' }),
      })
    ).json()) as { sessionId: string; cbUrl: string; expIn: number };
    const scanned = await careplane(
      'authenticator',
      'scan',
      '--store',
      store(),
      '--username',
      'dana@careplane.test',
      session.cbUrl,
      '--approve',
    );
    expect(scanned.code, scanned.stderr).toBe(0);
    expect(scanned.stdout).toContain('Claimed the sign-in for dana@careplane.test');
    expect(scanned.stdout).toContain('Binding message: QR 77');
    expect(scanned.stdout).toContain('Approved.');

    const status = (await (await fetch(`${t.issuer}/qr/sessions/${session.sessionId}`)).json()) as {
      status: string;
      authRequestId: string;
    };
    expect(status.status).toBe('claimed');
    const tokens = await client.pollBackchannelAuthenticationGrant(oidc, {
      auth_req_id: status.authRequestId,
      expires_in: 60,
      interval: 1,
    });
    expect(tokens.claims()!.preferred_username).toBe('dana@careplane.test');

    // The same code cannot be claimed twice.
    const again = await careplane(
      'authenticator',
      'scan',
      '--store',
      store(),
      '--username',
      'dana@careplane.test',
      session.cbUrl,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/Claiming the sign-in failed/);
  });
});

describe('admin provisioning', () => {
  it('creates a user with its identity; the enrollment code shows once and enrolls once', async () => {
    const admin = await enrolledIdentity(t, { username: 'root@careplane.test', roles: ['admin'] });
    await t.database.handle.db.insert(users).values({
      username: 'root@careplane.test',
      usernameWithoutDomain: 'root',
      primaryDomain: 'careplane.test',
      masterId: admin.identityId,
      roles: ['admin'],
    });
    const started = await signInAt('root@careplane.test', 'ADM 1');
    const request = await t.authenticator.waitForPending(admin.key, { timeoutMs: 5000, intervalMs: 100 });
    await t.authenticator.approve(admin.key, request!);
    const { access_token: adminToken } = await client.pollBackchannelAuthenticationGrant(oidc, started);
    const call = (method: string, url: string, body?: unknown) =>
      fetch(`${t.baseUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${adminToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    const created = await call('POST', '/api/users', {
      username: 'Nora.Nurse@Careplane.Test',
      firstName: 'Nora',
      lastName: 'Nurse',
      roles: ['public'],
      localRoles: ['nurse'],
    });
    expect(created.status).toBe(201);
    const user = (await created.json()) as {
      id: string;
      masterId: string;
      enrollment: { code: string; link: string; expiresAt: string };
    };
    expect(user.enrollment.link).toContain('/authenticator/enroll#code=');
    expect(Date.parse(user.enrollment.expiresAt)).toBeGreaterThan(Date.now());
    const identity = await t.server.identities.findByUsername('nora.nurse@careplane.test');
    expect(identity?.id).toBe(user.masterId);
    expect(identity).toMatchObject({ firstName: 'Nora', lastName: 'Nurse', roles: ['public'] });

    // Reads never carry the code.
    const read = (await (await call('GET', `/api/users/${user.id}`)).json()) as Record<string, unknown>;
    expect(read).not.toHaveProperty('enrollment');
    expect(JSON.stringify(await (await call('GET', '/api/users?limit=200')).json())).not.toContain(
      user.enrollment.code,
    );

    const store = path.join(folder, 'nora.json');
    expect((await careplane('authenticator', 'enroll', '--store', store, user.enrollment.link)).code).toBe(0);
    const reused = await careplane(
      'authenticator',
      'enroll',
      '--store',
      path.join(folder, 'n2.json'),
      user.enrollment.code,
      '--issuer',
      t.issuer,
    );
    expect(reused.code).toBe(1);

    // The new user signs in with the enrolled key; POST /api/auth binds to the provisioned record.
    const login = await signInAt('nora.nurse@careplane.test', 'NEW 1');
    expect((await careplane('authenticator', 'approve', '--store', store, '--wait', '10')).code).toBe(0);
    const tokens = await client.pollBackchannelAuthenticationGrant(oidc, login);
    const signedIn = await fetch(`${t.baseUrl}/api/auth`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: tokens.id_token }),
    });
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { id: string }).id).toBe(user.id);

    // A fresh code for a second device.
    const fresh = await call('POST', `/api/users/${user.id}/enrollment`);
    expect(fresh.status).toBe(201);
    const second = (await fresh.json()) as { code: string; link: string };
    expect(second.code).not.toBe(user.enrollment.code);
    expect(
      (await careplane('authenticator', 'enroll', '--store', path.join(folder, 'nora2.json'), second.link))
        .code,
    ).toBe(0);

    // An existing identity is reused (no code); a user created without one gets it on request.
    const existing = await enrolledIdentity(t, { username: 'has.identity@careplane.test' });
    const reusedIdentity = (await (
      await call('POST', '/api/users', { username: 'has.identity@careplane.test' })
    ).json()) as Record<string, unknown>;
    expect(reusedIdentity.masterId).toBe(existing.identityId);
    expect(reusedIdentity).not.toHaveProperty('enrollment');

    // A refused create leaves no identity behind.
    const refused = await call('POST', '/api/users', {
      username: 'ghost@careplane.test',
      employers: [user.id],
    });
    expect(refused.status).toBe(400);
    expect(await t.server.identities.findByUsername('ghost@careplane.test')).toBeUndefined();

    const [plain] = await t.database.handle.db
      .insert(users)
      .values({
        username: 'late@careplane.test',
        usernameWithoutDomain: 'late',
        primaryDomain: 'careplane.test',
      })
      .returning({ id: users.id });
    const late = await call('POST', `/api/users/${plain!.id}/enrollment`);
    expect(late.status).toBe(201);
    const [row] = await t.database.handle.db.select().from(users).where(eq(users.id, plain!.id));
    expect(row!.masterId).toBe((await t.server.identities.findByUsername('late@careplane.test'))!.id);

    // Admin only.
    expect(
      (
        await fetch(`${t.baseUrl}/api/users/${user.id}/enrollment`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.access_token}` },
        })
      ).status,
    ).toBe(403);
    expect((await call('POST', '/api/users/00000000-0000-4000-8000-000000000000/enrollment')).status).toBe(
      404,
    );
  });
});

describe('the embedded database lock, start --only, and the launcher', () => {
  it('refuses identity create while a server holds the embedded database', async () => {
    const dataDir = path.join(folder, 'locked');
    const lock = lockEmbeddedDatabase(dataDir, 'the Careplane server (all parts)');
    try {
      const io = capture();
      const code = await run(
        ['identity', 'create', '--username', 'x@careplane.test', '--first-name', 'X', '--last-name', 'Y'],
        { io, env: { DATA_DIR: dataDir } },
      );
      expect(code).toBe(1);
      expect(io.stderr()).toContain(`The embedded database in ${dataDir} is in use by the Careplane server`);
      expect(io.stderr()).toContain('stop that process first');
    } finally {
      lock.release();
    }
  });

  it('creates an identity in the embedded database in DATA_DIR when no server holds it', async () => {
    const dataDir = path.join(folder, 'free');
    const io = capture();
    const code = await run(
      [
        'identity',
        'create',
        '--username',
        'free@careplane.test',
        '--first-name',
        'F',
        '--last-name',
        'Ree',
        '--roles',
        'admin,public',
      ],
      { io, env: { DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3999' } },
    );
    expect(code, io.stderr()).toBe(0);
    expect(io.stdout()).toContain('Roles: admin, public');
    expect(io.stdout()).toContain('http://localhost:3999/authenticator/enroll#code=');
    expect(() => readFileSync(path.join(dataDir, 'careplane.lock'))).toThrow();
  });

  it('starts the auth server alone, or the API alone', async () => {
    const base = {
      DATA_DIR: path.join(folder, 'parts'),
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO_DATA: '0',
      LOG_LEVEL: 'silent',
    };
    const auth = await startServer(loadConfig(base), { part: 'auth', logger: false });
    try {
      const discovery = await auth.app.inject({
        method: 'GET',
        url: '/auth/.well-known/openid-configuration',
      });
      expect(discovery.statusCode).toBe(200);
      expect(discovery.json().grant_types_supported).toContain('urn:openid:params:grant-type:ciba');
      expect((await auth.app.inject({ method: 'GET', url: '/api/users' })).statusCode).toBe(404);
      expect((await auth.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await auth.close();
    }
    const api = await startServer(loadConfig(base), { part: 'api', logger: false });
    try {
      expect(api.app.authServer).toBeNull();
      expect((await api.app.inject({ method: 'GET', url: '/auth/jwks' })).statusCode).toBe(404);
      expect((await api.app.inject({ method: 'GET', url: '/api/users' })).statusCode).toBe(401);
    } finally {
      await api.close();
    }
  });

  it('runs as a real process: node apps/server/bin/careplane.mjs --help', async () => {
    const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/careplane.mjs');
    const { stdout } = await promisify(execFile)(process.execPath, [bin, '--help'], { timeout: 20_000 });
    expect(stdout).toContain('careplane authenticator approve --store <file>');
    await expect(
      promisify(execFile)(process.execPath, [bin, 'nonsense'], { timeout: 20_000 }),
    ).rejects.toMatchObject({
      code: 1,
    });
  });
});
