// One account, one truth (decision 022): blocking, demoting and deleting a user take effect on the tokens
// already issued at once, in every server process on the database, and on the next sign-in; an ended sign-in
// (a revoked refresh family or token) ends its access tokens too. Real sign-ins, two processes, one database.
import { decodeJwt } from 'jose';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import {
  AuthenticatorClient,
  AuthenticatorError,
  generateAuthenticatorKey,
} from '@careplane/shared/authenticator/protocol';
import { eventEndpoints } from '@careplane/shared/events/events.contract';
import { authIdentities } from '@/db/schema/index.js';
import { openEventStream, type EventStreamClient } from '@/test/event-stream.js';
import {
  enrolledIdentity,
  freePort,
  startAuthTestServer,
  type AuthTestServer,
  type EnrolledIdentity,
} from '@/test/auth-server.js';

let a: AuthTestServer;
let b: AuthTestServer;
/** The phone, talking to process A under the issuer both processes share (as behind one load balancer). */
let phone: AuthenticatorClient;
let adminToken: string;
let identitySeq = 0;

type Answer = { status: number; body: Record<string, unknown> };
const authPost = (server: AuthTestServer, path: string, params: Record<string, string>): Promise<Answer> =>
  fetch(`${server.baseUrl}/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CONSOLE_CLIENT_ID, ...params }),
  }).then(async (response) => ({
    status: response.status,
    body: (await response.json().catch(() => ({}))) as Record<string, unknown>,
  }));

const call = async (server: AuthTestServer, token: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
};

/** Polls `probe` until it answers `expected` or a second has passed; answers what it saw last. */
async function withinASecond(probe: () => Promise<number>, expected: number) {
  const end = Date.now() + 1_000;
  let seen = await probe();
  while (seen !== expected && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    seen = await probe();
  }
  return seen;
}

async function identity(roles: ('admin' | 'public')[]) {
  identitySeq += 1;
  return enrolledIdentity(
    { server: a.server, authenticator: phone },
    { username: `trust${identitySeq}@careplane.test`, roles },
  );
}

/** A whole sign-in as the console does it: backchannel, approval on the phone, tokens, POST /api/auth. */
async function signIn(who: EnrolledIdentity, key = who.key) {
  const started = await authPost(a, '/backchannel', { scope: 'openid', login_hint: who.username });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const pending = await phone.waitForPending(key, { timeoutMs: 3_000, intervalMs: 50 });
  if (!pending) throw new Error('the sign-in never reached the phone');
  await phone.approve(key, pending);
  let tokens: Answer;
  do {
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    tokens = await authPost(a, '/token', {
      grant_type: 'urn:openid:params:grant-type:ciba',
      auth_req_id: started.body.auth_req_id as string,
    });
  } while (tokens.body.error === 'authorization_pending');
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  const access = tokens.body.access_token as string;
  const user = await call(a, access, 'POST', '/api/auth', { idToken: tokens.body.id_token });
  expect(user.status, JSON.stringify(user.body)).toBe(200);
  return { access, refresh: tokens.body.refresh_token as string, userId: user.body.id as string };
}

/** A live event stream at `server` for the token's sign-in, ready; and the ticket it was opened with. */
async function watch(server: AuthTestServer, token: string) {
  const issued = await call(a, token, 'POST', eventEndpoints.ticket);
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  const ticket = issued.body.ticket as string;
  const stream = await openStream(server, ticket);
  expect(stream.status).toBe(200);
  await stream.next((event) => event.event === 'ready');
  return { stream, ticket };
}
const openStream = (server: AuthTestServer, ticket: string) =>
  openEventStream(`${server.baseUrl}${eventEndpoints.stream}?ticket=${encodeURIComponent(ticket)}`);
/** Resolves once the stream has ended (the server closed it); a stream left open fails the test's time. */
const ended = (stream: EventStreamClient) =>
  expect(stream.next(() => false)).rejects.toThrow('The event stream ended');

/** Asks the signed-in person's phone to approve an action, as another service of the platform would. */
const askPhone = (token: string, body: Record<string, unknown> = {}) =>
  call(a, token, 'POST', '/auth/resource-authorization', {
    action: 'payment.approve',
    resource: 'accounts/1',
    digest: 'A'.repeat(43),
    ...body,
  });

/** Whether a new sign-in of the identity reaches its phone at all (it must not once blocked or deleted). */
async function signInReachesPhone(who: EnrolledIdentity) {
  const started = await authPost(a, '/backchannel', { scope: 'openid', login_hint: who.username });
  expect(started.status).toBe(200);
  // The phone reaches the process at its own address (the issuer's is where a load balancer would be).
  // A blocked or deleted person's phone is refused outright: nothing reaches it either.
  const pending = await phone
    .waitForPending(who.key, { timeoutMs: 1_500, intervalMs: 100 })
    .catch((error: unknown) => {
      if (error instanceof AuthenticatorError && error.status === 401) return undefined;
      throw error;
    });
  return Boolean(pending);
}

beforeAll(async () => {
  const port = await freePort();
  const env = { PUBLIC_URL: `http://127.0.0.1:${port}`, AUTH_RATE_LIMIT_PER_IDENTITY: '1000' };
  a = await startAuthTestServer(env);
  b = await startAuthTestServer(env, a.database);
  phone = new AuthenticatorClient({
    issuer: a.issuer,
    fetch: (url, init) => fetch(url.replace(a.issuer, `${a.baseUrl}/auth`), init),
  });
  adminToken = (await signIn(await identity(['admin']))).access;
});

afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('one account, one truth', () => {
  it('blocking an admin ends their tokens at once, on every process, and their sign-in; unblocking restores it', async () => {
    const who = await identity(['admin']);
    const session = await signIn(who);
    expect((await call(a, session.access, 'GET', '/api/users')).status).toBe(200);
    expect((await call(b, session.access, 'GET', '/api/users')).status).toBe(200);
    const atA = await watch(a, session.access);
    const atB = await watch(b, session.access);

    const blocked = await call(a, adminToken, 'PATCH', `/api/users/${session.userId}`, { isBlocked: true });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    // At once in the process that made the change, within a second in the other.
    expect((await call(a, session.access, 'GET', '/api/users')).status).toBe(401);
    expect(
      await withinASecond(async () => (await call(b, session.access, 'GET', '/api/users')).status, 401),
    ).toBe(401);
    expect((await call(a, session.access, 'POST', '/api/auth', { idToken: 'x.y.z' })).status).toBe(401);
    // Their live streams end, in both processes, and the ticket they were opened with opens no other.
    await ended(atA.stream);
    await ended(atB.stream);
    const reopened = await openStream(b, atB.ticket);
    expect(reopened.status).toBe(401);
    reopened.close();
    expect((await askPhone(session.access)).status).toBe(401);
    const refreshed = await authPost(a, '/token', {
      grant_type: 'refresh_token',
      refresh_token: session.refresh,
    });
    expect(refreshed.body.error).toBe('invalid_grant');
    expect(await signInReachesPhone(who)).toBe(false);

    const unblocked = await call(a, adminToken, 'PATCH', `/api/users/${session.userId}`, {
      isBlocked: false,
    });
    expect(unblocked.status).toBe(200);
    const again = await signIn(who);
    expect(again.userId).toBe(session.userId);
    const me = await call(b, again.access, 'GET', '/api/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ isBlocked: false, roles: ['admin'] });
  }, 60_000);

  it('demoting an admin takes their rights from existing tokens at once; the next token carries the new roles', async () => {
    const who = await identity(['admin']);
    const session = await signIn(who);
    expect((await call(b, session.access, 'GET', '/api/users')).status).toBe(200);

    const demoted = await call(a, adminToken, 'PATCH', `/api/users/${session.userId}`, { roles: ['public'] });
    expect(demoted.status).toBe(200);
    expect((await call(a, session.access, 'GET', '/api/users')).status).toBe(403);
    expect(
      await withinASecond(async () => (await call(b, session.access, 'GET', '/api/users')).status, 403),
    ).toBe(403);
    // Still signed in, just without admin rights.
    expect((await call(a, session.access, 'GET', '/api/users/me')).status).toBe(200);

    const next = await signIn(who);
    expect(decodeJwt(next.access).roles).toEqual(['public']);
    const me = await call(a, next.access, 'GET', '/api/users/me');
    expect(me.body.roles).toEqual(['public']);
    expect((await call(a, next.access, 'GET', '/api/users')).status).toBe(403);
  }, 60_000);

  it('deleting a user ends their tokens, and no sign-in can re-create them', async () => {
    const who = await identity(['admin']);
    const session = await signIn(who);
    const center = {
      title: 'Deleted admin center',
      address: { title: 'A', street: 'B', city: 'C', country: 'TH' },
    };
    expect((await call(b, session.access, 'POST', '/api/command-centers', center)).status).toBe(201);

    expect((await call(a, adminToken, 'DELETE', `/api/users/${session.userId}`)).status).toBe(204);
    expect((await call(a, session.access, 'POST', '/api/command-centers', center)).status).toBe(401);
    expect(
      await withinASecond(
        async () => (await call(b, session.access, 'POST', '/api/command-centers', center)).status,
        401,
      ),
    ).toBe(401);
    expect((await call(a, session.access, 'GET', '/api/users/me')).status).toBe(401);
    expect(await signInReachesPhone(who)).toBe(false);
    const identities = await a.database.handle.db
      .select()
      .from(authIdentities)
      .where(eq(authIdentities.id, who.identityId));
    expect(identities).toEqual([]);
  }, 60_000);
});

describe('a lost phone', () => {
  it("once revoked signs in and approves nothing more, its person's sign-ins end everywhere, and the other phone still serves", async () => {
    const who = await identity(['admin']);
    const { code } = await a.server.identities.issueEnrollmentCode(who.identityId);
    const spareKeys = await generateAuthenticatorKey();
    const spare = {
      keyId: (await phone.enroll(code, spareKeys, 'Spare phone')).keyId,
      privateKey: spareKeys.privateKey,
    };
    const session = await signIn(who);
    const atB = await watch(b, session.access);
    const phonesPath = `/api/users/${session.userId}/phones`;

    const listed = await call(a, adminToken, 'GET', phonesPath);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const items = listed.body.items as Record<string, unknown>[];
    expect(items.map((item) => item.id).sort()).toEqual([who.key.keyId, spare.keyId].sort());
    expect(items.find((item) => item.id === spare.keyId)).toMatchObject({
      label: 'Spare phone',
      revokedAt: null,
    });
    expect(items.find((item) => item.id === who.key.keyId)?.lastUsedAt).toEqual(expect.any(String));
    const revoked = await call(a, adminToken, 'POST', `${phonesPath}/${who.key.keyId}/revoke`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body).toMatchObject({ id: who.key.keyId, revokedAt: expect.any(String) });
    // The sign-in the lost phone approved ends at once, in both processes, with its stream and refresh token.
    expect((await call(a, session.access, 'GET', '/api/users/me')).status).toBe(401);
    expect(
      await withinASecond(async () => (await call(b, session.access, 'GET', '/api/users/me')).status, 401),
    ).toBe(401);
    await ended(atB.stream);
    const refreshed = await authPost(a, '/token', {
      grant_type: 'refresh_token',
      refresh_token: session.refresh,
    });
    expect(refreshed.body.error).toBe('invalid_grant');
    // The lost phone is refused; a sign-in reaches the spare phone only, which signs the person in again.
    await expect(phone.pending(who.key)).rejects.toThrow();
    const again = await signIn(who, spare);
    expect(again.userId).toBe(session.userId);
    expect((await call(b, again.access, 'GET', '/api/users/me')).status).toBe(200);

    const after = (await call(a, adminToken, 'GET', phonesPath)).body.items as Record<string, unknown>[];
    expect(after.map((item) => item.id)).toEqual([spare.keyId, who.key.keyId]);
    expect(after[1]?.revokedAt).toBe(revoked.body.revokedAt);
    // Revoking it again changes nothing and ends nothing.
    const twice = await call(a, adminToken, 'POST', `${phonesPath}/${who.key.keyId}/revoke`);
    expect(twice.status).toBe(200);
    expect(twice.body.revokedAt).toBe(revoked.body.revokedAt);
    expect((await call(a, again.access, 'GET', '/api/users/me')).status).toBe(200);
  }, 60_000);

  it('can be revoked by its person, signed in with their other phone; that sign-in ends too', async () => {
    const who = await identity(['public']);
    const { code } = await a.server.identities.issueEnrollmentCode(who.identityId);
    const spareKeys = await generateAuthenticatorKey();
    const spare = { keyId: (await phone.enroll(code, spareKeys)).keyId, privateKey: spareKeys.privateKey };
    const stranger = await identity(['public']);
    const session = await signIn(who, spare);

    const own = await call(b, session.access, 'GET', '/api/users/me/phones');
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect((own.body.items as { id: string }[]).map((item) => item.id).sort()).toEqual(
      [who.key.keyId, spare.keyId].sort(),
    );
    // Only their own phones: another person's is not found.
    const foreign = await call(
      b,
      session.access,
      'POST',
      `/api/users/me/phones/${stranger.key.keyId}/revoke`,
    );
    expect(foreign.status).toBe(404);
    expect(await signInReachesPhone(stranger)).toBe(true);

    const revoked = await call(b, session.access, 'POST', `/api/users/me/phones/${who.key.keyId}/revoke`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expect((await call(b, session.access, 'GET', '/api/users/me')).status).toBe(401);
    await expect(phone.pending(who.key)).rejects.toThrow();
    const again = await signIn(who, spare);
    expect(again.userId).toBe(session.userId);
  }, 60_000);

  it("is named exactly: another person's phone, an unknown one and a malformed id are refused", async () => {
    const first = await signIn(await identity(['public']));
    const other = await identity(['public']);
    const path = (phoneId: string) => `/api/users/${first.userId}/phones/${phoneId}/revoke`;
    // Only an admin sees or revokes a person's phones.
    expect((await call(a, first.access, 'GET', `/api/users/${first.userId}/phones`)).status).toBe(403);
    expect((await call(a, first.access, 'POST', path(other.key.keyId))).status).toBe(403);
    const foreign = await call(a, adminToken, 'POST', path(other.key.keyId));
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Phone not found');
    expect((await call(a, adminToken, 'POST', path('A'.repeat(43)))).status).toBe(404);
    expect((await call(a, adminToken, 'POST', path('not.a.key'))).status).toBe(400);
    expect((await call(a, adminToken, 'POST', path('A'.repeat(65)))).status).toBe(400);
    expect(
      (await call(a, adminToken, 'GET', '/api/users/00000000-0000-4000-8000-000000000000/phones')).status,
    ).toBe(404);
    expect(await signInReachesPhone(other)).toBe(true);
  }, 60_000);
});

describe("an admin's fresh enrollment code", () => {
  it('ends every earlier unused code of the person, at either process: only the newest enrolls a phone', async () => {
    const created = await call(a, adminToken, 'POST', '/api/users', {
      username: 'fresh.code@careplane.test',
      firstName: 'Fern',
      lastName: 'Fresh',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const userId = created.body.id as string;
    const codes = [(created.body.enrollment as { code: string }).code];
    for (let round = 0; round < 10; round++) {
      const fresh = await call(round % 2 ? b : a, adminToken, 'POST', `/api/users/${userId}/enrollment`);
      expect(fresh.status, JSON.stringify(fresh.body)).toBe(201);
      codes.push((fresh.body as { code: string }).code);
    }
    const keys = await generateAuthenticatorKey();
    const answer = (code: string) =>
      phone.enroll(code, keys).then(
        () => 'enrolled',
        (error: unknown) => error,
      );
    const unknown = await answer('0000-0000-0000-0000-0000');
    expect(unknown).toBeInstanceOf(AuthenticatorError);
    expect(unknown).toMatchObject({ status: 400 });
    // The creation's code and every later one but the last: refused exactly as a code that never existed.
    for (const code of codes.slice(0, -1)) {
      const refused = await answer(code);
      expect(refused).toEqual(unknown);
      expect((refused as AuthenticatorError).body).toEqual((unknown as AuthenticatorError).body);
    }
    const enrolled = await phone.enroll(codes.at(-1)!, keys);
    expect(enrolled).toMatchObject({ username: 'fresh.code@careplane.test' });
    const phones = await call(a, adminToken, 'GET', `/api/users/${userId}/phones`);
    expect((phones.body.items as { id: string }[]).map((item) => item.id)).toEqual([enrolled.keyId]);
  }, 60_000);
});

describe('ended sign-ins end their access tokens', () => {
  it('a refresh token used twice revokes its family, and the family’s access tokens stop working', async () => {
    const session = await signIn(await identity(['public']));
    const first = await authPost(a, '/token', {
      grant_type: 'refresh_token',
      refresh_token: session.refresh,
    });
    expect(first.status).toBe(200);
    const newer = first.body.access_token as string;
    expect((await call(b, newer, 'GET', '/api/users/me')).status).toBe(200);
    expect((await askPhone(newer)).status).toBe(200);
    const reused = await authPost(a, '/token', {
      grant_type: 'refresh_token',
      refresh_token: session.refresh,
    });
    expect(reused.body.error).toBe('invalid_grant');
    // An ended sign-in asks nothing more of the person's phone.
    for (const token of [session.access, newer]) {
      const asked = await askPhone(token);
      expect(asked.status).toBe(401);
      expect(asked.body.message).toBe('This sign-in has ended');
    }
    for (const token of [session.access, newer]) {
      expect((await call(a, token, 'GET', '/api/users/me')).status).toBe(401);
      expect(
        await withinASecond(async () => (await call(b, token, 'GET', '/api/users/me')).status, 401),
      ).toBe(401);
    }
  }, 60_000);

  it('revoking the refresh token at the revocation endpoint ends the access tokens of its sign-in', async () => {
    const session = await signIn(await identity(['public']));
    expect((await call(a, session.access, 'GET', '/api/users/me')).status).toBe(200);
    const revoked = await authPost(a, '/token/revocation', {
      token: session.refresh,
      token_type_hint: 'refresh_token',
    });
    expect(revoked.status).toBe(200);
    expect((await call(a, session.access, 'GET', '/api/users/me')).status).toBe(401);
    expect(
      await withinASecond(async () => (await call(b, session.access, 'GET', '/api/users/me')).status, 401),
    ).toBe(401);
  }, 60_000);
});

describe("what a service may put on a person's phone", () => {
  it('is text as people type it and a binding message as a sign-in has it', async () => {
    const session = await signIn(await identity(['public']));
    for (const body of [
      { description: 'Approve sign-in \u202eoN\u202c' },
      { description: 'a\u0007b' },
      { bindingMessage: 'AB\u202e12' },
      { bindingMessage: 'a'.repeat(41) },
      { resource: 'accounts/\u0000' },
    ]) {
      const asked = await askPhone(session.access, body);
      expect(asked.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await askPhone(session.access, { description: 'อนุมัติการชำระเงิน', bindingMessage: 'ยืนยัน 12' })).status,
    ).toBe(200);
  }, 60_000);
});
