// The careplane command in-process against a listening server: identity create, authenticator enroll /
// pending / approve / deny / scan end to end (openid-client completes the sign-in), approving only the request
// whose code the screen shows, admin provisioning, the embedded database lock, `start --only`, and one real
// spawn of the launcher.
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
import { enrolledIdentity, startAuthTestServer, type AuthTestServer } from '@/test/auth-server.js';
import { loadConfig } from '@/config.js';
import { lockEmbeddedDatabase } from '@/db/embedded-lock.js';
import { users } from '@/db/schema/index.js';
import { startServer } from '@/server.js';
import { identityCreateCommand } from './identity.js';
import type { CliIo } from './io.js';
import { run } from './main.js';
import { readStore } from '@/lib/authenticator-store.js';

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
    const approved = await careplane(
      'authenticator',
      'approve',
      '--store',
      store(),
      '--code',
      'CLI 4711',
      '--wait',
      '10',
    );
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
      '--code',
      'NOPE 1',
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
    const waited = await careplane(
      'authenticator',
      'approve',
      '--store',
      store(),
      '--code',
      'ZZ 99',
      '--wait',
      '1',
    );
    expect(waited.code).toBe(2);
    expect(waited.stderr).toContain(
      'No request with the code ZZ 99 for dana@careplane.test came within 1 s: nothing was answered.',
    );
    const empty = await careplane('authenticator', 'approve', '--store', store(), '--code', ' ');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('--code is empty');
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
    expect(
      (await careplane('authenticator', 'approve', '--store', store(), '--code', 'RES 1', '--wait', '10'))
        .code,
    ).toBe(0);
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
    // The code as typed off a screen: case and spaces do not count.
    const approved = await careplane(
      'authenticator',
      'approve',
      '--store',
      store(),
      '--code',
      'doc42',
      '--wait',
      '10',
    );
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('Binding message: DOC 42');
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

describe('approving by the code on the screen (a stranger may start a request for anyone)', () => {
  let phones = 0;
  /** A fresh identity and its key store, so that no other test's requests are pending for it. */
  async function phone() {
    const username = `xena${++phones}@careplane.test`;
    const store = path.join(folder, `xena${phones}.json`);
    const { enrollment } = await createIdentity(username);
    expect((await careplane('authenticator', 'enroll', '--store', store, enrollment.link)).code).toBe(0);
    return { username, store };
  }

  /** The raw OAuth answers, to see authorization_pending and expired_token as the stranger does. */
  const form = async (endpoint: string, params: Record<string, string>) => {
    const response = await fetch(`${t.issuer}${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: CONSOLE_CLIENT_ID, ...params }),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const strangerStarts = async (username: string, bindingMessage: string, expirySeconds = 300) =>
    (
      await form('/backchannel', {
        scope: 'openid',
        login_hint: username,
        binding_message: bindingMessage,
        requested_expiry: String(expirySeconds),
      })
    ).auth_req_id as string;
  const strangerPolls = async (authReqId: string) =>
    (
      await form('/token', {
        grant_type: 'urn:openid:params:grant-type:ciba',
        auth_req_id: authReqId,
      })
    ).error;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** The codes pending for the identity, in the order `careplane authenticator pending` lists them. */
  const listed = async (store: string) => {
    const run = await careplane('authenticator', 'pending', '--store', store);
    expect(run.code, run.stderr).toBe(0);
    return [...run.stdout.matchAll(/^ {2}([A-Z]{2} \d{2}) /gm)].map((match) => match[1]);
  };

  it("never approves the stranger's earlier request: no code answers nothing, the code only the person's", async () => {
    const { username, store } = await phone();
    const stranger = await strangerStarts(username, 'ZQ 93', 8);
    const strangerStartedAt = Date.now();
    await sleep(10);
    const mine = await signInAt(username, 'AB 12');

    const listing = await careplane('authenticator', 'pending', '--store', store);
    expect(listing.stdout).toContain(`Pending requests for ${username}, newest first:`);
    expect(listing.stdout).toMatch(/^ {2}AB 12 {2}Sign-in to Careplane console {2}\d:\d\d left$/m);
    expect(await listed(store)).toEqual(['AB 12', 'ZQ 93']);

    // Not at a terminal and no code: refused, and what is pending is named, newest first.
    const refused = await careplane('authenticator', 'approve', '--store', store, '--wait', '5');
    expect(refused.code).toBe(2);
    expect(refused.stdout).not.toContain('Approved.');
    expect(refused.stderr).toContain('Give the code your screen shows: nothing was answered.');
    expect(refused.stderr).toContain(`--username ${username} --code "<the code your screen shows>"`);
    expect(refused.stderr.indexOf('AB 12')).toBeGreaterThan(-1);
    expect(refused.stderr.indexOf('AB 12')).toBeLessThan(refused.stderr.indexOf('ZQ 93'));
    expect(await listed(store)).toEqual(['AB 12', 'ZQ 93']);
    expect(await strangerPolls(stranger)).toBe('authorization_pending');

    // The code the person's screen shows, typed loosely, approves their request and nothing else.
    const approved = await careplane(
      'authenticator',
      'approve',
      '--store',
      store,
      '--code',
      'ab12',
      '--wait',
      '5',
    );
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('Binding message: AB 12');
    expect(approved.stdout).toContain('Approved.');
    expect(approved.stdout).toContain('Still pending (not answered), newest first:');
    expect(approved.stdout).toMatch(/^ {2}ZQ 93 {2}Sign-in to Careplane console/m);
    expect(approved.stdout).toContain('someone else is trying to sign in as you');
    const tokens = await client.pollBackchannelAuthenticationGrant(oidc, mine);
    expect(tokens.claims()!.preferred_username).toBe(username);

    expect(await listed(store)).toEqual(['ZQ 93']);
    await sleep(1100); // the poll interval, so that the answer is not slow_down
    expect(await strangerPolls(stranger)).toBe('authorization_pending');
    await sleep(Math.max(0, strangerStartedAt + 8_500 - Date.now()));
    expect(await strangerPolls(stranger)).toBe('expired_token');
  });

  it('a code that matches nothing answers nothing; deny --code denies only that request', async () => {
    const { username, store } = await phone();
    const stranger = await strangerStarts(username, 'MN 34');
    const nothing = await careplane(
      'authenticator',
      'approve',
      '--store',
      store,
      '--code',
      'QQ 00',
      '--wait',
      '1',
    );
    expect(nothing.code).toBe(2);
    expect(nothing.stdout).not.toContain('Approved.');
    expect(nothing.stderr).toContain(
      `No request with the code QQ 00 for ${username} came within 1 s: nothing was answered.`,
    );
    expect(nothing.stderr).toContain('Pending now, newest first:');
    expect(nothing.stderr).toMatch(/^ {2}MN 34 {2}Sign-in to Careplane console/m);
    expect(await listed(store)).toEqual(['MN 34']);

    const denied = await careplane(
      'authenticator',
      'deny',
      '--store',
      store,
      '--code',
      'mn 34',
      '--wait',
      '1',
    );
    expect(denied.code, denied.stderr).toBe(0);
    expect(denied.stdout).toContain('Binding message: MN 34');
    expect(denied.stdout).toContain('Denied.');
    expect(await strangerPolls(stranger)).toBe('access_denied');
    expect(await listed(store)).toEqual([]);
  });

  it('refuses a single request without a code when not at a terminal, and names its code', async () => {
    const { username, store } = await phone();
    await signInAt(username, 'GH 56');
    const refused = await careplane('authenticator', 'approve', '--store', store, '--username', username);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Give the code your screen shows: nothing was answered.');
    expect(refused.stderr).toMatch(/^ {2}GH 56 {2}Sign-in to Careplane console {2}\d:\d\d left$/m);
    expect(await listed(store)).toEqual(['GH 56']);
  });

  it('refuses when two pending requests show the same code', async () => {
    const { username, store } = await phone();
    await strangerStarts(username, 'SA 77');
    await signInAt(username, 'SA 77');
    const refused = await careplane(
      'authenticator',
      'approve',
      '--store',
      store,
      '--code',
      'SA 77',
      '--wait',
      '1',
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'More than one pending request shows the code SA 77: nothing was answered.',
    );
    expect(await listed(store)).toEqual(['SA 77', 'SA 77']);
  });

  it('at a terminal: lists the requests newest first, asks for the code and approves the one typed', async () => {
    const { username, store } = await phone();
    await strangerStarts(username, 'EF 78');
    await sleep(10);
    const mine = await signInAt(username, 'CD 56');
    const io = capture();
    const typed = ['XX 00', ' cd 56 '];
    const asked: string[] = [];
    const code = await run(['authenticator', 'approve', '--store', store], {
      io: {
        ...io,
        ask: async (question) => {
          asked.push(question);
          return typed.shift() ?? null;
        },
      },
      env: { PUBLIC_URL: t.baseUrl },
      client: { pollIntervalMs: 100 },
    });
    expect(code, io.stderr()).toBe(0);
    expect(asked).toEqual([
      'Type the code your screen shows to approve it (Enter to cancel): ',
      'Type the code your screen shows to approve it (Enter to cancel): ',
    ]);
    const out = io.stdout();
    expect(out).toContain(`Pending requests for ${username}, newest first:`);
    expect(out.indexOf('CD 56')).toBeLessThan(out.indexOf('EF 78'));
    expect(io.stderr()).toContain('No pending request shows the code XX 00.');
    expect(out).toContain('Binding message: CD 56');
    expect(out).toContain('Approved.');
    expect((await client.pollBackchannelAuthenticationGrant(oidc, mine)).claims()!.preferred_username).toBe(
      username,
    );
    expect(await listed(store)).toEqual(['EF 78']);

    // Enter (or the end of the input) cancels: nothing is answered.
    const cancelled = capture();
    const cancelledCode = await run(['authenticator', 'approve', '--store', store], {
      io: { ...cancelled, ask: async () => '' },
      env: { PUBLIC_URL: t.baseUrl },
    });
    expect(cancelledCode).toBe(2);
    expect(cancelled.stderr()).toContain('Nothing was answered.');
    expect(await listed(store)).toEqual(['EF 78']);
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
    expect(
      (await careplane('authenticator', 'approve', '--store', store, '--code', 'NEW 1', '--wait', '10')).code,
    ).toBe(0);
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

  // Two starts of an embedded database in a new folder: each takes seconds on a busy machine.
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
  }, 90_000);

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
