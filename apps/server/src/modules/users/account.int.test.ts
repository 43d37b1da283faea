// POST /api/auth (first and later sign-ins), GET /api/users/me and its avatar, with tokens of the test's key.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '@/db/schema/index.js';
import { createSigner, createTestContext, type TestContext } from '@/test/harness.js';
import { avatarHue } from './account.service.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const identityClaims = (overrides: Record<string, unknown> = {}) => ({
  preferred_username: 'Olivia.Operator@Careplane.Test',
  given_name: 'Olivia',
  family_name: 'Operator',
  email: 'olivia@careplane.test',
  phone_number: '+66 2 555 0101',
  title: 'Dr.',
  roles: ['admin', 'not-a-role'],
  acr: 'high',
  ...overrides,
});

/** An access token and the id_token of the same sign-in, both for `subject`. */
async function tokens(subject: string, claims = identityClaims(), signer = context.signer) {
  return {
    access: await context.signer.sign({ roles: claims.roles }, { subject }),
    id: await signer.sign(claims, { subject, audience: 'careplane-console', typ: 'JWT' }),
  };
}

const post = (accessToken: string | undefined, body: unknown) =>
  context.app.inject({
    method: 'POST',
    url: '/api/auth',
    headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    payload: body as object,
  });
const get = (url: string, accessToken: string) =>
  context.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${accessToken}` } });

describe('POST /api/auth', () => {
  it('creates the user from the id token at the first sign-in, then updates it', async () => {
    const subject = randomUUID();
    const first = await tokens(subject);
    const before = await get('/api/users/me', first.access);
    expect(before.statusCode).toBe(404);
    expect(before.json().message).toMatch(/sign in once with POST \/api\/auth/);

    const created = await post(first.access, { idToken: first.id });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({
      username: 'olivia.operator@careplane.test',
      usernameWithoutDomain: 'olivia.operator',
      primaryDomain: 'careplane.test',
      masterId: subject,
      firstName: 'Olivia',
      lastName: 'Operator',
      email: 'olivia@careplane.test',
      phoneNumber: '+66 2 555 0101',
      title: 'Dr.',
      identityAssuranceLevel: 'high',
      roles: ['admin'],
      localRoles: ['none'],
    });
    const userId = created.json().id as string;

    // The admin changes local roles; a later sign-in updates the identity's fields and keeps the roles.
    await context.database.db
      .update(users)
      .set({ localRoles: ['nurse'] })
      .where(eq(users.id, userId));
    const later = await tokens(
      subject,
      identityClaims({ family_name: 'Operator-Lee', roles: ['public'], acr: 'substantial' }),
    );
    const updated = await post(later.access, { idToken: later.id });
    expect(updated.statusCode, updated.body).toBe(200);
    // Names and contact details follow the identity; the roles stay the record's (an admin decides them).
    expect(updated.json()).toMatchObject({
      id: userId,
      lastName: 'Operator-Lee',
      roles: ['admin'],
      identityAssuranceLevel: 'substantial',
      localRoles: ['nurse'],
    });
    const rows = await context.database.db.select().from(users).where(eq(users.masterId, subject));
    expect(rows).toHaveLength(1);

    const me = await get('/api/users/me', later.access);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: userId, localRoles: ['nurse'], lastName: 'Operator-Lee' });

    const audit = await context.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.recordId, userId))
      .orderBy(auditLog.id);
    expect(audit.map((row) => row.action)).toEqual(['sign-in', 'sign-in']);
    expect(audit[0]).toMatchObject({ actorUserId: userId, actorSubject: subject, resource: 'users' });
    expect(audit[0]!.changes).toMatchObject({ firstSignIn: true });
    expect(audit[1]!.changes).toMatchObject({ firstSignIn: false });

    // The console reads the last sign-in from the audit log.
    const logs = await get(
      `/api/users/logs?filters=action~sign-in&filters=recordId~${userId}`,
      context.adminToken,
    );
    expect(logs.statusCode, logs.body).toBe(200);
    expect(logs.json().total).toBe(2);
  });

  it("keeps the record's details that a later token does not state, and takes those it does", async () => {
    const subject = randomUUID();
    const claims = identityClaims({ preferred_username: 'ploy@careplane.test' });
    const first = await tokens(subject, claims);
    const userId = (await post(first.access, { idToken: first.id })).json().id as string;
    // An admin records the patient's own phone number and email; the identity states neither, nor a title.
    await context.database.db
      .update(users)
      .set({ phoneNumber: '+66 81 234 5678', email: 'ploy@home.test' })
      .where(eq(users.id, userId));
    const without: Record<string, unknown> = { ...claims, given_name: 'Ploy' };
    for (const absent of ['phone_number', 'email', 'title']) delete without[absent];
    const later = await tokens(subject, without as typeof claims);
    const signedIn = await post(later.access, { idToken: later.id });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({
      firstName: 'Ploy',
      phoneNumber: '+66 81 234 5678',
      email: 'ploy@home.test',
      title: 'Dr.',
    });
    // A number the identity does state replaces the record's.
    const stated = await tokens(subject, identityClaims({ preferred_username: 'ploy@careplane.test' }));
    expect((await post(stated.access, { idToken: stated.id })).json()).toMatchObject({
      phoneNumber: '+66 2 555 0101',
      email: 'olivia@careplane.test',
    });
  });

  it('binds an admin-made record of the same username that has no identity yet', async () => {
    const [made] = await context.database.db
      .insert(users)
      .values({
        username: 'bea@careplane.test',
        usernameWithoutDomain: 'bea',
        primaryDomain: 'careplane.test',
      })
      .returning({ id: users.id });
    const subject = randomUUID();
    const t = await tokens(subject, identityClaims({ preferred_username: 'bea@careplane.test' }));
    const answer = await post(t.access, { idToken: t.id });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ id: made!.id, masterId: subject });

    // Another identity claiming the same username is refused.
    const other = await tokens(randomUUID(), identityClaims({ preferred_username: 'bea@careplane.test' }));
    expect((await post(other.access, { idToken: other.id })).statusCode).toBe(409);
  });

  it('refuses a tampered, foreign, expired or misdirected id token, another subject and no token', async () => {
    const subject = randomUUID();
    const good = await tokens(subject, identityClaims({ preferred_username: 'neg@careplane.test' }));
    const [header, payload, signature] = good.id.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, roles: ['master'] })).toString('base64url');
    const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11);
    const foreign = await createSigner('test-key');
    const cases: [string, string][] = [
      ['changed claims', `${header}.${forgedPayload}.${signature}`],
      ['flipped signature byte', `${header}.${payload}.${flipped}`],
      ['another key', (await tokens(subject, identityClaims(), foreign)).id],
      [
        'alg none',
        `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.${signature}`,
      ],
      [
        'wrong audience',
        await context.signer.sign(identityClaims(), { subject, audience: 'careplane-api', typ: 'JWT' }),
      ],
      [
        'wrong issuer',
        await context.signer.sign(identityClaims(), {
          subject,
          audience: 'careplane-console',
          issuer: 'http://elsewhere.test/auth',
          typ: 'JWT',
        }),
      ],
      [
        'expired',
        await context.signer.sign(identityClaims(), {
          subject,
          audience: 'careplane-console',
          typ: 'JWT',
          expiresInSeconds: -1,
        }),
      ],
      [
        'an access token',
        await context.signer.sign(identityClaims(), { subject, audience: 'careplane-console' }),
      ],
    ];
    for (const [name, idToken] of cases) {
      const answer = await post(good.access, { idToken });
      expect(answer.statusCode, `${name}: ${answer.body}`).toBe(401);
      expect(answer.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }

    const otherSubject = await tokens(
      randomUUID(),
      identityClaims({ preferred_username: 'neg@careplane.test' }),
    );
    const mismatch = await post(good.access, { idToken: otherSubject.id });
    expect(mismatch.statusCode).toBe(401);
    expect(mismatch.json().message).toMatch(/different identities/);

    expect((await post(undefined, { idToken: good.id })).statusCode).toBe(401);
    for (const body of [{}, { idToken: '' }, { idToken: 'not a jwt' }, { idToken: good.id, extra: 1 }]) {
      const answer = await post(good.access, body);
      expect(answer.statusCode, answer.body).toBe(400);
    }
    const noUsername = await tokens(subject, identityClaims({ preferred_username: 'no domain' }));
    expect((await post(good.access, { idToken: noUsername.id })).statusCode).toBe(400);

    const written = await context.database.db.select().from(users).where(eq(users.masterId, subject));
    expect(written).toHaveLength(0);
  });
});

describe('GET /api/users/me and the avatar', () => {
  let access: string;
  let userId: string;
  beforeAll(async () => {
    const subject = randomUUID();
    const t = await tokens(
      subject,
      identityClaims({
        preferred_username: 'avery@careplane.test',
        given_name: 'Avery',
        family_name: '<Quinn>',
        roles: ['public'],
      }),
    );
    access = t.access;
    userId = (await post(t.access, { idToken: t.id })).json().id;
  });

  it('answers the own record to a non-admin, while the generic routes stay admin-only', async () => {
    const me = await get('/api/users/me', context.userToken);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: context.userId, localRoles: ['nurse'] });
    expect((await get('/api/users', context.userToken)).statusCode).toBe(403);
    expect((await get(`/api/users/${context.userId}`, context.userToken)).statusCode).toBe(403);
    const create = await context.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { authorization: `Bearer ${context.userToken}` },
      payload: { username: 'sneaky@careplane.test' },
    });
    expect(create.statusCode).toBe(403);
    expect((await context.app.inject({ method: 'GET', url: '/api/users/me' })).statusCode).toBe(401);
  });

  it('draws a deterministic SVG with the initials, sized within 16–512', async () => {
    const standard = await get('/api/users/me/avatar', access);
    expect(standard.statusCode, standard.body).toBe(200);
    expect(standard.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(standard.body).toMatch(/^<svg [^>]*width="128" height="128"/);
    expect(standard.body).toContain('>A&#60;</text>');
    expect(standard.body).not.toContain('<Quinn>');
    expect((await get('/api/users/me/avatar', access)).body).toBe(standard.body);

    const sized = await get('/api/users/me/avatar?width=64&height=32', access);
    expect(sized.body).toMatch(/width="64" height="32"/);
    expect((await get('/api/users/me/avatar?width=48', access)).body).toMatch(/width="48" height="48"/);
    expect((await get('/api/users/me/avatar?height=16', access)).body).toMatch(/width="16" height="16"/);
    expect((await get('/api/users/me/avatar?width=512&height=512', access)).statusCode).toBe(200);

    const other = await get('/api/users/me/avatar', context.userToken);
    expect(other.body).toContain('>NN</text>');
    // The colour comes from the user's id (two random ids may share a hue, so compare with the rule itself).
    const fill = (svg: string) => /fill="(hsl[^"]+)"/.exec(svg)?.[1];
    expect(fill(standard.body)).toBe(`hsl(${avatarHue(userId)}, 55%, 42%)`);
    expect(fill(other.body)).toBe(`hsl(${avatarHue(context.userId)}, 55%, 42%)`);
    expect(avatarHue('00000000-0000-7000-8000-000000000001')).not.toBe(
      avatarHue('00000000-0000-7000-8000-000000000002'),
    );

    for (const query of [
      'width=15',
      'height=513',
      'width=0',
      'width=-5',
      'width=abc',
      'width=20.5',
      'size=3',
    ]) {
      const refused = await get(`/api/users/me/avatar?${query}`, access);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().statusCode).toBe(400);
    }
    expect(userId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe('PATCH /api/users/me/preferences', () => {
  const patch = (accessToken: string | undefined, body: unknown) =>
    context.app.inject({
      method: 'PATCH',
      url: '/api/users/me/preferences',
      headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
      payload: body as object,
    });

  it("stores the user's language, answers it on /me, audits it, and null follows the browser again", async () => {
    const subject = randomUUID();
    const own = await tokens(
      subject,
      identityClaims({ preferred_username: `lang-${subject}@careplane.test` }),
    );
    expect((await post(own.access, { idToken: own.id })).statusCode).toBe(200);
    expect((await get('/api/users/me', own.access)).json().language).toBeNull();

    const chosen = await patch(own.access, { language: 'th' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().language).toBe('th');
    expect((await get('/api/users/me', own.access)).json().language).toBe('th');

    const userId = chosen.json().id as string;
    const [row] = await context.database.db.select().from(users).where(eq(users.id, userId));
    expect(row?.language).toBe('th');
    const rows = await context.database.db.select().from(auditLog).where(eq(auditLog.recordId, userId));
    expect(rows.find((entry) => entry.action === 'update')?.changes).toEqual({ language: 'th' });

    expect((await patch(own.access, { language: null })).json().language).toBeNull();
  });

  it('refuses what is not a language, extra keys, no user record yet and no token', async () => {
    for (const body of [{ language: 'fr' }, { language: 'TH' }, {}, { language: 'th', roles: ['admin'] }]) {
      const refused = await patch(context.userToken, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await patch(context.userToken, { language: 'fr' })).json().issues).toEqual([
      { path: 'body.language', message: 'Must be en or th' },
    ]);
    const stranger = await context.signer.sign({ roles: [] }, { subject: randomUUID() });
    expect((await patch(stranger, { language: 'th' })).statusCode).toBe(404);
    expect((await patch(undefined, { language: 'th' })).statusCode).toBe(401);
  });
});
