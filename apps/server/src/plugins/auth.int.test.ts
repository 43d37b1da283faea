import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/db/schema/index.js';
import {
  TEST_AUDIENCE,
  TEST_ISSUER,
  api,
  createSigner,
  createTestContext,
  type TestContext,
} from '@/test/harness.js';
import { callerIsAdmin as isAdmin } from '@/lib/caller.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const parts = (token: string) => token.split('.') as [string, string, string];

/** Answers of an admin call with this token. */
const callWith = (token: string) =>
  context.app.inject({ url: '/api/users', headers: { authorization: `Bearer ${token}` } });

async function expectRefused(token: string) {
  const response = await callWith(token);
  expect(response.statusCode).toBe(401);
  expect(response.json()).toEqual({
    statusCode: 401,
    error: 'Unauthorized',
    message: expect.any(String),
  });
  return response;
}

describe('access tokens', () => {
  it('accepts a valid token', async () => {
    const response = await callWith(context.adminToken);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().total).toBeGreaterThanOrEqual(2);
  });

  it('refuses a request without a token or with another scheme', async () => {
    const none = await context.app.inject({ url: '/api/users' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    for (const authorization of [`Basic ${context.adminToken}`, 'Bearer', 'Bearer ', `Bearer  x.y.z`]) {
      const response = await context.app.inject({ url: '/api/users', headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
    }
  });

  it('refuses alg none', async () => {
    const [, payload] = parts(context.adminToken);
    await expectRefused(`${b64({ alg: 'none', typ: 'at+jwt', kid: 'test-key' })}.${payload}.`);
    await expectRefused(`${b64({ alg: 'none', typ: 'at+jwt' })}.${payload}.`);
  });

  it('refuses a token signed by another key under the same kid', async () => {
    const stranger = await createSigner('test-key');
    await expectRefused(await stranger.sign({ roles: ['admin'] }));
  });

  it('refuses a token with an unknown kid', async () => {
    await expectRefused(await context.signer.sign({ roles: ['admin'] }, { kid: 'rotated-away' }));
  });

  it('refuses an HS256 token keyed with the public key', async () => {
    const publicJwk = JSON.stringify(context.signer.jwk);
    const token = await new SignJWT({ roles: ['admin'] })
      .setProtectedHeader({ alg: 'HS256', kid: 'test-key', typ: 'at+jwt' })
      .setIssuer(TEST_ISSUER)
      .setAudience(TEST_AUDIENCE)
      .setSubject(randomUUID())
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(publicJwk));
    await expectRefused(token);
  });

  it('refuses a token with a flipped byte in the signature, the payload or the header', async () => {
    const [header, payload, signature] = parts(context.adminToken);
    const flip = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    await expectRefused(`${header}.${payload}.${flip(signature, 10)}`);
    await expectRefused(`${header}.${flip(payload, 10)}.${signature}`);
    await expectRefused(`${flip(header, 5)}.${payload}.${signature}`);
    // The same claims with a changed role, unsigned again.
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    await expectRefused(`${header}.${b64({ ...claims, roles: ['master'] })}.${signature}`);
  });

  it('refuses a token expired by one second', async () => {
    await expectRefused(await context.signer.sign({ roles: ['admin'] }, { expiresInSeconds: -1 }));
  });

  it('refuses a token without iat, even when everything else is right', async () => {
    const subject = (await api(context).get('/api/users/me')).json().masterId as string;
    await expectRefused(await context.signer.sign({ roles: ['admin'] }, { subject, withoutIssuedAt: true }));
    expect(await callWith(await context.signer.sign({ roles: ['admin'] }, { subject }))).toMatchObject({
      statusCode: 200,
    });
  });

  it('refuses a wrong audience and a wrong issuer', async () => {
    await expectRefused(await context.signer.sign({ roles: ['admin'] }, { audience: 'other-api' }));
    await expectRefused(
      await context.signer.sign({ roles: ['admin'] }, { issuer: 'http://elsewhere.test/auth' }),
    );
  });

  it('refuses an id_token used as an access token', async () => {
    const idClaims = { roles: ['admin'], given_name: 'Ada', nonce: 'n-0S6_WzA2Mj' };
    await expectRefused(await context.signer.sign(idClaims, { typ: 'JWT', audience: 'careplane-console' }));
    // Either mark alone is enough: the id_token type, or the console as audience.
    await expectRefused(await context.signer.sign(idClaims, { typ: 'JWT' }));
    await expectRefused(await context.signer.sign(idClaims, { audience: 'careplane-console' }));
  });

  it('answers /api/health and /api/openapi.json without a token', async () => {
    const health = await context.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok' });
    expect((await context.app.inject({ url: '/api/openapi.json' })).statusCode).toBe(200);
  });
});

describe('isAdmin (decisions §4)', () => {
  it('looks at the first global role and the first local role only', () => {
    expect(isAdmin(['admin'], [])).toBe(true);
    expect(isAdmin(['master', 'public'], ['none'])).toBe(true);
    expect(isAdmin(['public'], ['application_admin'])).toBe(true);
    expect(isAdmin([], ['application_admin', 'nurse'])).toBe(true);
    expect(isAdmin(['public', 'admin'], ['none'])).toBe(false);
    expect(isAdmin(['public'], ['nurse', 'application_admin'])).toBe(false);
    expect(isAdmin([], [])).toBe(false);
    expect(isAdmin(['Admin'], ['Application_Admin'])).toBe(false);
  });
});

describe('admin rule on the server', () => {
  /**
   * A signed-in caller whose user record has these global and local roles. Its token claims the opposite
   * (an admin record gets a token saying public, and the other way round): rights come from the record.
   */
  async function callerToken(roles: string[], localRoles: string[] = ['none']) {
    const subject = randomUUID();
    const name = `r${subject.slice(0, 8)}`;
    await context.database.db.insert(users).values({
      username: `${name}@careplane.test`,
      usernameWithoutDomain: name,
      primaryDomain: 'careplane.test',
      masterId: subject,
      roles,
      localRoles,
    });
    const claimed = roles[0] === 'admin' || roles[0] === 'master' ? ['public'] : ['admin'];
    return context.signer.sign({ roles: claimed }, { subject });
  }

  const status = async (token: string) => (await api(context, token).get('/api/users')).statusCode;

  it('lets in a first global role admin or master', async () => {
    expect(await status(await callerToken(['admin']))).toBe(200);
    expect(await status(await callerToken(['master', 'public']))).toBe(200);
    expect(await status(await callerToken(['admin'], ['nurse']))).toBe(200);
  });

  it('lets in a first local role application_admin, even with global roles [public]', async () => {
    expect(await status(await callerToken(['public'], ['application_admin']))).toBe(200);
    expect(await status(await callerToken([], ['application_admin', 'nurse']))).toBe(200);
  });

  it('refuses admin as a later role, and callers without admin roles', async () => {
    const refused = await api(context, await callerToken(['public', 'admin'], ['nurse'])).get('/api/users');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    expect(await status(await callerToken(['public', 'admin']))).toBe(403);
    expect(await status(await callerToken(['public'], ['nurse', 'application_admin']))).toBe(403);
    expect(await status(await callerToken([], ['none']))).toBe(403);
  });

  it('grants nothing to a token without a user record, whatever roles it claims', async () => {
    const token = await context.signer.sign({ roles: ['admin'] }, { subject: randomUUID() });
    expect(await status(token)).toBe(403);
    expect((await api(context, token).get('/api/users/me')).statusCode).toBe(404);
  });

  it("lets the record's block win over an outside issuer's claims: 401 at once, back after unblocking", async () => {
    const subject = randomUUID();
    const { id } = (
      await api(context).post('/api/users', {
        username: `blocked-${subject}@careplane.test`,
        masterId: subject,
        roles: ['admin'],
      })
    ).json();
    const token = await context.signer.sign({ roles: ['admin'] }, { subject });
    expect(await status(token)).toBe(200);
    expect((await api(context).patch(`/api/users/${id}`, { isBlocked: true })).statusCode).toBe(200);
    expect(await status(token)).toBe(401);
    expect((await api(context).patch(`/api/users/${id}`, { isBlocked: false })).statusCode).toBe(200);
    expect(await status(token)).toBe(200);
  });

  it('refuses writes to non-admins as well', async () => {
    const token = await callerToken(['public'], ['nurse']);
    const response = await api(context, token).post('/api/users', { username: 'sneaky@careplane.test' });
    expect(response.statusCode).toBe(403);
  });
});
