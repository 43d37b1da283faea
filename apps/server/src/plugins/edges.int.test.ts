// The server's edges as an attacker meets them (decision 022): security headers on every kind of answer, a
// stalled body answered 408 in seconds, proxies trusted only when named, sign-in limits a stranger cannot
// spend for someone else, a per-caller write limit, an enrollment that checks the code before the key, and
// the documented error body even for an address that cannot be decoded.
import { connect } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import {
  AuthenticatorClient,
  generateAuthenticatorKey,
  jwkThumbprint,
} from '@careplane/shared/authenticator/protocol';
import { auditLog } from '@/db/schema/index.js';
import { enrolledIdentity, freePort, startAuthTestServer, type AuthTestServer } from '@/test/auth-server.js';
import { api, createTestContext } from '@/test/harness.js';

let server: AuthTestServer;
let proxied: AuthTestServer;
let phone: AuthenticatorClient;

beforeAll(async () => {
  server = await startAuthTestServer({ AUTH_RATE_LIMIT_PER_IDENTITY: '10' });
  // Behind a proxy on this machine: 127.0.0.1 may tell the client's address.
  const port = await freePort();
  proxied = await startAuthTestServer({
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    TRUST_PROXY: '127.0.0.1',
    AUTH_RATE_LIMIT_PER_IDENTITY: '10',
  });
  phone = new AuthenticatorClient({
    issuer: proxied.issuer,
    fetch: (url, init) => fetch(url.replace(proxied.issuer, `${proxied.baseUrl}/auth`), init),
  });
});

afterAll(async () => {
  await proxied?.close();
  await server?.close();
});

/** Raw HTTP, to send what no well-behaved client would: answers what came back before the socket closed. */
function rawRequest(port: number, head: string, body: string, waitMs: number) {
  return new Promise<{ text: string; elapsedMs: number }>((resolve) => {
    const started = Date.now();
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(head + body));
    socket.on('data', (chunk) => (text += chunk.toString()));
    const finish = () => resolve({ text, elapsedMs: Date.now() - started });
    socket.on('close', finish);
    socket.on('error', finish);
    setTimeout(() => socket.destroy(), waitMs).unref();
  });
}

describe('security headers', () => {
  it('come with the console, the authenticator, the API and the auth server', async () => {
    for (const path of ['/', '/authenticator', '/api/health', '/auth/.well-known/openid-configuration']) {
      const response = await fetch(`${server.baseUrl}${path}`);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toMatch(/script-src 'self'(;|$)/);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("object-src 'none'");
      expect(csp, path).not.toContain('upgrade-insecure-requests');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(response.headers.get('permissions-policy'), path).toContain(
        path === '/authenticator' ? 'camera=(self)' : 'camera=()',
      );
      expect(response.headers.get('permissions-policy'), path).toContain('microphone=()');
      // Served over plain HTTP here: no HSTS.
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('add HSTS when the server is reached over HTTPS', async () => {
    const context = await createTestContext({ PUBLIC_URL: 'https://care.example.org' });
    try {
      const response = await context.app.inject({ url: '/api/health' });
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(response.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      await context.close();
    }
  });
});

describe('a body that stops arriving', () => {
  it('is answered 408 within seconds, on the API and on the auth server', async () => {
    const context = await createTestContext();
    try {
      await context.app.listen({ host: '127.0.0.1', port: 0 });
      const address = context.app.server.address();
      const apiPort = typeof address === 'object' && address ? address.port : 0;
      const authPort = Number(new URL(server.baseUrl).port);
      for (const [port, path, type, start, token] of [
        [apiPort, '/api/command-centers', 'application/json', '{"title":', context.adminToken],
        [authPort, '/auth/token', 'application/x-www-form-urlencoded', 'grant_type=', undefined],
        [authPort, '/auth/qr/sessions', 'application/json', '{"client_id":', undefined],
      ] as const) {
        const head =
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\n` +
          (token ? `Authorization: Bearer ${token}\r\n` : '') +
          'Content-Length: 1000\r\n\r\n';
        const { text, elapsedMs } = await rawRequest(port, head, start, 15_000);
        expect(text, path).toMatch(/^HTTP\/1\.1 408/);
        expect(text, path).toContain('"statusCode":408');
        expect(elapsedMs, path).toBeLessThan(12_000);
      }
    } finally {
      await context.close();
    }
  });
});

describe('addresses that cannot be read', () => {
  it('answer 400 in the documented error shape', async () => {
    for (const path of ['/api/users/%E0%A4%A', '/%E0%A4%A', '/auth/%E0%A4%A']) {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect(response.status, path).toBe(400);
      const body = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort(), path).toEqual(['error', 'message', 'statusCode']);
      expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });
});

describe('enrollment', () => {
  it('looks at the code before the key, and answers 400 for a key that is not a point on P-256', async () => {
    const keyPair = await generateAuthenticatorKey();
    const goodJwk = (await crypto.subtle.exportKey(
      'jwk',
      keyPair.publicKey as unknown as Parameters<typeof crypto.subtle.exportKey>[1],
    )) as {
      x: string;
      y: string;
    };
    // A valid-looking JWK whose point is not on the curve.
    const offCurve = { kty: 'EC', crv: 'P-256', x: goodJwk.x, y: goodJwk.x };
    const enroll = (code: string, publicJwk: object) =>
      fetch(`${server.baseUrl}/auth/authenticator/enroll`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code, publicJwk, signature: 'A'.repeat(86) }),
      });
    const noCode = await enroll('0000-0000-0000-0000-0000', offCurve);
    expect(noCode.status).toBe(400);
    expect(((await noCode.json()) as { message: string }).message).toMatch(/enrollment code/);
    const identity = await server.server.identities.create({
      username: 'curve@careplane.test',
      firstName: 'C',
      lastName: 'Urve',
    });
    const { code } = await server.server.identities.issueEnrollmentCode(identity.id);
    const badKey = await enroll(code, offCurve);
    expect(badKey.status).toBe(400);
    expect(((await badKey.json()) as { message: string }).message).toMatch(/does not verify/);
    // The code was not spent by the refused attempt: the real key still enrolls with it.
    const enrolled = await server.authenticator.enroll(code, keyPair);
    expect(enrolled.keyId).toBe(await jwkThumbprint(goodJwk as never));
  });
});

describe('proxies', () => {
  it('are not trusted unless named: a forged X-Forwarded-For changes neither limits nor audit rows', async () => {
    const context = await createTestContext();
    try {
      const created = await context.app.inject({
        method: 'POST',
        url: '/api/command-centers',
        headers: { authorization: `Bearer ${context.adminToken}`, 'x-forwarded-for': '203.0.113.66' },
        payload: { title: 'Forged', address: { title: 'A', street: 'B', city: 'C', country: 'TH' } },
      });
      expect(created.statusCode, created.body).toBe(201);
      const [row] = await context.database.db
        .select({ ip: auditLog.ip })
        .from(auditLog)
        .where(and(eq(auditLog.resource, 'command-centers'), eq(auditLog.recordId, created.json().id)));
      expect(row?.ip).toBe('127.0.0.1');
    } finally {
      await context.close();
    }
    // The sign-in limits count the real address: five starts with five forged addresses are one caller.
    const strict = await startAuthTestServer({ AUTH_RATE_LIMIT_PER_CLIENT: '5' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await fetch(`${strict.baseUrl}/auth/qr/sessions`, {
          method: 'POST',
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await strict.close();
    }
  });

  it('are trusted when named in TRUST_PROXY, for limits and audit rows alike', async () => {
    const response = await fetch(`${proxied.baseUrl}/api/health`, {
      headers: { 'x-forwarded-for': '198.51.100.4' },
    });
    expect(response.status).toBe(200);
    const started: number[] = [];
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${proxied.baseUrl}/auth/backchannel`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': `198.51.100.${i}`,
        },
        body: new URLSearchParams({
          client_id: CONSOLE_CLIENT_ID,
          scope: 'openid',
          login_hint: 'x@careplane.test',
        }),
      });
      started.push(answer.status);
    }
    expect(started).toEqual([200, 200]);
  });
});

describe('sign-in limits', () => {
  it('let a stranger’s backchannel requests for someone’s identifier not stop that person signing in', async () => {
    const person = await enrolledIdentity(
      { server: proxied.server, authenticator: phone },
      {
        username: 'target@careplane.test',
        roles: ['public'],
      },
    );
    const backchannel = (address: string, bindingMessage: string) =>
      fetch(`${proxied.baseUrl}/auth/backchannel`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
        body: new URLSearchParams({
          client_id: CONSOLE_CLIENT_ID,
          scope: 'openid',
          login_hint: person.username,
          binding_message: bindingMessage,
        }),
      });
    const strangers: number[] = [];
    for (let i = 0; i < 12; i++) strangers.push((await backchannel('203.0.113.50', `XX ${i}`)).status);
    expect(strangers.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(strangers.slice(10)).toEqual([429, 429]);

    // The person, from their own address: the request goes through and is on the phone, beside at most four
    // of the stranger's.
    const mine = await backchannel('198.51.100.20', 'ME 42');
    expect(mine.status).toBe(200);
    const pending = await phone.pending(person.key);
    expect(pending.map((request) => request.bindingMessage)).toContain('ME 42');
    expect(pending.length).toBeLessThanOrEqual(5);
  });
});

describe('writes under /api', () => {
  it('are limited per caller; reads and other callers are not held back', async () => {
    const context = await createTestContext({ API_WRITE_RATE_LIMIT: '3' });
    try {
      const center = (title: string) => ({
        title,
        address: { title: 'A', street: 'B', city: 'C', country: 'TH' },
      });
      const admin = api(context);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await admin.post('/api/command-centers', center(`W${i}`))).statusCode);
      expect(statuses).toEqual([201, 201, 201, 429]);
      const refused = await admin.post('/api/command-centers', center('W9'));
      expect(refused.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await admin.get('/api/command-centers')).statusCode).toBe(200);
      expect((await admin.get('/api/command-centers')).json().total).toBe(3);
      // Another caller has a budget of their own (a nurse may not create centers, but is not limited).
      expect(
        (await api(context, context.userToken).post('/api/command-centers', center('N'))).statusCode,
      ).toBe(403);
    } finally {
      await context.close();
    }
  });
});
