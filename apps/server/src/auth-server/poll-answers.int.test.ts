// The token endpoint's own answers to pending CIBA polls (decision 051): the same bytes the provider answers,
// given without it; and every poll that decides something still goes to the provider.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import { authOidcPayloads } from '@/db/schema/index.js';
import {
  enrolledIdentity,
  postForm,
  startAuthTestServer,
  type AuthTestServer,
  type EnrolledIdentity,
} from '@/test/auth-server.js';
import { createPollThrottle } from './ciba-poll.js';
import { CIBA_GRANT_TYPE as CIBA } from './provider.js';

let t: AuthTestServer;
let nurse: EnrolledIdentity;

beforeAll(async () => {
  t = await startAuthTestServer({ AUTH_RATE_LIMIT_PER_IDENTITY: '1000' });
  nurse = await enrolledIdentity(t, { username: 'nina@careplane.test', roles: ['public'] });
});

afterAll(async () => {
  await t?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const pollBody = (id: string, extra = '') =>
  `grant_type=${encodeURIComponent(CIBA)}&auth_req_id=${id}&client_id=${CONSOLE_CLIENT_ID}${extra}`;
/** The same poll with a parameter the provider ignores: the token route hands it over. */
const viaProvider = '&ignored=1';

async function startSignIn(who: EnrolledIdentity = nurse): Promise<string> {
  const answer = await postForm(
    t,
    '/backchannel',
    new URLSearchParams({
      client_id: CONSOLE_CLIENT_ID,
      scope: 'openid',
      login_hint: who.username,
    }).toString(),
  );
  expect(answer.status).toBe(200);
  return answer.body.auth_req_id as string;
}

/** Past the interval (1 s in tests; the server allows 250 ms of jitter). */
const afterInterval = () => new Promise((resolve) => setTimeout(resolve, 1_100));

describe('pending polls, answered by the token route', () => {
  it('answers authorization_pending and slow_down with the provider’s exact status, headers and body', async () => {
    const id = await startSignIn();
    const handed = vi.spyOn(t.server, 'handle');
    const variants: Record<string, string>[] = [
      {},
      { origin: t.baseUrl },
      { 'accept-language': 'th-TH,th;q=0.9' },
    ];
    for (const headers of variants) {
      const provider = await postForm(t, '/token', pollBody(id, viaProvider), headers);
      const providerTooEarly = await postForm(t, '/token', pollBody(id, viaProvider), headers);
      expect(handed).toHaveBeenCalledTimes(2);
      await afterInterval();
      const own = await postForm(t, '/token', pollBody(id), headers);
      const ownTooEarly = await postForm(t, '/token', pollBody(id), headers);
      expect(handed).toHaveBeenCalledTimes(2);
      expect(provider.body.error).toBe('authorization_pending');
      expect(providerTooEarly.body.error).toBe('slow_down');
      expect(own).toEqual(provider);
      expect(ownTooEarly).toEqual(providerTooEarly);
      // In the request's language, as the provider's are.
      const thai = 'accept-language' in headers;
      expect(own.headers['content-language']).toBe(thai ? 'th' : 'en');
      expect(own.body.error_description).toBe(
        thai
          ? 'คำขอเข้าสู่ระบบยังรอผู้ใช้ยืนยันบนโทรศัพท์'
          : "authorization request is still pending as the end-user hasn't yet completed the user interaction steps",
      );
      await afterInterval();
      handed.mockClear();
    }
  });

  it('records its polls as the provider does: a provider poll right after one is slow_down', async () => {
    const id = await startSignIn();
    expect((await postForm(t, '/token', pollBody(id))).body.error).toBe('authorization_pending');
    expect((await postForm(t, '/token', pollBody(id, viaProvider))).body.error).toBe('slow_down');
  });

  it('is judged by the database across processes: another process answers slow_down too early', async () => {
    const other = await startAuthTestServer({ AUTH_RATE_LIMIT_PER_IDENTITY: '1000' }, t.database);
    try {
      const id = await startSignIn();
      expect((await postForm(t, '/token', pollBody(id))).body.error).toBe('authorization_pending');
      expect((await postForm(other, '/token', pollBody(id))).body.error).toBe('slow_down');
      await afterInterval();
      expect((await postForm(other, '/token', pollBody(id))).body.error).toBe('authorization_pending');
    } finally {
      await other.close();
    }
  });
});

/** When the database last recorded a poll of the request. */
async function polledAt(id: string): Promise<number | undefined> {
  const [row] = await t.database.handle.db
    .select({ polledAt: authOidcPayloads.polledAt })
    .from(authOidcPayloads)
    .where(and(eq(authOidcPayloads.model, 'BackchannelAuthenticationRequest'), eq(authOidcPayloads.id, id)));
  return row?.polledAt?.getTime();
}

/** Two due polls answered pending: on the embedded database the second comes from the process's memory. */
async function pendingTwice(id: string) {
  expect((await postForm(t, '/token', pollBody(id))).body.error).toBe('authorization_pending');
  await afterInterval();
  expect((await postForm(t, '/token', pollBody(id))).body.error).toBe('authorization_pending');
}

describe('a pending request remembered by the process of the embedded database', () => {
  it('answers a due poll of it without a statement there, and records each poll on PostgreSQL', async () => {
    const id = await startSignIn();
    expect((await postForm(t, '/token', pollBody(id))).body.error).toBe('authorization_pending');
    const first = await polledAt(id);
    expect(first).toEqual(expect.any(Number));
    await afterInterval();
    expect((await postForm(t, '/token', pollBody(id))).body.error).toBe('authorization_pending');
    // Too early after the remembered poll, on either database.
    expect((await postForm(t, '/token', pollBody(id))).body.error).toBe('slow_down');
    const second = await polledAt(id);
    if (t.database.handle.kind === 'pglite') expect(second).toBe(first);
    else expect(second).toBeGreaterThan(first!);
  });

  it('forgets it when the identity is blocked: the next due poll is refused at once', async () => {
    const blocked = await enrolledIdentity(t, { username: 'blocked@careplane.test', roles: ['public'] });
    const id = await startSignIn(blocked);
    await pendingTwice(id);
    const db = t.database.handle.db;
    await db.transaction((tx) => t.server.identities.followUser(tx, blocked.identityId, { blocked: true }));
    await afterInterval();
    const refused = await postForm(t, '/token', pollBody(id));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
  });

  it('forgets it when another server on the same database approves it', async () => {
    const other = await startAuthTestServer({ AUTH_RATE_LIMIT_PER_IDENTITY: '1000' }, t.database);
    try {
      const id = await startSignIn();
      await pendingTwice(id);
      const request = await other.authenticator.waitForPending(nurse.key, {
        timeoutMs: 5_000,
        intervalMs: 50,
      });
      await other.authenticator.approve(nurse.key, request!);
      await afterInterval();
      const tokens = await postForm(t, '/token', pollBody(id));
      expect(tokens.status).toBe(200);
      expect(tokens.body.access_token).toEqual(expect.any(String));
    } finally {
      await other.close();
    }
  });
});

describe('polls that decide something, answered by the provider', () => {
  it('gives the tokens once approved, then refuses the spent request', async () => {
    const id = await startSignIn();
    await pendingTwice(id);
    const request = await t.authenticator.waitForPending(nurse.key, { timeoutMs: 5_000, intervalMs: 50 });
    await t.authenticator.approve(nurse.key, request!);
    await afterInterval();
    const handed = vi.spyOn(t.server, 'handle');
    const tokens = await postForm(t, '/token', pollBody(id));
    expect(tokens.status).toBe(200);
    expect(tokens.body.access_token).toEqual(expect.any(String));
    expect(handed).toHaveBeenCalledTimes(1);
    await afterInterval();
    expect((await postForm(t, '/token', pollBody(id))).body.error).toBe('invalid_grant');
  });

  it('answers access_denied once denied, even right after a pending answer', async () => {
    const id = await startSignIn();
    await pendingTwice(id);
    const request = await t.authenticator.waitForPending(nurse.key, { timeoutMs: 5_000, intervalMs: 50 });
    await t.authenticator.deny(nurse.key, request!);
    await afterInterval();
    expect((await postForm(t, '/token', pollBody(id))).body.error).toBe('access_denied');
  });

  it('leaves unknown, expired, malformed, foreign and unauthenticated polls to the provider', async () => {
    const id = await startSignIn();
    const handed = vi.spyOn(t.server, 'handle');
    const cases: [string, Record<string, string>, number, string][] = [
      [pollBody('no-such-request'), {}, 400, 'invalid_grant'],
      [pollBody(id).replace(CONSOLE_CLIENT_ID, 'someone-else'), {}, 401, 'invalid_client'],
      [`${pollBody(id)}&auth_req_id=${id}`, {}, 400, 'invalid_request'],
      [pollBody(id), { origin: 'https://elsewhere.example' }, 400, 'invalid_request'],
      [pollBody(id), { authorization: 'Basic eDp5' }, 400, 'invalid_request'],
    ];
    for (const [body, headers, status, error] of cases) {
      const answer = await postForm(t, '/token', body, headers);
      expect({ status: answer.status, error: answer.body.error }, body).toEqual({ status, error });
    }
    expect(handed).toHaveBeenCalledTimes(cases.length);

    const expiring = await postForm(
      t,
      '/backchannel',
      new URLSearchParams({
        client_id: CONSOLE_CLIENT_ID,
        scope: 'openid',
        login_hint: nurse.username,
        requested_expiry: '1',
      }).toString(),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const expired = await postForm(t, '/token', pollBody(expiring.body.auth_req_id as string));
    expect(expired.body.error).toBe('expired_token');
  });
});

describe('due polls that arrive together', () => {
  it('share one statement, each answered on its own request, and a second poll of one request is too early', async () => {
    const ids = [await startSignIn(), await startSignIn(), await startSignIn()];
    const db = t.database.handle.db;
    // A throttle of its own over the same database, as a second process's would be.
    const throttle = createPollThrottle(db, 1, { ownDatabase: false });
    const statements = vi.spyOn(db, 'execute');
    const answers = await Promise.all([
      ...ids.map((id) => throttle.answer(id, CONSOLE_CLIENT_ID)),
      throttle.answer(ids[0]!, CONSOLE_CLIENT_ID),
      throttle.answer('no-such-request', CONSOLE_CLIENT_ID),
      throttle.answer(ids[1]!, 'someone-else'),
    ]);
    expect(answers).toEqual(['pending', 'pending', 'pending', 'slow_down', undefined, undefined]);
    // The three requests, the unknown one and the foreign client's in one statement; the client's second poll
    // of ids[0] needed none, and the foreign client's poll of ids[1] after the statement one more.
    expect(statements).toHaveBeenCalledTimes(2);
    for (const id of ids) expect(await polledAt(id)).toEqual(expect.any(Number));
    // The provider decides the foreign client's poll; the requests stay pending for their own client.
    await afterInterval();
    expect(await throttle.answer(ids[2]!, CONSOLE_CLIENT_ID)).toBe('pending');
  });

  it('fails the polls of a statement that fails; a poll of the same request waiting behind it asks again', async () => {
    const [id, other] = [await startSignIn(), await startSignIn()];
    const db = t.database.handle.db;
    const throttle = createPollThrottle(db, 1, { ownDatabase: false });
    vi.spyOn(db, 'execute').mockRejectedValueOnce(new Error('the database is gone'));
    const answers = await Promise.allSettled([
      throttle.answer(id, CONSOLE_CLIENT_ID),
      throttle.answer(other, CONSOLE_CLIENT_ID),
      throttle.answer(id, CONSOLE_CLIENT_ID),
    ]);
    expect(answers).toEqual([
      { status: 'rejected', reason: new Error('the database is gone') },
      { status: 'rejected', reason: new Error('the database is gone') },
      { status: 'fulfilled', value: 'pending' },
    ]);
    expect(await throttle.answer(id, CONSOLE_CLIENT_ID)).toBe('slow_down');
    expect(await throttle.answer(other, CONSOLE_CLIENT_ID)).toBe('pending');
  });
});
