// What the documents' integration tests share: people with a phone enrolled over the authenticator protocol,
// calls to the API as one of them (or as no one), uploads, and signing a document on the phone.
import { expect } from 'vitest';
import {
  AuthenticatorClient,
  generateAuthenticatorKey,
  type AuthenticatorKey,
  type PendingRequest,
} from '@careplane/shared/authenticator/protocol';
import { users } from '@/db/schema/index.js';
import { injectFetch } from '@/dev/demo-sign-in.js';
import { TEST_ISSUER, type TestContext } from '@/test/harness.js';

export interface Person {
  userId: string;
  identityId: string;
  token: string;
  key: AuthenticatorKey;
  authenticator: AuthenticatorClient;
}

const CRLF = '\r\n';
/** A multipart/form-data body, as a browser sends it. */
export function multipart(
  parts: { name: string; value: Uint8Array | string; filename?: string; type?: string }[],
) {
  const boundary = `----careplane${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    chunks.push(
      Buffer.from(
        `--${boundary}${CRLF}Content-Disposition: ${disposition}${CRLF}` +
          (part.filename ? `Content-Type: ${part.type ?? 'application/pdf'}${CRLF}` : '') +
          CRLF,
      ),
      Buffer.from(part.value),
      Buffer.from(CRLF),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The helpers for a test file's context (`ctx` answers it once its `beforeAll` made it). */
export function documentsTestKit(ctx: () => TestContext) {
  let people = 0;
  /** An identity with an enrolled authenticator key (enrolled over the protocol), its user and a token. */
  async function person(
    firstName: string,
    lastName: string,
    roles: ('admin' | 'public')[] = ['public'],
  ): Promise<Person> {
    people++;
    const handle = `${firstName.toLowerCase()}${people}`;
    const server = ctx().app.authServer!;
    const identity = await server.identities.create({
      username: `${handle}@careplane.test`,
      firstName,
      lastName,
      roles,
    });
    const authenticator = new AuthenticatorClient({ issuer: TEST_ISSUER, fetch: injectFetch(ctx().app) });
    const { code } = await server.identities.issueEnrollmentCode(identity.id);
    const keys = await generateAuthenticatorKey();
    const enrolled = await authenticator.enroll(code, keys);
    const [user] = await ctx()
      .database.db.insert(users)
      .values({
        username: identity.username,
        usernameWithoutDomain: handle,
        primaryDomain: 'careplane.test',
        masterId: identity.id,
        firstName,
        lastName,
        roles,
      })
      .returning({ id: users.id });
    return {
      userId: user!.id,
      identityId: identity.id,
      token: await ctx().signer.sign({ roles }, { subject: identity.id }),
      key: { keyId: enrolled.keyId, privateKey: keys.privateKey },
      authenticator,
    };
  }

  function call(token: string | null) {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    return {
      get: (url: string) => ctx().app.inject({ method: 'GET', url, headers }),
      delete: (url: string) => ctx().app.inject({ method: 'DELETE', url, headers }),
      post: (url: string, payload?: object) =>
        ctx().app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) }),
      upload: (url: string, parts: Parameters<typeof multipart>[0]) => {
        const body = multipart(parts);
        return ctx().app.inject({
          method: 'POST',
          url,
          headers: { ...headers, 'content-type': body.contentType },
          payload: body.payload,
        });
      },
    };
  }

  async function upload(who: Person, bytes: Uint8Array, title?: string) {
    const answer = await call(who.token).upload('/api/documents', [
      { name: 'file', value: bytes, filename: 'care-plan.pdf' },
      ...(title ? [{ name: 'title', value: title }] : []),
    ]);
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json<{ id: string; title: string; file: { sha256: string; size: number } }>();
  }

  /** The phone: waits for the document's request, shows it, and answers. */
  async function phoneAnswers(who: Person, decision: 'approve' | 'deny'): Promise<PendingRequest> {
    const request = await who.authenticator.waitForPending(who.key, {
      timeoutMs: 5_000,
      intervalMs: 50,
      kind: 'resource',
    });
    expect(request).toBeDefined();
    await who.authenticator.decide(who.key, request!, decision);
    return request!;
  }

  async function sign(who: Person, documentId: string, decision: 'approve' | 'deny' = 'approve') {
    const started = await call(who.token).post(`/api/documents/${documentId}/sign`);
    expect(started.statusCode, started.body).toBe(200);
    const { requestId, bindingMessage } = started.json<{ requestId: string; bindingMessage: string }>();
    const pending = await call(who.token).get(`/api/documents/${documentId}/signing/${requestId}`);
    expect(pending.json()).toMatchObject({ requestId, status: 'pending' });
    const request = await phoneAnswers(who, decision);
    expect(request.id).toBe(requestId);
    expect(request.bindingMessage).toBe(bindingMessage);
    const state = await call(who.token).get(`/api/documents/${documentId}/signing/${requestId}`);
    expect(state.statusCode, state.body).toBe(200);
    return { request, state: state.json<Record<string, unknown>>(), requestId };
  }

  return { person, call, upload, phoneAnswers, sign };
}
