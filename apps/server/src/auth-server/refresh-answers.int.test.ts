// The token endpoint's own answer to a plain refresh (decision 067): what the provider would answer and store,
// side by side with the provider's own; and every refresh it does not rotate is the provider's, untouched.
import { and, eq, sql } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import { authIdentities, authOidcPayloads } from '@/db/schema/index.js';
import {
  enrolledIdentity,
  postForm,
  startAuthTestServer,
  type AuthTestServer,
  type EnrolledIdentity,
} from '@/test/auth-server.js';
import { CIBA_GRANT_TYPE as CIBA } from './provider.js';

let t: AuthTestServer;
let nurse: EnrolledIdentity;

beforeAll(async () => {
  t = await startAuthTestServer({ AUTH_RATE_LIMIT_PER_IDENTITY: '1000' });
  nurse = await enrolledIdentity(t, {
    username: 'nina@careplane.test',
    firstName: 'Nina',
    lastName: 'Nurse',
    email: 'nina@careplane.test',
    roles: ['public'],
    assuranceLevel: 'substantial',
  });
});

afterAll(async () => {
  await t?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const post = (path: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
  postForm(t, path, new URLSearchParams(params).toString(), headers);

/** A refresh the token route answers itself, or (`extra`, a parameter the provider ignores) hands over. */
const refresh = (token: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  post(
    '/token',
    { grant_type: 'refresh_token', refresh_token: token, client_id: CONSOLE_CLIENT_ID, ...extra },
    headers,
  );
const viaProvider = { ignored: '1' };

/** Signs `who` in (backchannel, approval, poll) and answers the sign-in's refresh token. */
async function signIn(who: EnrolledIdentity = nurse): Promise<string> {
  const started = await post('/backchannel', {
    client_id: CONSOLE_CLIENT_ID,
    scope: 'openid',
    login_hint: who.username,
  });
  expect(started.status).toBe(200);
  const request = await t.authenticator.waitForPending(who.key, { timeoutMs: 5_000, intervalMs: 50 });
  await t.authenticator.approve(who.key, request!);
  const tokens = await post('/token', {
    grant_type: CIBA,
    auth_req_id: started.body.auth_req_id as string,
    client_id: CONSOLE_CLIENT_ID,
  });
  expect(tokens.status).toBe(200);
  return tokens.body.refresh_token as string;
}

/** The stored refresh token. */
async function stored(id: string) {
  const [row] = await t.database.handle.db
    .select()
    .from(authOidcPayloads)
    .where(and(eq(authOidcPayloads.model, 'RefreshToken'), eq(authOidcPayloads.id, id)));
  return row;
}

/** What the token route answered to each refresh itself (undefined: it handed the refresh to the provider). */
function watchAnswers() {
  const answers: unknown[] = [];
  const answer = t.server.refreshes.answer.bind(t.server.refreshes);
  vi.spyOn(t.server.refreshes, 'answer').mockImplementation(async (headers, params) => {
    const given = await answer(headers, params);
    if (params.get('grant_type') === 'refresh_token') answers.push(given);
    return given;
  });
  return answers;
}

const without = (record: Record<string, unknown>, ...names: string[]) =>
  Object.fromEntries(Object.entries(record).filter(([name]) => !names.includes(name)));

/** What a rotation must make of a token's payload: the provider's (oidc-provider's refresh_token.js). */
const successorOf = (payload: Record<string, unknown>) => ({
  ...without(payload, 'jti', 'iat'),
  rotations: typeof payload.rotations === 'number' ? payload.rotations + 1 : 1,
  gty: String(payload.gty).endsWith('refresh_token') ? payload.gty : `${String(payload.gty)} refresh_token`,
});

describe('a plain refresh, answered by the token route', () => {
  it('answers, signs and stores what the provider answers, signs and stores', async () => {
    const answers = watchAnswers();
    const origin = { origin: t.baseUrl };
    const first = await signIn();
    const ours = await refresh(first, {}, origin);
    const second = ours.body.refresh_token as string;
    const theirs = await refresh(second, viaProvider, origin);
    const third = theirs.body.refresh_token as string;
    expect(answers).toHaveLength(2);
    expect(answers[0]).toBeDefined();
    expect(answers[1]).toBeUndefined();

    // The same answer: status, headers (but its length), fields.
    expect(ours.status).toBe(200);
    expect(without(ours.headers, 'content-length')).toEqual(without(theirs.headers, 'content-length'));
    expect(Object.keys(ours.body)).toEqual(Object.keys(theirs.body));
    expect(ours.body).toMatchObject({ token_type: 'Bearer', expires_in: theirs.body.expires_in });

    // The same access token: header, claims (but its id and times), lifetime.
    const [mine, provider] = [ours, theirs].map((answer) => answer.body.access_token as string);
    expect(decodeProtectedHeader(mine!)).toEqual(decodeProtectedHeader(provider!));
    const [claims, providerClaims] = [decodeJwt(mine!), decodeJwt(provider!)];
    expect(Object.keys(claims)).toEqual(Object.keys(providerClaims));
    expect(without(claims, 'jti', 'iat', 'exp')).toEqual(without(providerClaims, 'jti', 'iat', 'exp'));
    expect(claims.exp! - claims.iat!).toBe(providerClaims.exp! - providerClaims.iat!);
    expect(claims.jti).toMatch(/^[\w-]{43}$/);
    expect(claims.jti).not.toBe(providerClaims.jti);
    expect(claims).toMatchObject({ sub: nurse.identityId, acr: 'substantial', email: 'nina@careplane.test' });

    // The same rotation: the predecessor marked used, a successor made of it the same way, the same end.
    const [one, two, three] = await Promise.all([first, second, third].map(stored));
    expect(one!.consumedAt).not.toBeNull();
    expect(two!.consumedAt).not.toBeNull();
    expect(three!.consumedAt).toBeNull();
    for (const [before, after] of [
      [one!, two!],
      [two!, three!],
    ] as const) {
      expect(without(after.payload, 'jti', 'iat')).toEqual(successorOf(before.payload));
      expect(after.payload.jti).toBe(after.id);
      expect(after.grantId).toBe(before.grantId);
      expect(Math.abs(after.expiresAt!.getTime() - Number(before.payload.exp) * 1000)).toBeLessThan(1_000);
    }

    // The access token verifies as the API verifies it, and the successor refreshes again.
    const verified = await jwtVerify(mine!, t.server.getKey, {
      issuer: t.issuer,
      audience: t.config.auth.audience,
      typ: 'at+jwt',
    });
    expect(verified.payload.sub).toBe(nurse.identityId);
    expect((await refresh(third)).status).toBe(200);
  });

  it('answers without an Origin as the provider does', async () => {
    const answers = watchAnswers();
    const ours = await refresh(await signIn());
    const theirs = await refresh(await signIn(), viaProvider);
    expect(answers.map((answer) => answer !== undefined)).toEqual([true, false]);
    expect(without(ours.headers, 'content-length')).toEqual(without(theirs.headers, 'content-length'));
  });

  it('signs with the key the provider signs with, after a rotation of the keys too', async () => {
    await t.server.keys.rotate();
    const answers = watchAnswers();
    const ours = await refresh(await signIn());
    expect(answers[0]).toBeDefined();
    expect(decodeProtectedHeader(ours.body.access_token as string).kid).toBe(t.server.keys.current[0]!.kid);
  });
});

describe('every other refresh is the provider’s, with nothing changed first', () => {
  it('a spent token: the provider refuses it and ends its family', async () => {
    const first = await signIn();
    const second = (await refresh(first)).body.refresh_token as string;
    const answers = watchAnswers();
    const reuse = await refresh(first);
    expect(answers).toEqual([undefined]);
    expect(reuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await stored(second)).toBeUndefined();
    expect((await refresh(second)).body.error).toBe('invalid_grant');
  });

  it('two refreshes of one token at once: one is answered, the other refused, and the family ends', async () => {
    const first = await signIn();
    const [a, b] = await Promise.all([refresh(first), refresh(first)]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const won = a.status === 200 ? a : b;
    expect((await refresh(won.body.refresh_token as string)).body.error).toBe('invalid_grant');
  });

  it('a blocked identity: refused, and the token is not used up', async () => {
    const who = await enrolledIdentity(t, { username: 'bo@careplane.test', roles: ['public'] });
    const token = await signIn(who);
    const block = (at: Date | null) =>
      t.database.handle.db
        .update(authIdentities)
        .set({ disabledAt: at })
        .where(eq(authIdentities.id, who.identityId));
    await block(new Date());
    const answers = watchAnswers();
    const refused = await refresh(token);
    expect(answers).toEqual([undefined]);
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await stored(token))!.consumedAt).toBeNull();
    await block(null);
    expect((await refresh(token)).status).toBe(200);
  });

  it('an expired token, a revoked sign-in, another client’s token: refused, nothing used up', async () => {
    const setPayload = (id: string, model: string, change: Record<string, unknown>) =>
      t.database.handle.db
        .update(authOidcPayloads)
        .set({ payload: sql`${authOidcPayloads.payload} || ${JSON.stringify(change)}::jsonb` })
        .where(and(eq(authOidcPayloads.model, model), eq(authOidcPayloads.id, id)));
    const now = Math.floor(Date.now() / 1000);

    const expired = await signIn();
    await setPayload(expired, 'RefreshToken', { exp: now - 1 });
    const foreign = await signIn();
    await setPayload(foreign, 'RefreshToken', { clientId: 'someone-else' });
    const grantEnded = await signIn();
    const grantId = (await stored(grantEnded))!.grantId!;
    await setPayload(grantId, 'Grant', { exp: now - 1 });

    const answers = watchAnswers();
    for (const token of [expired, foreign, grantEnded]) {
      const refused = await refresh(token);
      expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect((await stored(token))!.consumedAt).toBeNull();
    }
    expect(answers).toEqual([undefined, undefined, undefined]);
    expect((await refresh('not-a-token')).body.error).toBe('invalid_grant');
  });

  it('a token of another shape (a scope, a binding): the provider rotates it', async () => {
    const scoped = await signIn();
    await t.database.handle.db
      .update(authOidcPayloads)
      .set({ payload: sql`${authOidcPayloads.payload} || '{"scope":"offline_access"}'::jsonb` })
      .where(and(eq(authOidcPayloads.model, 'RefreshToken'), eq(authOidcPayloads.id, scoped)));
    const answers = watchAnswers();
    const rotated = await refresh(scoped);
    expect(answers).toEqual([undefined]);
    expect(rotated.status).toBe(200);
  });

  it('a parameter twice or empty, or client authentication: the provider judges the request', async () => {
    const token = await signIn();
    const answers = watchAnswers();
    const twice = await fetch(`${t.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&refresh_token=${token}&refresh_token=${token}&client_id=${CONSOLE_CLIENT_ID}`,
    });
    expect(twice.status).toBe(400);
    const empty = await refresh('', {});
    expect(empty.status).toBe(400);
    const authenticated = await refresh(token, {}, { authorization: 'Basic Zm9vOmJhcg==' });
    expect(authenticated.status).toBe(400);
    expect(answers).toEqual([undefined, undefined]);
    expect((await stored(token))!.consumedAt).toBeNull();
    expect((await refresh(token)).status).toBe(200);
  });

  it('a NUL in a token or a client id names nothing: refused as unknown, not failed', async () => {
    const token = await signIn();
    const body = (params: string) => postForm(t, '/token', params);
    const client = `client_id=${CONSOLE_CLIENT_ID}`;
    for (const [params, status, error] of [
      [`grant_type=refresh_token&refresh_token=${token}%00&${client}`, 400, 'invalid_grant'],
      [`grant_type=refresh_token&refresh_token=${token}%00&${client}&ignored=1`, 400, 'invalid_grant'],
      [`grant_type=${encodeURIComponent(CIBA)}&auth_req_id=abc%00&${client}`, 400, 'invalid_grant'],
      [`grant_type=refresh_token&refresh_token=${token}&${client}%00`, 401, 'invalid_client'],
    ] as const) {
      expect(await body(params), params).toMatchObject({ status, body: { error } });
    }
    expect((await refresh(token)).status).toBe(200);
  });

  it('a failure on the server’s side: the provider’s server_error, in the caller’s language', async () => {
    const token = await signIn();
    vi.spyOn(t.server.refreshes, 'answer').mockRejectedValue(new Error('the database is gone'));
    const failed = await refresh(token, {}, { 'accept-language': 'th' });
    expect(failed).toMatchObject({
      status: 500,
      body: { error: 'server_error', error_description: 'เซิร์ฟเวอร์เข้าสู่ระบบขัดข้อง' },
      headers: { 'content-language': 'th', 'cache-control': 'no-store' },
    });
    vi.restoreAllMocks();
    expect((await refresh(token)).status).toBe(200);
  });
});
