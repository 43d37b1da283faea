// Refusals of a write route: every bad body answers a 4xx with the error body and writes nothing.
import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, patientProfiles, users } from '@/db/schema/index.js';
import { api, createTestContext, type TestContext } from './harness.js';

let context: TestContext;
let existingUserId: string;
let existingProfileId: string;
beforeAll(async () => {
  context = await createTestContext();
  const user = await api(context).post('/api/users', { username: 'kept.user@careplane.test' });
  const profile = await api(context).post('/api/patient-profiles', { status: 'enrolled' });
  expect(user.statusCode, user.body).toBe(201);
  expect(profile.statusCode, profile.body).toBe(201);
  existingUserId = user.json().id;
  existingProfileId = profile.json().id;
});
afterAll(async () => {
  await context?.close();
});

async function snapshot() {
  const db = context.database.db;
  const [[u], [p], [a]] = await Promise.all([
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(patientProfiles),
    db.select({ n: count() }).from(auditLog),
  ]);
  const [kept] = await db.select().from(users).where(eq(users.id, existingUserId));
  return { users: u!.n, profiles: p!.n, audit: a!.n, kept };
}

interface Send {
  method: 'POST' | 'PATCH' | 'GET' | 'DELETE';
  url: string;
  /** A raw body string (sent as is) or a value sent as JSON. */
  body?: unknown;
  raw?: string | Buffer;
  contentType?: string;
}

const send = ({ method, url, body, raw, contentType }: Send) =>
  context.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${context.adminToken}`,
      ...(raw !== undefined || body !== undefined
        ? { 'content-type': contentType ?? 'application/json' }
        : {}),
    },
    ...(raw !== undefined ? { payload: raw } : body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });

function expectErrorBody(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body.slice(0, 300)).toBe(status);
  const body = response.json();
  expect(body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
  expect(Object.keys(body).every((key) => ['statusCode', 'error', 'message', 'issues'].includes(key))).toBe(
    true,
  );
  if (body.issues !== undefined) {
    expect(Array.isArray(body.issues)).toBe(true);
    for (const issue of body.issues) {
      expect(issue).toEqual({ path: expect.any(String), message: expect.any(String) });
    }
  }
  expect(response.body).not.toMatch(/stack|at Object\.|node_modules|select |insert into/i);
  return body;
}

/** Sends, expects the refusal, and checks that no row moved. */
async function expectRefusedWithoutWrites(request: Send, status: number) {
  const before = await snapshot();
  const response = await send(request);
  const body = expectErrorBody(response, status);
  expect(await snapshot()).toEqual(before);
  return body;
}

const deep = (levels: number): unknown => {
  let value: unknown = 'bottom';
  for (let level = 0; level < levels; level++) value = { next: value };
  return value;
};

const userUrl = () => `/api/users/${existingUserId}`;
const profileUrl = () => `/api/patient-profiles/${existingProfileId}`;

describe('wrong types, missing and extra fields', () => {
  const cases: [string, Send][] = [
    ['username as a number', { method: 'POST', url: '/api/users', body: { username: 42 } }],
    ['username not name@domain', { method: 'POST', url: '/api/users', body: { username: 'nobody' } }],
    ['isBlocked as a string', { method: 'PATCH', url: '', body: { isBlocked: 'yes' } }],
    ['localRoles as a string', { method: 'PATCH', url: '', body: { localRoles: 'nurse' } }],
    ['an unknown local role', { method: 'PATCH', url: '', body: { localRoles: ['overlord'] } }],
    ['employers with a non-uuid', { method: 'PATCH', url: '', body: { employers: ['1'] } }],
    ['missing username', { method: 'POST', url: '/api/users', body: { firstName: 'Nobody' } }],
    ['an empty object', { method: 'POST', url: '/api/users', body: {} }],
    [
      'an extra field',
      { method: 'POST', url: '/api/users', body: { username: 'x@careplane.test', isAdmin: true } },
    ],
    ['an extra field on update', { method: 'PATCH', url: '', body: { username: 'renamed@careplane.test' } }],
    [
      'an extra nested field',
      { method: 'PATCH', url: '', body: { additionalInfo: { gender: 'female', shoeSize: 44 } } },
    ],
    ['a JSON array', { method: 'POST', url: '/api/users', body: [{ username: 'x@careplane.test' }] }],
    ['a JSON string', { method: 'POST', url: '/api/users', body: 'x@careplane.test' }],
    ['JSON null', { method: 'POST', url: '/api/users', raw: 'null' }],
    ['an empty body', { method: 'POST', url: '/api/users', raw: '' }],
    ['a profile without status', { method: 'POST', url: '/api/patient-profiles', body: {} }],
    [
      'a profile status out of the enumeration',
      { method: 'PATCH', url: 'profile', body: { status: 'cured' } },
    ],
    [
      'an emergency contact without a name',
      { method: 'PATCH', url: 'profile', body: { emergencyContacts: [{ phoneNumber: '1' }] } },
    ],
    [
      'a prototype key',
      {
        method: 'POST',
        url: '/api/users',
        raw: '{"username":"proto@careplane.test","__proto__":{"isBlocked":true}}',
      },
    ],
    [
      'a prototype key inside a JSON object',
      { method: 'PATCH', url: '', raw: '{"matrixIdentity":{"__proto__":{"polluted":true},"handle":"x"}}' },
    ],
    [
      'a constructor.prototype key inside a JSON object',
      { method: 'PATCH', url: '', raw: '{"matrixIdentity":{"constructor":{"prototype":{"polluted":true}}}}' },
    ],
  ];
  for (const [name, request] of cases) {
    it(`refuses ${name} with 400`, async () => {
      const url = request.url === '' ? userUrl() : request.url === 'profile' ? profileUrl() : request.url;
      await expectRefusedWithoutWrites({ ...request, url }, 400);
    });
  }

  it('names the offending fields in issues', async () => {
    const body = await expectRefusedWithoutWrites(
      { method: 'POST', url: '/api/users', body: { username: 'ok@careplane.test', firstName: 7, extra: 1 } },
      400,
    );
    const paths = body.issues.map((issue: { path: string }) => issue.path).join(' ');
    expect(paths).toMatch(/firstName/);
  });
});

describe('huge strings and lists, NUL bytes, deep nesting', () => {
  it('refuses a huge string', async () => {
    await expectRefusedWithoutWrites(
      { method: 'PATCH', url: userUrl(), body: { firstName: 'x'.repeat(100_000) } },
      400,
    );
    await expectRefusedWithoutWrites(
      { method: 'POST', url: '/api/users', body: { username: `${'a'.repeat(300)}@careplane.test` } },
      400,
    );
  });

  it('refuses a huge list', async () => {
    await expectRefusedWithoutWrites(
      { method: 'PATCH', url: userUrl(), body: { localRoles: Array.from({ length: 5_000 }, () => 'nurse') } },
      400,
    );
    await expectRefusedWithoutWrites(
      {
        method: 'PATCH',
        url: userUrl(),
        body: { employers: Array.from({ length: 1_000 }, () => randomUUID()) },
      },
      400,
    );
    await expectRefusedWithoutWrites(
      {
        method: 'PATCH',
        url: profileUrl(),
        body: { emergencyContacts: Array.from({ length: 100 }, (_, i) => ({ name: `Contact ${i}` })) },
      },
      400,
    );
  });

  it('refuses a NUL byte in a string field', async () => {
    await expectRefusedWithoutWrites(
      { method: 'PATCH', url: userUrl(), body: { firstName: 'Ni\u0000na' } },
      400,
    );
    await expectRefusedWithoutWrites(
      { method: 'POST', url: '/api/users', body: { username: 'nul@careplane.test', lastName: '\u0000' } },
      400,
    );
  });

  it('refuses bytes that are not UTF-8, rather than storing replacement characters', async () => {
    const raw = Buffer.concat([
      Buffer.from('{"title":"M'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}'),
    ]);
    const body = await expectRefusedWithoutWrites({ method: 'PATCH', url: userUrl(), raw }, 400);
    expect(body.message).toBe('Body is not valid UTF-8 text: send JSON encoded as UTF-8');
  });

  it('refuses a lone surrogate, naming where it is', async () => {
    // JSON may escape one (\ud800), but it is no character: stored, it would come back as a replacement one.
    const body = await expectRefusedWithoutWrites(
      { method: 'PATCH', url: userUrl(), raw: '{"title":"Dr \\ud800"}' },
      400,
    );
    expect(body.issues).toEqual([
      { path: 'body.title', message: 'Must be text: a lone surrogate is not a character' },
    ]);
    // A pair is a character (an emoji), and goes through.
    const pair = await send({ method: 'PATCH', url: userUrl(), raw: '{"title":"Dr \\ud83d\\ude00"}' });
    expect(pair.statusCode, pair.body).toBe(200);
    expect(pair.json().title).toBe('Dr \u{1F600}');
  });

  it('refuses a NUL byte inside a JSON object value or key', async () => {
    const body = await expectRefusedWithoutWrites(
      { method: 'PATCH', url: userUrl(), body: { matrixIdentity: { handle: '@ada\u0000:matrix.test' } } },
      400,
    );
    expect(body.issues).toEqual([
      { path: 'body.matrixIdentity.handle', message: 'Must not contain NUL characters' },
    ]);
    await expectRefusedWithoutWrites(
      {
        method: 'PATCH',
        url: userUrl(),
        body: { matrixIdentity: { profile: { note: ['ok', 'b\u0000d'] } } },
      },
      400,
    );
    await expectRefusedWithoutWrites(
      { method: 'PATCH', url: userUrl(), body: { matrixIdentity: { 'ha\u0000ndle': 'x' } } },
      400,
    );
    await expectRefusedWithoutWrites(
      {
        method: 'PATCH',
        url: profileUrl(),
        body: { location: { title: 'Home', address: { street: 'Main\u0000 St' } } },
      },
      400,
    );
  });

  it('refuses nesting deeper than 24 levels', async () => {
    await expectRefusedWithoutWrites(
      { method: 'PATCH', url: userUrl(), body: { matrixIdentity: deep(30) } },
      400,
    );
    await expectRefusedWithoutWrites({ method: 'POST', url: '/api/users', raw: '['.repeat(100_000) }, 400);
    await expectRefusedWithoutWrites(
      { method: 'POST', url: '/api/users', raw: `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}` },
      400,
    );
  });

  it('accepts structured JSON within the depth limit', async () => {
    const response = await send({ method: 'PATCH', url: userUrl(), body: { matrixIdentity: deep(10) } });
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('malformed requests', () => {
  it('refuses invalid JSON with 400', async () => {
    for (const raw of ['{', '{"username":', "{'username':'x'}", '{"a":1,}', 'undefined', '\u0000']) {
      await expectRefusedWithoutWrites({ method: 'POST', url: '/api/users', raw }, 400);
    }
  });

  it('refuses a body that is not JSON with 415', async () => {
    await expectRefusedWithoutWrites(
      { method: 'POST', url: '/api/users', raw: 'username=x@careplane.test', contentType: 'text/plain' },
      415,
    );
    await expectRefusedWithoutWrites(
      {
        method: 'PATCH',
        url: userUrl(),
        raw: 'firstName=Eve',
        contentType: 'application/x-www-form-urlencoded',
      },
      415,
    );
    await expectRefusedWithoutWrites(
      { method: 'POST', url: '/api/patient-profiles', raw: '<status/>', contentType: 'application/xml' },
      415,
    );
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const padding = 'x'.repeat(1024 * 1024);
    await expectRefusedWithoutWrites(
      {
        method: 'POST',
        url: '/api/users',
        raw: JSON.stringify({ username: 'big@careplane.test', firstName: padding }),
      },
      413,
    );
    await expectRefusedWithoutWrites(
      { method: 'PATCH', url: profileUrl(), raw: JSON.stringify({ emergencyContacts: [{ name: padding }] }) },
      413,
    );
  });

  it('refuses a bad uuid in the path with 400', async () => {
    for (const id of ['not-a-uuid', '1', `${randomUUID()}x`, "1'%20or%20'1'='1"]) {
      await expectRefusedWithoutWrites(
        { method: 'PATCH', url: `/api/users/${id}`, body: { firstName: 'X' } },
        400,
      );
      await expectRefusedWithoutWrites({ method: 'DELETE', url: `/api/patient-profiles/${id}` }, 400);
      await expectRefusedWithoutWrites({ method: 'GET', url: `/api/users/${id}` }, 400);
    }
  });
});

describe('conflicts and missing records', () => {
  it('answers 409 for a username that is taken, and writes nothing', async () => {
    const body = await expectRefusedWithoutWrites(
      { method: 'POST', url: '/api/users', body: { username: 'kept.user@careplane.test' } },
      409,
    );
    expect(body.message).not.toMatch(/duplicate key|violates/i);
    // The same name in other letter case is the same username.
    await expectRefusedWithoutWrites(
      { method: 'POST', url: '/api/users', body: { username: 'Kept.User@Careplane.Test' } },
      409,
    );
  });

  it('answers 404 for a record that does not exist, and writes nothing', async () => {
    const missing = randomUUID();
    await expectRefusedWithoutWrites({ method: 'GET', url: `/api/users/${missing}` }, 404);
    await expectRefusedWithoutWrites(
      { method: 'PATCH', url: `/api/users/${missing}`, body: { firstName: 'X' } },
      404,
    );
    await expectRefusedWithoutWrites({ method: 'DELETE', url: `/api/users/${missing}` }, 404);
    await expectRefusedWithoutWrites(
      { method: 'PATCH', url: `/api/patient-profiles/${missing}`, body: { status: 'enrolled' } },
      404,
    );
  });

  it('answers 400 for a reference to a record that does not exist, and writes nothing', async () => {
    await expectRefusedWithoutWrites(
      { method: 'PATCH', url: userUrl(), body: { patientProfile: randomUUID() } },
      400,
    );
    await expectRefusedWithoutWrites(
      {
        method: 'POST',
        url: '/api/patient-profiles',
        body: { status: 'enrolled', createdByUser: randomUUID() },
      },
      400,
    );
    await expectRefusedWithoutWrites(
      { method: 'PATCH', url: userUrl(), body: { employers: [randomUUID()] } },
      400,
    );
  });

  it('answers 404 with the error body for an unknown route', async () => {
    const response = await send({ method: 'GET', url: '/api/no-such-thing' });
    expectErrorBody(response, 404);
  });

  it('still accepts a good write after all of this', async () => {
    const before = await snapshot();
    const response = await send({ method: 'PATCH', url: userUrl(), body: { firstName: 'Kept' } });
    expect(response.statusCode, response.body).toBe(200);
    const after = await snapshot();
    expect(after.audit).toBe(before.audit + 1);
    expect(after.kept!.firstName).toBe('Kept');
  });
});
