// CIBA sign-in and refresh through openid-client (a standard OpenID client, from discovery alone), approved by
// the authenticator protocol module; the tokens against the API.
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import {
  exportPublicJwk,
  generateAuthenticatorKey,
  signCanonical,
  verifyCanonical,
  type DecisionPayload,
  type PublicJwk,
} from '@careplane/shared/authenticator/protocol';
import * as client from 'openid-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { authOidcPayloads, users } from '@/db/schema/index.js';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import { newestFirst } from '@careplane/shared/authenticator/protocol';
import {
  enrolledIdentity,
  startAuthTestServer,
  type AuthTestServer,
  type EnrolledIdentity,
} from '@/test/auth-server.js';

let t: AuthTestServer;
let admin: EnrolledIdentity;
let config: client.Configuration;

beforeAll(async () => {
  t = await startAuthTestServer({ AUTH_RATE_LIMIT_PER_IDENTITY: '1000' });
  admin = await enrolledIdentity(t, {
    username: 'ada@careplane.test',
    firstName: 'Ada',
    lastName: 'Admin',
    email: 'ada@careplane.test',
    roles: ['admin'],
    assuranceLevel: 'high',
  });
  await t.database.handle.db.insert(users).values({
    username: 'ada@careplane.test',
    usernameWithoutDomain: 'ada',
    primaryDomain: 'careplane.test',
    masterId: admin.identityId,
    firstName: 'Ada',
    lastName: 'Admin',
    roles: ['admin'],
  });
  config = await client.discovery(new URL(t.issuer), CONSOLE_CLIENT_ID, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
});

afterAll(async () => {
  await t?.close();
});

// Every test starts with no request waiting for the admin (a previous test may leave one pending).
beforeEach(async () => {
  for (const request of await t.authenticator.pending(admin.key))
    await t.authenticator.deny(admin.key, request);
});

type Answer = { status: number; body: Record<string, unknown>; language?: string | null };
const form = (path: string, params: Record<string, string>, language?: string): Promise<Answer> =>
  fetch(`${t.issuer}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(language ? { 'accept-language': language } : {}),
    },
    body: new URLSearchParams({ client_id: CONSOLE_CLIENT_ID, ...params }),
  }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    language: response.headers.get('content-language'),
  }));
const backchannel = (loginHint: string, extra: Record<string, string> = {}, language?: string) =>
  form('/backchannel', { scope: 'openid', login_hint: loginHint, ...extra }, language);
const pollToken = (authReqId: string, language?: string) =>
  form('/token', { grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: authReqId }, language);
const json = (method: string, path: string, body?: unknown, token?: string): Promise<Answer> =>
  fetch(`${t.issuer}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
  }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Signs in through openid-client and the authenticator; returns the token answer. */
async function signIn(who: EnrolledIdentity) {
  const started = await client.initiateBackchannelAuthentication(config, {
    scope: 'openid',
    login_hint: who.username,
  });
  await approveNext(who);
  return client.pollBackchannelAuthenticationGrant(config, started);
}

/** Waits for the identity's next pending request and approves it with the enrolled key. */
async function approveNext(who: EnrolledIdentity, decision: 'approve' | 'deny' = 'approve') {
  const request = await t.authenticator.waitForPending(who.key, { timeoutMs: 5_000, intervalMs: 100 });
  expect(request).toBeDefined();
  return t.authenticator.decide(who.key, request!, decision);
}

describe('CIBA sign-in with openid-client', () => {
  it('discovers the issuer, the endpoints and the CIBA grant', () => {
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(t.issuer);
    expect(metadata.backchannel_authentication_endpoint).toBe(`${t.issuer}/backchannel`);
    expect(metadata.token_endpoint).toBe(`${t.issuer}/token`);
    expect(metadata.jwks_uri).toBe(`${t.issuer}/jwks`);
    expect(metadata.grant_types_supported).toContain('urn:openid:params:grant-type:ciba');
    expect(metadata.backchannel_token_delivery_modes_supported).toEqual(['poll']);
  });

  it('signs in, then refreshes; the access token opens the API and the id_token does not', async () => {
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'ada@careplane.test',
      binding_message: 'K7 42',
    });
    expect(started.auth_req_id).toMatch(/^[\w.~+/=-]{16,}$/);
    expect(started.interval).toBe(1);
    expect(started.expires_in).toBeGreaterThan(0);
    expect(started.expires_in).toBeLessThanOrEqual(600);

    const pending = await t.authenticator.waitForPending(admin.key, { timeoutMs: 5_000, intervalMs: 100 });
    expect(pending).toMatchObject({ kind: 'login', clientId: CONSOLE_CLIENT_ID, bindingMessage: 'K7 42' });
    await t.authenticator.approve(admin.key, pending!);

    const tokens = await client.pollBackchannelAuthenticationGrant(config, started);
    expect(tokens.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(tokens.refresh_token).toMatch(/^[\w.~+/=-]{16,}$/);
    expect(tokens.id_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(tokens.expires_in).toBeGreaterThan(1700);

    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({
      iss: t.issuer,
      sub: admin.identityId,
      aud: 'careplane-api',
      preferred_username: 'ada@careplane.test',
      given_name: 'Ada',
      family_name: 'Admin',
      email: 'ada@careplane.test',
      roles: ['admin'],
      acr: 'high',
    });
    expect(claims.jti).toMatch(/^[\w.~+/=-]{16,}$/);
    expect(claims.exp! - claims.iat!).toBe(1800);
    const idClaims = tokens.claims()!;
    expect(idClaims).toMatchObject({
      sub: admin.identityId,
      preferred_username: 'ada@careplane.test',
      given_name: 'Ada',
      family_name: 'Admin',
      roles: ['admin'],
    });

    const asUser = await fetch(`${t.baseUrl}/api/users`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(asUser.status).toBe(200);
    const withIdToken = await fetch(`${t.baseUrl}/api/users`, {
      headers: { authorization: `Bearer ${tokens.id_token}` },
    });
    expect(withIdToken.status).toBe(401);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(refreshed.refresh_token).toMatch(/^[\w.~+/=-]{16,}$/);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    // The sign-in's id_token is the only one (decision 053): a refresh renews the access token alone.
    expect(refreshed.id_token).toBeUndefined();
    expect(decodeJwt(refreshed.access_token).sub).toBe(admin.identityId);
    const again = await fetch(`${t.baseUrl}/api/users`, {
      headers: { authorization: `Bearer ${refreshed.access_token}` },
    });
    expect(again.status).toBe(200);
    // A client library that repeats its sign-in scope on refresh is served the same way.
    const repeated = await client.refreshTokenGrant(config, refreshed.refresh_token!, { scope: 'openid' });
    expect(repeated.id_token).toBeUndefined();
    expect(decodeJwt(repeated.access_token).sub).toBe(admin.identityId);
  });

  it('answers access_denied after the user denies', async () => {
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'ada@careplane.test',
    });
    await approveNext(admin, 'deny');
    await expect(client.pollBackchannelAuthenticationGrant(config, started)).rejects.toMatchObject({
      error: 'access_denied',
    });
  });

  it('lists pending requests newest first, with their binding messages and when they were asked', async () => {
    // A longer expiry on the older one: the order follows when a request was asked, not when it ends.
    await backchannel(admin.username, { binding_message: 'OL 11', requested_expiry: '300' });
    await sleep(5);
    await backchannel(admin.username, { binding_message: 'NW 22', requested_expiry: '60' });
    const listed = await t.authenticator.pending(admin.key);
    expect(listed.map((request) => request.bindingMessage)).toEqual(['NW 22', 'OL 11']);
    expect(Date.parse(listed[0]!.createdAt)).toBeGreaterThan(Date.parse(listed[1]!.createdAt));
    expect([...listed].reverse().sort(newestFirst)).toEqual(listed);
  });
});

describe('sign-in negatives (quality bar: login)', () => {
  it('answers slow_down to a poll faster than the interval', async () => {
    const { body } = await backchannel(admin.username);
    const id = body.auth_req_id as string;
    const first = await pollToken(id);
    expect(first.body.error).toBe('authorization_pending');
    const second = await pollToken(id);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('slow_down');
    await sleep(1100);
    expect((await pollToken(id)).body.error).toBe('authorization_pending');
  });

  it('answers expired_token once the request expired, and approval comes too late', async () => {
    const { body } = await backchannel(admin.username, { requested_expiry: '1' });
    expect(body.expires_in).toBe(1);
    const pending = await t.authenticator.waitForPending(admin.key, { timeoutMs: 2_000, intervalMs: 50 });
    await sleep(1600);
    const late = await t.authenticator.approve(admin.key, pending!).catch((error: unknown) => error);
    expect(late).toMatchObject({ status: 409 });
    const polled = await pollToken(body.auth_req_id as string);
    expect(polled.body.error).toBe('expired_token');
  });

  it('redeems an auth_req_id once', async () => {
    const { body } = await backchannel(admin.username);
    await approveNext(admin);
    const first = await pollToken(body.auth_req_id as string);
    expect(first.status).toBe(200);
    expect(first.body.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await sleep(1100);
    const second = await pollToken(body.auth_req_id as string);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    // The first redemption's refresh token went with the reuse.
    const refresh = await form('/token', {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token as string,
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('uses a refresh token once; presenting a spent one revokes its whole family', async () => {
    const tokens = await signIn(admin);
    const first = tokens.refresh_token!;
    const rotated = await client.refreshTokenGrant(config, first);
    const second = rotated.refresh_token!;
    const reuse = await form('/token', { grant_type: 'refresh_token', refresh_token: first });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    const afterReuse = await form('/token', { grant_type: 'refresh_token', refresh_token: second });
    expect(afterReuse.status).toBe(400);
    expect(afterReuse.body.error).toBe('invalid_grant');
  });

  it('answers a refresh with access_token, expires_in and refresh_token only, however the token was stored', async () => {
    const tokens = await signIn(admin);
    expect(tokens.id_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const refreshed = await form('/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
    });
    expect(refreshed.status).toBe(200);
    expect(Object.keys(refreshed.body).sort()).toEqual(
      ['access_token', 'expires_in', 'refresh_token', 'token_type'].sort(),
    );
    // The access token still carries the identity the API reads.
    expect(decodeJwt(refreshed.body.access_token as string)).toMatchObject({
      sub: admin.identityId,
      preferred_username: 'ada@careplane.test',
      roles: ['admin'],
    });
    // A refresh token stored with `openid` (as every one was before) is refreshed the same way.
    const stored = refreshed.body.refresh_token as string;
    await t.database.handle.db
      .update(authOidcPayloads)
      .set({ payload: sql`${authOidcPayloads.payload} || '{"scope":"openid"}'::jsonb` })
      .where(and(eq(authOidcPayloads.model, 'RefreshToken'), eq(authOidcPayloads.id, stored)));
    const legacy = await form('/token', { grant_type: 'refresh_token', refresh_token: stored });
    expect(legacy.status).toBe(200);
    expect(legacy.body.id_token).toBeUndefined();
    // A client may repeat on refresh the scope it was granted (RFC 6749 § 6): `openid` is accepted and
    // answered without an id_token (OpenID Connect Core § 12.2), alone or with a space-separated neighbour.
    const asked = await form('/token', {
      grant_type: 'refresh_token',
      refresh_token: legacy.body.refresh_token as string,
      scope: 'openid',
    });
    expect(asked.status).toBe(200);
    expect(Object.keys(asked.body).sort()).toEqual(
      ['access_token', 'expires_in', 'refresh_token', 'token_type'].sort(),
    );
    expect(decodeJwt(asked.body.access_token as string)).toMatchObject({ sub: admin.identityId });
    // A scope that was never granted is still refused, `openid` beside it or not.
    for (const scope of ['openid profile', 'profile']) {
      const refused = await form('/token', {
        grant_type: 'refresh_token',
        refresh_token: asked.body.refresh_token as string,
        scope,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_scope');
    }
    // The refusals did not use the token up: it still refreshes, once.
    const again = await form('/token', {
      grant_type: 'refresh_token',
      refresh_token: asked.body.refresh_token as string,
      scope: 'openid',
    });
    expect(again.status).toBe(200);
    expect(again.body.id_token).toBeUndefined();
  });

  it('answers an unknown identifier exactly like a known one, and never signs it in', async () => {
    const known = await backchannel(admin.username, { binding_message: 'AB12' });
    const unknown = await backchannel('nobody@careplane.test', { binding_message: 'AB12' });
    const malformed = await backchannel('not an identifier', { binding_message: 'AB12' });
    for (const answer of [unknown, malformed]) {
      expect(answer.status).toBe(known.status);
      expect(Object.keys(answer.body).sort()).toEqual(Object.keys(known.body).sort());
      expect(answer.body.expires_in).toBe(known.body.expires_in);
      expect(answer.body.interval).toBe(known.body.interval);
      expect((await pollToken(answer.body.auth_req_id as string)).body.error).toBe('authorization_pending');
    }
  });

  it('carries a Thai binding message to the phone, and refuses marks piled on a letter', async () => {
    const thai = 'ยืนยัน 42';
    const started = await backchannel(admin.username, { binding_message: thai });
    expect(started.status).toBe(200);
    const pending = await t.authenticator.waitForPending(admin.key, { timeoutMs: 5_000, intervalMs: 50 });
    expect(pending).toMatchObject({ kind: 'login', bindingMessage: thai });
    await t.authenticator.deny(admin.key, pending!);
    expect((await json('POST', '/qr/sessions', { binding_message: thai })).status).toBe(200);

    const piled = `a${'\u0301'.repeat(3)}`;
    const refused = await backchannel(admin.username, { binding_message: piled });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_binding_message');
    expect((await json('POST', '/qr/sessions', { binding_message: piled })).status).toBe(400);
    // Two marks on a letter are Thai's most (a vowel and a tone mark, as in "นี้"); a mark alone is not a letter.
    expect((await backchannel(admin.username, { binding_message: '\u0301' })).status).toBe(400);
  });

  it('refuses a forged approval signature, and a replayed one', async () => {
    const { body } = await backchannel(admin.username);
    const pending = await t.authenticator.waitForPending(admin.key, { timeoutMs: 2_000, intervalMs: 50 });
    const stranger = await generateAuthenticatorKey();
    const payload = t.authenticator.decisionPayload(admin.key, pending!, 'approve');
    const forged = await signCanonical(stranger.privateKey, payload);
    const refused = await json('POST', '/authenticator/decide', {
      keyId: admin.key.keyId,
      requestId: pending!.id,
      decision: 'approve',
      signature: forged,
    });
    expect(refused.status).toBe(401);
    // A genuine signature over another nonce (a replay from another request) is refused as well.
    const otherNonce: DecisionPayload = { ...payload, nonce: 'another-nonce' };
    const wrongNonce = await json('POST', '/authenticator/decide', {
      keyId: admin.key.keyId,
      requestId: pending!.id,
      decision: 'approve',
      signature: await signCanonical(admin.key.privateKey, otherNonce),
    });
    expect(wrongNonce.status).toBe(401);
    expect((await pollToken(body.auth_req_id as string)).body.error).toBe('authorization_pending');

    const genuine = await signCanonical(admin.key.privateKey, payload);
    const approved = await json('POST', '/authenticator/decide', {
      keyId: admin.key.keyId,
      requestId: pending!.id,
      decision: 'approve',
      signature: genuine,
    });
    expect(approved.status).toBe(200);
    const replayed = await json('POST', '/authenticator/decide', {
      keyId: admin.key.keyId,
      requestId: pending!.id,
      decision: 'deny',
      signature: genuine,
    });
    expect(replayed.status).toBe(401);
    const replayedSame = await json('POST', '/authenticator/decide', {
      keyId: admin.key.keyId,
      requestId: pending!.id,
      decision: 'approve',
      signature: genuine,
    });
    expect(replayedSame.status).toBe(409);
  });

  it("does not let one identity's key answer another identity's request", async () => {
    const other = await enrolledIdentity(t, { username: 'olga@careplane.test' });
    await backchannel(admin.username);
    const pending = await t.authenticator.waitForPending(admin.key, { timeoutMs: 2_000, intervalMs: 50 });
    const attempt = await t.authenticator.approve(other.key, pending!).catch((error: unknown) => error);
    expect(attempt).toMatchObject({ status: 404 });
    await t.authenticator.deny(admin.key, pending!);
  });
});

describe('an approval racing the revocation of its phone', () => {
  // Each case lets the revocation commit at one point of the approval, as an admin's click may.
  const revoke = (who: EnrolledIdentity) =>
    t.database.handle.db.transaction((tx) =>
      t.server.identities.revokeKey(tx, who.identityId, who.key.keyId),
    );
  const grantsOf = async (who: EnrolledIdentity) =>
    t.database.handle.db
      .select({ id: authOidcPayloads.id })
      .from(authOidcPayloads)
      .where(
        and(
          eq(authOidcPayloads.model, 'Grant'),
          sql`${authOidcPayloads.payload} ->> 'accountId' = ${who.identityId}`,
        ),
      );
  let people = 0;
  async function race(commitRevocation: (revokeNow: () => Promise<unknown>) => void) {
    people++;
    const who = await enrolledIdentity(t, { username: `racer${people}@careplane.test`, roles: ['public'] });
    const started = await backchannel(who.username);
    const request = await t.authenticator.waitForPending(who.key, { timeoutMs: 5_000, intervalMs: 50 });
    commitRevocation(() => revoke(who));
    const decided = await t.authenticator.decide(who.key, request!, 'approve').then(
      () => ({ status: 200, message: '' }),
      (error: { status: number; message: string }) => ({ status: error.status, message: error.message }),
    );
    vi.restoreAllMocks();
    return { who, decided, poll: await pollToken(String(started.body.auth_req_id)) };
  }

  it('refuses the approval when the phone was revoked after it was looked up', async () => {
    const { who, decided, poll } = await race((revokeNow) => {
      const lookup = t.server.identities.activeKey.bind(t.server.identities);
      vi.spyOn(t.server.identities, 'activeKey').mockImplementationOnce(async (keyId) => {
        const found = await lookup(keyId);
        await revokeNow();
        return found;
      });
    });
    expect(decided).toEqual({ status: 401, message: 'Unknown or revoked authenticator key' });
    expect(poll.body.error).not.toBeUndefined();
    expect(poll.body.access_token).toBeUndefined();
    expect(await grantsOf(who)).toEqual([]);
  });

  it('answers 409, not 500, when the revocation ended the sign-in before the approval reached it', async () => {
    const { who, decided, poll } = await race((revokeNow) => {
      const touch = t.server.identities.touchKey.bind(t.server.identities);
      vi.spyOn(t.server.identities, 'touchKey').mockImplementationOnce(async (keyId) => {
        await revokeNow();
        return touch(keyId);
      });
    });
    expect(decided).toEqual({
      status: 409,
      message: 'This sign-in ended before the approval arrived: start it again',
    });
    expect(poll.body.access_token).toBeUndefined();
    expect(await grantsOf(who)).toEqual([]);
  });

  it('ends the sign-in it approved when the revocation commits while the approval is saved', async () => {
    const { who, decided, poll } = await race((revokeNow) => {
      const provider = t.server.provider();
      const result = provider.backchannelResult.bind(provider);
      vi.spyOn(provider, 'backchannelResult').mockImplementationOnce(async (...args) => {
        await result(...args);
        await revokeNow();
      });
    });
    expect(decided).toEqual({ status: 401, message: 'Unknown or revoked authenticator key' });
    expect(poll.body.access_token).toBeUndefined();
    expect(await grantsOf(who)).toEqual([]);
  });
});

describe('sign-in refusals in the request’s language', () => {
  /** The refusal in Thai and in English: the same status and code; English is oidc-provider's own words. */
  async function both(ask: (language: string) => Promise<Answer>) {
    const thai = await ask('th-TH,th;q=0.9');
    const english = await ask('en');
    expect(thai.status).toBe(english.status);
    expect(thai.body.error).toBe(english.body.error);
    expect([thai.language, english.language]).toEqual(['th', 'en']);
    return { thai: thai.body, english: english.body };
  }

  it('describes a refused start in Thai', async () => {
    expect(await both((language) => form('/backchannel', { scope: 'openid' }, language))).toEqual({
      english: {
        error: 'invalid_request',
        error_description:
          'missing one of required parameters login_hint_token, id_token_hint, or login_hint',
      },
      thai: {
        error: 'invalid_request',
        error_description:
          'ต้องระบุผู้ใช้ที่จะเข้าสู่ระบบ: login_hint_token, id_token_hint หรือ login_hint อย่างใดอย่างหนึ่ง',
      },
    });
    const unknownClient = await both((language) =>
      form('/backchannel', { client_id: 'no-such-client', scope: 'openid', login_hint: 'a' }, language),
    );
    expect(unknownClient).toEqual({
      english: { error: 'invalid_client', error_description: 'client authentication failed' },
      thai: { error: 'invalid_client', error_description: 'ยืนยันตัวตนของไคลเอนต์ไม่สำเร็จ' },
    });
    const binding = await both((language) =>
      backchannel(admin.username, { binding_message: '<script>' }, language),
    );
    expect(binding.english.error_description).toBe(
      'binding_message must be 1-40 letters, digits, spaces or .,:!?#+/_-',
    );
    expect(binding.thai.error_description).toBe(
      'binding_message ต้องยาว 1-40 ตัว และมีได้เฉพาะตัวอักษร ตัวเลข ช่องว่าง หรือ .,:!?#+/_-',
    );
  });

  it('describes a refused poll in Thai: a missing or unknown auth_req_id, another grant type', async () => {
    const missing = await both((language) =>
      form('/token', { grant_type: 'urn:openid:params:grant-type:ciba' }, language),
    );
    expect(missing.english.error_description).toBe("missing required parameter 'auth_req_id'");
    expect(missing.thai.error_description).toBe("ต้องระบุพารามิเตอร์ 'auth_req_id'");
    const unknown = await both((language) => pollToken('x'.repeat(43), language));
    expect(unknown).toEqual({
      english: { error: 'invalid_grant', error_description: 'grant request is invalid' },
      thai: {
        error: 'invalid_grant',
        error_description: 'คำขอรับโทเค็นไม่ถูกต้อง: รหัสที่ส่งมาไม่ถูกต้อง หมดอายุ หรือถูกใช้ไปแล้ว',
      },
    });
    const password = await both((language) => form('/token', { grant_type: 'password' }, language));
    expect(password).toEqual({
      english: { error: 'unsupported_grant_type', error_description: 'unsupported grant_type requested' },
      thai: { error: 'unsupported_grant_type', error_description: 'ไม่รองรับ grant_type ที่ขอ' },
    });
  });

  it('describes a pending, too fast, expired or denied sign-in in Thai', async () => {
    const { body } = await backchannel(admin.username);
    const id = body.auth_req_id as string;
    const pending = await pollToken(id, 'th');
    expect(pending).toMatchObject({
      status: 400,
      language: 'th',
      body: {
        error: 'authorization_pending',
        error_description: 'คำขอเข้าสู่ระบบยังรอผู้ใช้ยืนยันบนโทรศัพท์',
      },
    });
    const tooFast = await pollToken(id, 'th');
    expect(tooFast.body).toEqual({
      error: 'slow_down',
      error_description: 'ถามสถานะถี่เกินไป โปรดเว้นระยะให้นานขึ้น',
    });
    await sleep(1100);
    expect((await pollToken(id, 'en')).body).toEqual({
      error: 'authorization_pending',
      error_description:
        "authorization request is still pending as the end-user hasn't yet completed the user interaction steps",
    });
    // Denied: oidc-provider answers the code alone, in either language (the console names it itself).
    await approveNext(admin, 'deny');
    await sleep(1100);
    expect(await pollToken(id, 'th')).toEqual({
      status: 400,
      language: 'th',
      body: { error: 'access_denied' },
    });

    const short = await backchannel(admin.username, { requested_expiry: '1' });
    await sleep(1600);
    const expired = short.body.auth_req_id as string;
    expect((await pollToken(expired, 'th')).body).toEqual({
      error: 'expired_token',
      error_description: 'คำขอเข้าสู่ระบบหมดอายุแล้ว โปรดเริ่มเข้าสู่ระบบใหม่',
    });
    // One poll per interval, or the answer is slow_down.
    await sleep(1100);
    expect((await pollToken(expired, 'en')).body).toEqual({
      error: 'expired_token',
      error_description: 'backchannel authentication request is expired',
    });
  });
});

describe('a path the sign-in server does not have', () => {
  it('answers the API’s 404 in the request’s language, not a plain-text Not Found', async () => {
    const ask = (path: string, language: string, method = 'GET') =>
      fetch(`${t.issuer}${path}`, { method, headers: { 'accept-language': language } });
    const english = await ask('/nowhere?x=1', 'en');
    expect(english.status).toBe(404);
    expect(english.headers.get('content-type')).toMatch(/^application\/json/);
    expect(english.headers.get('content-language')).toBe('en');
    expect(await english.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Route GET /auth/nowhere not found',
    });
    const thai = await ask('/nowhere', 'th-TH,th;q=0.9', 'DELETE');
    expect(thai.status).toBe(404);
    expect(thai.headers.get('content-language')).toBe('th');
    expect(await thai.json()).toMatchObject({
      statusCode: 404,
      message: 'ไม่พบ DELETE /auth/nowhere บนเซิร์ฟเวอร์นี้',
    });
    // The provider's own routes answer as before.
    expect((await ask('/jwks', 'th')).status).toBe(200);
  });
});

describe('enrollment', () => {
  it('binds one key per code: reusing a code is refused', async () => {
    const identity = await t.server.identities.create({
      username: 'eve@careplane.test',
      firstName: 'Eve',
      lastName: 'E',
    });
    const { code } = await t.server.identities.issueEnrollmentCode(identity.id);
    const first = await t.authenticator.enroll(code, await generateAuthenticatorKey());
    expect(first).toMatchObject({ username: 'eve@careplane.test', issuer: t.issuer });
    const again = await t.authenticator
      .enroll(code, await generateAuthenticatorKey())
      .catch((error: unknown) => error);
    expect(again).toMatchObject({ status: 400 });
    const unknown = await t.authenticator
      .enroll('0000-0000-0000-0000-0000', await generateAuthenticatorKey())
      .catch((error: unknown) => error);
    expect(unknown).toMatchObject({ status: 400 });
  });

  it('ends the earlier unused codes when it issues a fresh one: only the newest enrolls, the others as unknown', async () => {
    const identity = await t.server.identities.create({
      username: 'gus@careplane.test',
      firstName: 'Gus',
      lastName: 'G',
    });
    const issued = [];
    for (let round = 0; round < 10; round++)
      issued.push(await t.server.identities.issueEnrollmentCode(identity.id));
    const generated = await generateAuthenticatorKey();
    const refusal = (code: string) =>
      t.authenticator.enroll(code, generated).then(
        () => 'enrolled',
        (error: unknown) => error,
      );
    const unknown = await refusal('0000-0000-0000-0000-0000');
    expect(unknown).toMatchObject({ status: 400 });
    // Every earlier code answers exactly what an unknown one does (nothing tells an ended code apart).
    for (const { code } of issued.slice(0, -1)) {
      const answer = await refusal(code);
      expect(answer).toEqual(unknown);
      expect((answer as { body: unknown }).body).toEqual((unknown as { body: unknown }).body);
    }
    expect(await t.authenticator.enroll(issued.at(-1)!.code, generated)).toMatchObject({
      username: 'gus@careplane.test',
    });
    expect(await t.server.identities.keysOf(identity.id)).toHaveLength(1);

    // A code used before a fresh one is issued stays used; the fresh one enrolls another phone, and ends
    // nothing of another identity's.
    const other = await t.server.identities.create({
      username: 'hal@careplane.test',
      firstName: 'Hal',
      lastName: 'H',
    });
    const othersCode = await t.server.identities.issueEnrollmentCode(other.id);
    const fresh = await t.server.identities.issueEnrollmentCode(identity.id);
    expect(await t.authenticator.enroll(fresh.code, await generateAuthenticatorKey())).toMatchObject({
      username: 'gus@careplane.test',
    });
    expect(await t.authenticator.enroll(othersCode.code, await generateAuthenticatorKey())).toMatchObject({
      username: 'hal@careplane.test',
    });
  });

  it('keeps earlier codes when asked to issue alongside them (the browser tests, one code per try)', async () => {
    const identity = await t.server.identities.create({
      username: 'ida@careplane.test',
      firstName: 'Ida',
      lastName: 'I',
    });
    const first = await t.server.identities.issueEnrollmentCode(identity.id, undefined, {
      alongsideEarlier: true,
    });
    const second = await t.server.identities.issueEnrollmentCode(identity.id, undefined, {
      alongsideEarlier: true,
    });
    for (const { code } of [first, second]) {
      expect(await t.authenticator.enroll(code, await generateAuthenticatorKey())).toMatchObject({
        username: 'ida@careplane.test',
      });
    }
  });

  it('refuses an enrollment not signed by the key it enrolls (no proof of possession)', async () => {
    const identity = await t.server.identities.create({
      username: 'finn@careplane.test',
      firstName: 'Finn',
      lastName: 'F',
    });
    const { code } = await t.server.identities.issueEnrollmentCode(identity.id);
    const key = await generateAuthenticatorKey(true);
    const other = await generateAuthenticatorKey();
    const publicJwk = await exportPublicJwk(key.publicKey);
    const answer = await json('POST', '/authenticator/enroll', {
      code,
      publicJwk,
      signature: await signCanonical(other.privateKey, {
        typ: 'careplane-enroll',
        v: 1,
        aud: t.issuer,
        code,
        keyId: 'x',
      }),
    });
    expect(answer.status).toBe(400);
    // The code was not spent by the refused attempt.
    expect(await t.authenticator.enroll(code, key)).toMatchObject({ username: 'finn@careplane.test' });
  });
});

describe('QR sessions', () => {
  it('signs in by QR: the authenticator claims the code, the console gets the auth_req_id and the tokens', async () => {
    const created = await json('POST', '/qr/sessions', { binding_message: 'QR 77' });
    expect(created.status).toBe(200);
    const { sessionId, cbUrl, expIn } = created.body as { sessionId: string; cbUrl: string; expIn: number };
    expect(expIn).toBeGreaterThan(0);
    expect(expIn).toBeLessThanOrEqual(600);
    expect(cbUrl.startsWith(`${t.baseUrl}/authenticator/qr#s=`)).toBe(true);
    expect(cbUrl).not.toContain(sessionId);
    expect((await json('GET', `/qr/sessions/${sessionId}`)).body).toMatchObject({ status: 'pending' });

    // Whoever only knows the session id (the status poller) cannot claim it.
    const bySessionId = await t.authenticator.claimQr(admin.key, sessionId).catch((error: unknown) => error);
    expect(bySessionId).toMatchObject({ status: 404 });

    const claimed = await t.authenticator.claimQr(admin.key, cbUrl);
    expect(claimed).toMatchObject({ clientId: CONSOLE_CLIENT_ID, bindingMessage: 'QR 77' });
    const twice = await t.authenticator.claimQr(admin.key, cbUrl).catch((error: unknown) => error);
    expect(twice).toMatchObject({ status: 404 });

    const status = await json('GET', `/qr/sessions/${sessionId}`);
    expect(status.body.status).toBe('claimed');
    const authRequestId = status.body.authRequestId as string;
    expect(authRequestId).toMatch(/^[\w.~+/=-]{16,}$/);

    const pending = await t.authenticator.waitForPending(admin.key, { timeoutMs: 2_000, intervalMs: 50 });
    expect(pending!.id).toBe(claimed.requestId);
    await t.authenticator.approve(admin.key, pending!);
    const tokens = await client.pollBackchannelAuthenticationGrant(config, {
      auth_req_id: authRequestId,
      expires_in: 60,
      interval: 1,
    });
    expect(decodeJwt(tokens.access_token).sub).toBe(admin.identityId);
    expect(tokens.refresh_token).toMatch(/^[\w.~+/=-]{16,}$/);
  });

  it('refuses a claim with a signature by another key', async () => {
    const { body } = await json('POST', '/qr/sessions', {});
    const secret = new URL(body.cbUrl as string).hash.slice('#s='.length);
    const stranger = await generateAuthenticatorKey();
    const iat = Math.floor(Date.now() / 1000);
    const answer = await json('POST', '/authenticator/qr/claim', {
      keyId: admin.key.keyId,
      secret,
      iat,
      signature: await signCanonical(stranger.privateKey, {
        typ: 'careplane-qr-claim',
        v: 1,
        aud: t.issuer,
        keyId: admin.key.keyId,
        secret,
        iat,
      }),
    });
    expect(answer.status).toBe(401);
    expect((await json('GET', `/qr/sessions/${body.sessionId as string}`)).body.status).toBe('pending');
  });

  it('starts a session without a body, and refuses an unknown client', async () => {
    const bare = await fetch(`${t.issuer}/qr/sessions`, { method: 'POST' });
    expect(bare.status).toBe(200);
    expect(((await bare.json()) as { sessionId: string }).sessionId).toMatch(/^[\w.~+/=-]{16,}$/);
    expect((await json('POST', '/qr/sessions', { client_id: 'someone-else' })).status).toBe(400);
  });

  it('answers 404 for an unknown session', async () => {
    expect((await json('GET', '/qr/sessions/unknown-session')).status).toBe(404);
  });
});

describe('resource authorization', () => {
  it("asks the user's own authenticator and returns its signature once approved", async () => {
    const tokens = await signIn(admin);
    const digest = 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg';
    const created = await json(
      'POST',
      '/resource-authorization',
      { action: 'care-plan.approve', resource: 'care-plans/123', digest, description: 'Sign care plan' },
      tokens.access_token,
    );
    expect(created.status).toBe(200);
    expect(created.body.interval).toBe(1);
    expect(created.body.expires_in).toBeLessThanOrEqual(600);
    const id = created.body.id as string;
    expect(
      (await json('GET', `/resource-authorization/${id}`, undefined, tokens.access_token)).body.status,
    ).toBe('pending');
    const tooFast = await json('GET', `/resource-authorization/${id}`, undefined, tokens.access_token);
    expect(tooFast.status).toBe(429);

    const pending = await t.authenticator.waitForPending(admin.key, {
      timeoutMs: 2_000,
      intervalMs: 50,
      kind: 'resource',
    });
    expect(pending).toMatchObject({ id, kind: 'resource', details: { action: 'care-plan.approve', digest } });
    await t.authenticator.approve(admin.key, pending!);
    await sleep(1100);
    const done = await json('GET', `/resource-authorization/${id}`, undefined, tokens.access_token);
    expect(done.body).toMatchObject({ status: 'approved', keyId: admin.key.keyId });
    const signedPayload = JSON.parse(done.body.signedPayload as string) as DecisionPayload;
    expect(signedPayload).toMatchObject({
      requestId: id,
      digest,
      action: 'care-plan.approve',
      decision: 'approve',
    });
    expect(
      await verifyCanonical(done.body.publicJwk as PublicJwk, signedPayload, done.body.signature as string),
    ).toBe(true);
  });

  it('needs a valid access token; an id_token or none is refused', async () => {
    const tokens = await signIn(admin);
    const body = {
      action: 'care-plan.approve',
      resource: 'care-plans/1',
      digest: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg',
    };
    expect((await json('POST', '/resource-authorization', body)).status).toBe(401);
    expect((await json('POST', '/resource-authorization', body, tokens.id_token)).status).toBe(401);
    // Without a valid token nothing about the body or the address is told: 401 comes before the schema's 400.
    expect((await json('POST', '/resource-authorization', { ...body, extra: 1 })).status).toBe(401);
    expect((await json('POST', '/resource-authorization', 'not json', tokens.id_token)).status).toBe(401);
    expect((await json('GET', `/resource-authorization/${'x'.repeat(65)}`)).status).toBe(401);
    expect(
      (await json('POST', '/resource-authorization', { ...body, extra: 1 }, tokens.access_token)).status,
    ).toBe(400);
    // Document signatures are prepared by the documents API only (it builds what the phone signs).
    const documentSign = await json(
      'POST',
      '/resource-authorization',
      { ...body, action: 'document.sign' },
      tokens.access_token,
    );
    expect(documentSign.status).toBe(400);
    expect(documentSign.body.message).toMatch(/documents API/);
  });
});

describe('discovery', () => {
  it('names the issuer’s own addresses, whatever Host or forwarded headers a client sends', async () => {
    const answer = await t.app.inject({
      url: '/auth/.well-known/openid-configuration',
      headers: {
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        'x-forwarded-for': '203.0.113.9',
      },
    });
    expect(answer.statusCode).toBe(200);
    const discovery = answer.json<Record<string, unknown>>();
    expect(discovery.issuer).toBe(t.issuer);
    for (const name of ['token_endpoint', 'jwks_uri', 'backchannel_authentication_endpoint']) {
      expect(discovery[name], name).toMatch(new RegExp(`^${t.issuer}/`));
    }
  });
});

describe('signing keys', () => {
  it('rotates: the new key signs, the old one stays published and its tokens stay valid', async () => {
    const before = await signIn(admin);
    const oldKid = decodeProtectedHeader(before.access_token).kid;
    const newKid = await t.server.keys.rotate();
    expect(newKid).not.toBe(oldKid);
    const jwks = (await (await fetch(`${t.issuer}/jwks`)).json()) as { keys: { kid: string; d?: string }[] };
    expect(jwks.keys.map((key) => key.kid)).toEqual([newKid, oldKid]);
    expect(jwks.keys.every((key) => key.d === undefined)).toBe(true);
    const after = await signIn(admin);
    expect(decodeProtectedHeader(after.access_token).kid).toBe(newKid);
    // Both kinds of token the provider signs verify against what it publishes, under either key.
    const published = createLocalJWKSet(jwks);
    for (const token of [before, after]) {
      await jwtVerify(token.access_token, published, { issuer: t.issuer });
      await jwtVerify(token.id_token!, published, { issuer: t.issuer, audience: CONSOLE_CLIENT_ID });
    }
    for (const token of [before.access_token, after.access_token]) {
      const answer = await fetch(`${t.baseUrl}/api/users`, { headers: { authorization: `Bearer ${token}` } });
      expect(answer.status).toBe(200);
    }
  });
});
