// Two server processes on one database serve one sign-in between them; concurrent refreshes of one token give
// exactly one winner; QR secrets rotate; sign-in endpoints are rate limited per identity and per address.
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticatorClient, type FetchLike } from '@careplane/shared/authenticator/protocol';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import {
  enrolledIdentity,
  freePort,
  startAuthTestServer,
  type AuthTestServer,
  type EnrolledIdentity,
} from '@/test/auth-server.js';

let a: AuthTestServer;
let b: AuthTestServer;
let nurse: EnrolledIdentity;
/** The authenticator talks to process B while naming the shared issuer (as behind one load balancer). */
let viaB: AuthenticatorClient;

const env = async () => {
  const port = await freePort();
  return {
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    AUTH_QR_SECRET_ROTATION: '1',
    AUTH_RATE_LIMIT_PER_IDENTITY: '3',
    AUTH_RATE_LIMIT_PER_KEY: '1000',
  };
};

beforeAll(async () => {
  const shared = await env();
  a = await startAuthTestServer(shared);
  b = await startAuthTestServer(shared, a.database);
  expect(a.issuer).toBe(b.issuer);
  const toB: FetchLike = (url, init) => fetch(url.replace(a.issuer, `${b.baseUrl}/auth`), init);
  viaB = new AuthenticatorClient({ issuer: a.issuer, fetch: toB });
  nurse = await enrolledIdentity(
    { server: a.server, authenticator: viaB },
    {
      username: 'nora@careplane.test',
      roles: ['public'],
    },
  );
});

afterAll(async () => {
  await b?.close();
  await a?.close();
});

type Answer = { status: number; headers: Headers; body: Record<string, unknown> };
const post = (
  server: AuthTestServer,
  path: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer> =>
  fetch(`${server.baseUrl}/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ client_id: CONSOLE_CLIENT_ID, ...params }),
  }).then(async (response) => ({
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  }));
const getJson = (server: AuthTestServer, path: string) =>
  fetch(`${server.baseUrl}/auth${path}`).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
  }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function signInAcross() {
  const started = await post(a, '/backchannel', { scope: 'openid', login_hint: nurse.username });
  expect(started.status).toBe(200);
  const pending = await viaB.waitForPending(nurse.key, { timeoutMs: 3_000, intervalMs: 50 });
  await viaB.approve(nurse.key, pending!);
  await sleep(1100);
  const tokens = await post(b, '/token', {
    grant_type: 'urn:openid:params:grant-type:ciba',
    auth_req_id: started.body.auth_req_id as string,
  });
  expect(tokens.status).toBe(200);
  return tokens.body as { access_token: string; refresh_token: string; id_token: string };
}

describe('two server processes on one database', () => {
  it('start a sign-in on one, approve and redeem it on the other; both accept its tokens', async () => {
    const tokens = await signInAcross();
    expect(decodeJwt(tokens.access_token)).toMatchObject({ iss: a.issuer, sub: nurse.identityId });
    // Both processes publish the same keys and verify each other's tokens.
    const jwksA = await getJson(a, '/jwks');
    const jwksB = await getJson(b, '/jwks');
    expect(jwksA.body).toEqual(jwksB.body);
    const refreshed = await post(a, '/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.status).toBe(200);
  });

  it('let exactly one of two concurrent refreshes of one token win; the family is then revoked', async () => {
    const tokens = await signInAcross();
    const answers = await Promise.all(
      [a, b].map((server) =>
        post(server, '/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 400]);
    const winner = answers.find((answer) => answer.status === 200)!;
    const loser = answers.find((answer) => answer.status === 400)!;
    expect(loser.body.error).toBe('invalid_grant');
    const afterRace = await post(a, '/token', {
      grant_type: 'refresh_token',
      refresh_token: winner.body.refresh_token as string,
    });
    expect(afterRace.body.error).toBe('invalid_grant');
  });
});

describe('QR secret rotation', () => {
  it('shows a new cbUrl every period; a code two periods old no longer claims the session', async () => {
    const created = await fetch(`${a.baseUrl}/auth/qr/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }).then((response) => response.json() as Promise<{ sessionId: string; cbUrl: string }>);
    await sleep(1100);
    const first = await getJson(b, `/qr/sessions/${created.sessionId}`);
    expect(first.body).toMatchObject({ status: 'pending' });
    const secondUrl = first.body.cbUrl as string;
    expect(secondUrl).toMatch(/\/authenticator\/qr#s=/);
    expect(secondUrl).not.toBe(created.cbUrl);
    await sleep(1100);
    const second = await getJson(a, `/qr/sessions/${created.sessionId}`);
    const thirdUrl = second.body.cbUrl as string;
    expect(thirdUrl).toMatch(/\/authenticator\/qr#s=/);
    await sleep(1100);
    const photographed = await viaB.claimQr(nurse.key, created.cbUrl).catch((error: unknown) => error);
    expect(photographed).toMatchObject({ status: 404 });
    const claimed = await viaB.claimQr(nurse.key, thirdUrl);
    expect(claimed.requestId).toMatch(/^[\w.~+/=-]{16,}$/);
    const status = await getJson(a, `/qr/sessions/${created.sessionId}`);
    expect(status.body.status).toBe('claimed');
    expect(status.body.authRequestId).toMatch(/^[\w.~+/=-]{16,}$/);
    const pending = await viaB.pending(nurse.key);
    for (const request of pending) await viaB.deny(nurse.key, request);
  });
});

describe('rate limits', () => {
  it('limits sign-in requests per identity, alike for unknown identities', async () => {
    for (const hint of ['limited@careplane.test', 'nobody-here@careplane.test']) {
      if (hint === 'limited@careplane.test')
        await a.server.identities.create({ username: hint, firstName: 'L', lastName: 'L' });
      const answers: Answer[] = [];
      for (let i = 0; i < 4; i++)
        answers.push(await post(a, '/backchannel', { scope: 'openid', login_hint: hint }));
      expect(answers.slice(0, 3).map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(answers[3]!.status).toBe(429);
      expect(answers[3]!.body.error).toBe('too_many_requests');
      expect(answers[3]!.body.error_description).toBe(
        'too many sign-in requests for this identifier, try again later',
      );
      expect(Number(answers[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
      // The console shows this refusal as it comes: in the language on its screen.
      const thai = await post(
        a,
        '/backchannel',
        { scope: 'openid', login_hint: hint },
        { 'accept-language': 'th' },
      );
      expect(thai.status).toBe(429);
      expect(thai.body.error_description).toBe('มีคำขอเข้าสู่ระบบด้วยชื่อผู้ใช้นี้มากเกินไป โปรดลองอีกครั้งภายหลัง');
    }
  });

  it('limits every auth server route per caller address, with a budget per kind of route', async () => {
    const strict = await startAuthTestServer(
      { PUBLIC_URL: a.config.publicUrl, AUTH_RATE_LIMIT_PER_CLIENT: '5' },
      a.database,
    );
    try {
      // Starting sign-ins: 5 a minute from one address.
      const starts: number[] = [];
      for (let i = 0; i < 6; i++) {
        starts.push((await fetch(`${strict.baseUrl}/auth/qr/sessions`, { method: 'POST' })).status);
      }
      expect(starts).toEqual([200, 200, 200, 200, 200, 429]);
      const refused = await fetch(`${strict.baseUrl}/auth/qr/sessions`, { method: 'POST' });
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      // Discovery and keys have their own, larger budget: the noisy caller has not spent it.
      const discovery: number[] = [];
      for (let i = 0; i < 21; i++) {
        const path = i % 2 ? '/auth/jwks' : '/auth/.well-known/openid-configuration';
        discovery.push((await fetch(`${strict.baseUrl}${path}`)).status);
      }
      expect(discovery.slice(0, 20).every((status) => status === 200)).toBe(true);
      expect(discovery[20]).toBe(429);
    } finally {
      await strict.close();
    }
  });
});
