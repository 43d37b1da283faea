// /api/documents end to end through app.inject(): uploads checked by content, access (404 for strangers),
// sharing, signing on the phone with the authenticator protocol driven in-process (poppler's pdfsig judges the
// result), the public verifier, and the CA kept encrypted at rest.
import { createHash } from 'node:crypto';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@/app.js';
import { loadConfig } from '@/config.js';
import {
  auditLog,
  authRequests,
  documentCertificateAuthority,
  documentFiles,
  documentSigningParties,
  documentSigningRequests,
  documents,
  users,
} from '@/db/schema/index.js';
import {
  createTestContext,
  TEST_AUDIENCE,
  TEST_CA_PASSPHRASE,
  TEST_ENCRYPTION_KEY,
  TEST_ISSUER,
  type TestContext,
} from '@/test/harness.js';
import { createLocalJWKSet } from 'jose';
import { createLargeSamplePdf, createSamplePdf } from '@careplane/pdf-signatures/samples';
import {
  addEmptySignatureField,
  ANN,
  pdfsig,
  replacePageContent,
  signPdf,
  testAuthority,
  testSigner,
} from '@careplane/pdf-signatures/testing';
import { documentsTestKit, multipart, type Person } from './documents.test-helpers.js';

const MAX_BYTES = 64 * 1024;
// Above the verifications the file makes before its limit test, all from one address within a minute.
const VERIFY_LIMIT = 20;

let context: TestContext;
const db = () => context.database.db;
const { person, call, upload, phoneAnswers, sign } = documentsTestKit(() => context);

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const rows = async (table: typeof documents | typeof documentFiles) =>
  (await db().select({ n: count() }).from(table))[0]!.n;

let owner: Person;
let party: Person;
let stranger: Person;
let admin: Person;
let pdf: Uint8Array;

beforeAll(async () => {
  context = await createTestContext({
    DOCUMENTS_MAX_BYTES: String(MAX_BYTES),
    DOCUMENTS_VERIFY_RATE_LIMIT: String(VERIFY_LIMIT),
  });
  owner = await person('Olivia', 'Owner');
  party = await person('Parker', 'Party');
  stranger = await person('Stan', 'Stranger');
  admin = await person('Ada', 'Admin', ['admin']);
  pdf = await createSamplePdf({ title: 'Care plan for Ann Example' });
});
afterAll(async () => {
  await context?.close();
});

describe('upload', () => {
  it('stores a PDF with its title, size and SHA-256, and audits it', async () => {
    const created = await upload(owner, pdf, 'Care plan');
    expect(created).toMatchObject({
      title: 'Care plan',
      file: { size: pdf.length, sha256: sha256(pdf) },
      signedFile: null,
      isSigned: false,
      parties: [],
      signingPartiesMetadata: [],
      owner: { id: owner.userId, name: 'Olivia Owner' },
      access: { role: 'owner', canSign: true, canShare: true, canDelete: true, hasSigned: false },
    });
    const [file] = await db()
      .select()
      .from(documentFiles)
      .where(eq(documentFiles.sha256, sha256(pdf)));
    expect(Buffer.from(file!.bytes)).toEqual(Buffer.from(pdf));
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.recordId, created.id));
    expect(audit).toMatchObject({ action: 'create', resource: 'documents', actorUserId: owner.userId });

    const downloaded = await call(owner.token).get(`/api/documents/${created.id}/download`);
    expect(downloaded.statusCode).toBe(200);
    expect(downloaded.headers['content-type']).toBe('application/pdf');
    expect(downloaded.headers['content-disposition']).toMatch(
      /^attachment; filename="document \d{13}\.pdf"$/,
    );
    expect(downloaded.rawPayload).toEqual(Buffer.from(pdf));
    expect((await call(owner.token).get(`/api/documents/${created.id}/download/signed`)).statusCode).toBe(
      404,
    );
  });

  it('shares the stored bytes between identical uploads and names a file by its own name', async () => {
    const files = await rows(documentFiles);
    const again = await call(party.token).upload('/api/documents', [
      { name: 'file', value: pdf, filename: 'Visit report.PDF' },
    ]);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().title).toBe('Visit report');
    expect(await rows(documentFiles)).toBe(files);
  });

  it('streams a file larger than one slice back byte for byte', async () => {
    const large = await createLargeSamplePdf(60_000, { imageBytes: 20_000 });
    expect(large.length).toBeLessThan(MAX_BYTES);
    const created = await upload(owner, large, 'Scans');
    const downloaded = await call(owner.token).get(`/api/documents/${created.id}/download`);
    expect(downloaded.headers['content-length']).toBe(String(large.length));
    expect(sha256(downloaded.rawPayload)).toBe(sha256(large));
  });

  it('refuses what is not a PDF by its content (415), what is too big (413), and stores nothing', async () => {
    const before = { documents: await rows(documents), files: await rows(documentFiles) };
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('IHDR not a pdf at all'),
    ]);
    const cases: [Parameters<typeof multipart>[0], number][] = [
      [[{ name: 'file', value: 'just some text', filename: 'notes.txt', type: 'text/plain' }], 415],
      [[{ name: 'file', value: png, filename: 'x.pdf' }], 415],
      [[{ name: 'file', value: '%PDF-1.7\nnothing else', filename: 'broken.pdf' }], 415],
      [[{ name: 'file', value: Buffer.concat([Buffer.alloc(2000, 32), pdf]), filename: 'late.pdf' }], 415],
      [
        [
          {
            name: 'file',
            value: await createLargeSamplePdf(120_000, { imageBytes: 40_000 }),
            filename: 'big.pdf',
          },
        ],
        413,
      ],
      [[{ name: 'title', value: 'No file' }], 400],
      [[{ name: 'document', value: pdf, filename: 'a.pdf' }], 400],
      // The multipart reader stops at the second file: a malformed upload, not a large one.
      [
        [
          { name: 'file', value: pdf, filename: 'a.pdf' },
          { name: 'file', value: pdf, filename: 'b.pdf' },
        ],
        400,
      ],
      [
        [
          { name: 'file', value: pdf, filename: 'a.pdf' },
          { name: 'owner', value: stranger.userId },
        ],
        400,
      ],
      [
        [
          { name: 'file', value: pdf, filename: 'a.pdf' },
          { name: 'title', value: 'x'.repeat(201) },
        ],
        400,
      ],
      [[{ name: 'file', value: new Uint8Array(0), filename: 'empty.pdf' }], 400],
    ];
    for (const [parts, status] of cases) {
      const answer = await call(owner.token).upload('/api/documents', parts);
      expect(
        answer.statusCode,
        `${parts.map((part) => part.filename ?? part.name).join(',')}: ${answer.body}`,
      ).toBe(status);
      expect(answer.json()).toMatchObject({ statusCode: status, message: expect.any(String) });
    }
    // A title too long is told so however long it is: one past the reader's field size (4,096 bytes, where it
    // cuts the value) gets the same words and path as one just past the title's limit.
    for (const length of [201, 5_000]) {
      const answer = await call(owner.token).upload('/api/documents', [
        { name: 'file', value: pdf, filename: 'a.pdf' },
        { name: 'title', value: 'x'.repeat(length) },
      ]);
      expect(answer.json(), `a title of ${length}: ${answer.body}`).toMatchObject({
        statusCode: 400,
        issues: [{ path: 'body.title', message: 'Title must be at most 200 characters.' }],
      });
    }
    const controlled = await call(owner.token).upload('/api/documents', [
      { name: 'file', value: pdf, filename: 'a.pdf' },
      { name: 'title', value: 'a\u0001b' },
    ]);
    expect(controlled.json()).toMatchObject({
      statusCode: 400,
      issues: [{ path: 'body.title', message: 'Must not contain control or text-direction characters' }],
    });
    const json = await call(owner.token).post('/api/documents', { title: 'x' });
    expect(json.statusCode).toBe(415);
    // A form the multipart reader cannot read is the sender's fault (400), never a 500: no boundary in its
    // type, or a body cut before its end.
    const whole = multipart([{ name: 'file', value: pdf, filename: 'a.pdf' }]);
    for (const [label, contentType, payload] of [
      ['no boundary', 'multipart/form-data', whole.payload],
      ['cut short', whole.contentType, whole.payload.subarray(0, whole.payload.length - 40)],
      // Cut inside the file itself: the reader ends the part early.
      ['cut in the file', whole.contentType, whole.payload.subarray(0, 200)],
      [
        'a part and no end',
        'multipart/form-data; boundary=xx',
        Buffer.from(
          '--xx\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7 cut',
        ),
      ],
    ] as const) {
      // (The verifier's form is read the same way: document-uploads.int.test.ts, over real HTTP.)
      for (const url of ['/api/documents']) {
        const malformed = await context.app.inject({
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${owner.token}`, 'content-type': contentType },
          payload,
        });
        expect(malformed.statusCode, `${url}, ${label}: ${malformed.body}`).toBe(400);
        expect(malformed.json().message).toBe(
          'The form could not be read: send it as multipart/form-data with its boundary, whole',
        );
      }
    }
    const raw = await context.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/pdf' },
      payload: Buffer.from(pdf),
    });
    expect(raw.statusCode).toBe(415);
    expect(
      (await call(null).upload('/api/documents', [{ name: 'file', value: pdf, filename: 'a.pdf' }]))
        .statusCode,
    ).toBe(401);
    expect({ documents: await rows(documents), files: await rows(documentFiles) }).toEqual(before);
  });
});

describe('access', () => {
  let id: string;
  beforeAll(async () => {
    id = (await upload(owner, await createSamplePdf({ title: 'Private' }), 'Private')).id;
  });

  it('answers 404 to a stranger on every route, as if the document did not exist', async () => {
    const as = call(stranger.token);
    const answers = [
      await as.get(`/api/documents/${id}`),
      await as.get(`/api/documents/${id}/download`),
      await as.get(`/api/documents/${id}/download/signed`),
      await as.post(`/api/documents/${id}/share`, { userIds: [stranger.userId] }),
      await as.post(`/api/documents/${id}/sign`),
      await as.get(`/api/documents/${id}/signing/0190a0b0-0000-7000-8000-00000000beef`),
      await as.delete(`/api/documents/${id}`),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect(answers[0]!.json()).toMatchObject({ statusCode: 404, message: 'Document not found' });
    expect(
      (await as.get('/api/documents')).json().items.map((item: { id: string }) => item.id),
    ).not.toContain(id);
    expect((await call(owner.token).get(`/api/documents/${id}`)).statusCode).toBe(200);
    expect(await db().select().from(documents).where(eq(documents.id, id))).toHaveLength(1);
  });

  it('lets an admin see and delete, and refuses without a token', async () => {
    const read = await call(admin.token).get(`/api/documents/${id}`);
    expect(read.json()).toMatchObject({ access: { role: 'admin', canSign: false, canDelete: true } });
    expect((await call(null).get(`/api/documents/${id}`)).statusCode).toBe(401);
    expect((await call(admin.token).post(`/api/documents/${id}/sign`)).statusCode).toBe(403);
    expect((await call(admin.token).delete(`/api/documents/${id}`)).statusCode).toBe(204);
    expect((await call(owner.token).get(`/api/documents/${id}`)).statusCode).toBe(404);
  });
});

describe('sharing and lists', () => {
  let id: string;
  beforeAll(async () => {
    id = (await upload(owner, await createSamplePdf({ title: 'Shared plan' }), 'Shared plan')).id;
  });

  it('makes the chosen users parties: they see it as shared and waiting, and may not share or delete', async () => {
    const shared = await call(owner.token).post(`/api/documents/${id}/share`, { userIds: [party.userId] });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json().parties).toEqual([
      { userId: party.userId, name: 'Parker Party', state: 'pending', signedAt: null },
    ]);
    const ids = async (who: Person, query: string) =>
      (await call(who.token).get(`/api/documents?${query}`))
        .json()
        .items.map((item: { id: string }) => item.id);
    expect(await ids(party, 'filters=scope~shared')).toContain(id);
    expect(await ids(party, 'filters=scope~waiting')).toContain(id);
    expect(await ids(party, 'filters=scope~own')).not.toContain(id);
    expect(await ids(owner, 'filters=scope~own')).toContain(id);
    expect(await ids(owner, 'filters=scope~shared')).not.toContain(id);
    expect(await ids(party, 'filters=scope~own,waiting&filtersLike=title~SHARED')).toEqual([id]);
    expect(await ids(stranger, 'filters=scope~own,shared,waiting')).toEqual([]);

    // A record with no file is shared, but waits for nobody: there is nothing to sign.
    const [fileless] = await db()
      .insert(documents)
      .values({ title: 'Handbook acknowledgement', createdByUserId: owner.userId })
      .returning({ id: documents.id });
    await db().insert(documentSigningParties).values({ documentId: fileless!.id, userId: party.userId });
    expect(await ids(party, 'filters=scope~shared')).toContain(fileless!.id);
    expect(await ids(party, 'filters=scope~waiting')).not.toContain(fileless!.id);
    await db().delete(documents).where(eq(documents.id, fileless!.id));

    const page = (
      await call(owner.token).get('/api/documents?filters=scope~own&limit=1&sort=title:asc')
    ).json();
    expect(page).toMatchObject({ limit: 1, offset: 0 });
    expect(page.total).toBeGreaterThan(1);
    expect(page.items).toHaveLength(1);

    const asParty = call(party.token);
    expect((await asParty.get(`/api/documents/${id}`)).json().access).toMatchObject({
      role: 'party',
      canSign: true,
      canShare: false,
    });
    expect((await asParty.post(`/api/documents/${id}/share`, { userIds: [] })).statusCode).toBe(403);
    expect((await asParty.delete(`/api/documents/${id}`)).statusCode).toBe(403);
    expect((await asParty.get(`/api/documents/${id}/download`)).statusCode).toBe(200);
  });

  it('refuses unknown users, bad bodies and unknown list parameters with 400', async () => {
    const as = call(owner.token);
    expect(
      (
        await as.post(`/api/documents/${id}/share`, { userIds: ['0190a0b0-0000-7000-8000-00000000dead'] })
      ).json(),
    ).toMatchObject({ statusCode: 400, issues: [{ path: 'body.userIds' }] });
    expect((await as.post(`/api/documents/${id}/share`, { userIds: ['x'] })).statusCode).toBe(400);

    // A blocked user could never sign in to sign: none is newly asked. One asked before the block stays asked,
    // and the owner can still change the rest of the list.
    const late = await person('Lena', 'Late');
    expect((await as.post(`/api/documents/${id}/share`, { userIds: [late.userId] })).statusCode).toBe(200);
    const blocked = await person('Boris', 'Blocked');
    await db()
      .update(users)
      .set({ isBlocked: true })
      .where(inArray(users.id, [blocked.userId, late.userId]));
    const refused = await as.post(`/api/documents/${id}/share`, {
      userIds: [late.userId, blocked.userId],
    });
    expect(refused.json()).toMatchObject({
      statusCode: 400,
      message: 'A blocked user cannot be asked to sign',
      issues: [{ path: 'body.userIds', message: `User ${blocked.userId} is blocked` }],
    });
    expect(
      (await as.get(`/api/documents/${id}`)).json().parties.map((p: { userId: string }) => p.userId),
    ).toEqual([late.userId]);
    const changed = await as.post(`/api/documents/${id}/share`, { userIds: [late.userId, party.userId] });
    expect(changed.statusCode, changed.body).toBe(200);
    await db()
      .update(users)
      .set({ isBlocked: false })
      .where(inArray(users.id, [blocked.userId, late.userId]));
    expect((await as.post(`/api/documents/${id}/share`, { userIds: [party.userId] })).statusCode).toBe(200);
    expect((await as.post(`/api/documents/${id}/share`, { userIds: [], extra: 1 })).statusCode).toBe(400);
    for (const query of [
      'filters=scope~everything',
      'filters=size~1',
      'sort=size:asc',
      'relations=signingParties',
      'filtersLike=owner~x',
    ]) {
      expect((await as.get(`/api/documents?${query}`)).statusCode, query).toBe(400);
    }
    expect((await as.get('/api/documents/not-a-uuid')).statusCode).toBe(400);
  });

  it('suggests users to share with by name: id and name only, never the caller, at most 20', async () => {
    const answer = await call(owner.token).get('/api/documents/parties?search=park');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ items: [{ id: party.userId, name: 'Parker Party' }] });
    const all = (await call(owner.token).get('/api/documents/parties')).json().items;
    expect(all.map((item: { id: string }) => item.id)).not.toContain(owner.userId);
    expect(all.length).toBeLessThanOrEqual(20);
    expect(Object.keys(all[0]).sort()).toEqual(['id', 'name']);
    expect((await call(null).get('/api/documents/parties')).statusCode).toBe(401);

    // A name in the local script finds its person, as the users list's search does; "first last" too.
    await db()
      .update(users)
      .set({ additionalInfo: { localizedFirstName: 'ปาร์คเกอร์', localizedLastName: 'ปาร์ตี้' } })
      .where(eq(users.id, party.userId));
    for (const search of ['ปาร์คเกอร์', 'parker party']) {
      const found = await call(owner.token).get(
        `/api/documents/parties?search=${encodeURIComponent(search)}`,
      );
      expect(found.json().items, search).toEqual([{ id: party.userId, name: 'Parker Party' }]);
    }
  });
});

describe('signing on the phone', () => {
  let id: string;
  let original: Uint8Array;

  beforeAll(async () => {
    original = await createSamplePdf({ title: 'Consent form' });
    id = (await upload(owner, original, 'Consent form')).id;
    await call(owner.token).post(`/api/documents/${id}/share`, { userIds: [party.userId] });
  });

  it('shows the phone the title, the file hash and the signed attributes, asks only the enrolled key', async () => {
    const started = await call(owner.token).post(`/api/documents/${id}/sign`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ requestId: expect.any(String), expiresIn: 300, interval: 3 });
    expect(started.json().bindingMessage).toMatch(/^[A-Z]{2} \d{2}$/);
    const [request] = await owner.authenticator.pending(owner.key);
    expect(request).toMatchObject({
      id: started.json().requestId,
      kind: 'resource',
      clientName: 'Careplane console',
      details: {
        action: 'document.sign',
        resource: `documents/${id}`,
        title: 'Consent form',
        documentSha256: sha256(original),
        keyId: owner.key.keyId,
        description: 'Sign the document "Consent form"',
      },
    });
    // Nobody else's authenticator sees it.
    expect(await party.authenticator.pending(party.key)).toEqual([]);
    // An approval without the document signature is refused, and the request stays pending.
    const payload = owner.authenticator.decisionPayload(owner.key, request!, 'approve');
    const { signCanonical } = await import('@careplane/shared/authenticator/protocol');
    const bare = await context.app.inject({
      method: 'POST',
      url: '/auth/authenticator/decide',
      payload: {
        keyId: owner.key.keyId,
        requestId: request!.id,
        decision: 'approve',
        signature: await signCanonical(owner.key.privateKey, payload),
      },
    });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toMatch(/documentSignature/);
    await owner.authenticator.deny(owner.key, request!);
    const denied = await call(owner.token).get(`/api/documents/${id}/signing/${started.json().requestId}`);
    expect(denied.json()).toEqual({ requestId: started.json().requestId, status: 'denied' });
  });

  it('signs for the owner, then for a party: pdfsig finds both valid and the last covering the file', async () => {
    const first = await sign(owner, id);
    expect(first.state).toMatchObject({ status: 'signed', document: { isSigned: false } });
    const afterFirst = (await call(owner.token).get(`/api/documents/${id}`)).json();
    expect(afterFirst.signingPartiesMetadata).toEqual([
      expect.objectContaining({
        userId: owner.userId,
        name: 'Olivia Owner',
        role: 'owner',
        method: 'authenticator',
        keyId: owner.key.keyId,
        certificateSerial: expect.stringMatching(/^[0-9a-f]{32}$/),
        revisionSha256: afterFirst.signedFile.sha256,
      }),
    ]);
    expect(afterFirst.parties[0]).toMatchObject({ userId: party.userId, state: 'pending' });
    expect(afterFirst.access).toMatchObject({ canSign: false, hasSigned: true });
    const once = await call(owner.token).get(`/api/documents/${id}/download/signed`);
    expect(once.headers['content-disposition']).toMatch(/^attachment; filename="document \d{13}\.pdf"$/);
    const checkedOnce = await pdfsig(once.rawPayload);
    expect(checkedOnce.signatures).toEqual([
      expect.objectContaining({
        commonName: 'Olivia Owner',
        validation: 'Signature is Valid.',
        totalDocumentSigned: true,
        subFilter: 'ETSI.CAdES.detached',
      }),
    ]);
    // Signing twice is refused; the original download is still the upload.
    expect((await call(owner.token).post(`/api/documents/${id}/sign`)).statusCode).toBe(409);
    expect((await call(owner.token).get(`/api/documents/${id}/download`)).rawPayload).toEqual(
      Buffer.from(original),
    );

    const second = await sign(party, id);
    expect(second.state).toMatchObject({ status: 'signed', document: { isSigned: true } });
    const twice = await call(party.token).get(`/api/documents/${id}/download/signed`);
    const checked = await pdfsig(twice.rawPayload);
    expect(
      checked.signatures.map((signature) => [
        signature.commonName,
        signature.validation,
        signature.totalDocumentSigned,
      ]),
    ).toEqual([
      ['Olivia Owner', 'Signature is Valid.', false],
      ['Parker Party', 'Signature is Valid.', true],
    ]);
    const document = (await call(owner.token).get(`/api/documents/${id}`)).json();
    expect(document.parties).toEqual([
      { userId: party.userId, name: 'Parker Party', state: 'signed', signedAt: expect.any(String) },
    ]);
    expect(document.signingPartiesMetadata.map((entry: { role: string }) => entry.role)).toEqual([
      'owner',
      'party',
    ]);
    const waiting = (await call(party.token).get('/api/documents?filters=scope~waiting')).json().items;
    expect(waiting.map((item: { id: string }) => item.id)).not.toContain(id);
    const audits = await db()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.recordId, id));
    expect(audits.map((row) => row.action)).toEqual(
      expect.arrayContaining(['create', 'share', 'sign-request', 'sign-denied', 'sign']),
    );
  });

  it('leaves the document unchanged when the phone denies', async () => {
    const target = (await upload(owner, await createSamplePdf({ title: 'Denied' }), 'Denied')).id;
    const before = (await db().select().from(documents).where(eq(documents.id, target)))[0]!;
    const { state } = await sign(owner, target, 'deny');
    expect(state).toMatchObject({ status: 'denied' });
    const after = (await db().select().from(documents).where(eq(documents.id, target)))[0]!;
    expect(after).toEqual(before);
    expect((await call(owner.token).get(`/api/documents/${target}/download/signed`)).statusCode).toBe(404);
    expect((await call(owner.token).get(`/api/documents/${target}`)).json().access.canSign).toBe(true);
  });

  it('refuses to complete a signature prepared on a revision that someone else signed meanwhile', async () => {
    const target = (await upload(owner, await createSamplePdf({ title: 'Race' }), 'Race')).id;
    await call(owner.token).post(`/api/documents/${target}/share`, { userIds: [party.userId] });
    const ownerStarted = (await call(owner.token).post(`/api/documents/${target}/sign`)).json();
    const partyStarted = (await call(party.token).post(`/api/documents/${target}/sign`)).json();
    await phoneAnswers(owner, 'approve');
    await phoneAnswers(party, 'approve');
    expect(
      (await call(owner.token).get(`/api/documents/${target}/signing/${ownerStarted.requestId}`)).json()
        .status,
    ).toBe('signed');
    const late = (
      await call(party.token).get(`/api/documents/${target}/signing/${partyStarted.requestId}`)
    ).json();
    expect(late).toMatchObject({
      status: 'failed',
      message: 'Someone else signed this document meanwhile: ask your phone again',
    });
    // Stored once in English (the audit keeps it); a Thai reader is told why in Thai.
    const inThai = await context.app.inject({
      method: 'GET',
      url: `/api/documents/${target}/signing/${partyStarted.requestId}`,
      headers: { authorization: `Bearer ${party.token}`, 'accept-language': 'th' },
    });
    expect(inThai.json()).toMatchObject({
      status: 'failed',
      message: 'มีผู้อื่นลงนามเอกสารนี้ไปก่อนแล้ว โปรดขอลงนามบนโทรศัพท์อีกครั้ง',
    });
    const [failed] = await db()
      .select({ changes: auditLog.changes })
      .from(auditLog)
      .where(and(eq(auditLog.recordId, target), eq(auditLog.action, 'sign-failed')));
    expect(failed?.changes).toMatchObject({
      failure: 'Someone else signed this document meanwhile: ask your phone again',
    });
    // Asking again signs the newest revision.
    expect((await sign(party, target)).state).toMatchObject({
      status: 'signed',
      document: { isSigned: true },
    });
  });

  it("answers 400 with the signing core's reason for a file it cannot sign, and asks no phone", async () => {
    const plain = Buffer.from(await createSamplePdf({ title: 'Locked', useObjectStreams: false }));
    const encrypted = plain
      .toString('latin1')
      .replace(/trailer\s*<</, (start) => `${start}\n/Encrypt 99 0 R`);
    const target = (await upload(owner, Buffer.from(encrypted, 'latin1'), 'Locked')).id;
    const refused = await call(owner.token).post(`/api/documents/${target}/sign`);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toBe('Encrypted PDFs cannot be signed');
    expect(await owner.authenticator.pending(owner.key)).toEqual([]);
  });
});

describe('verification, for anyone', () => {
  let signed: Uint8Array;
  beforeAll(async () => {
    const id = (await upload(owner, await createSamplePdf({ title: 'To verify' }), 'To verify')).id;
    await sign(owner, id);
    signed = (await call(owner.token).get(`/api/documents/${id}/download/signed`)).rawPayload;
  });
  const verify = (bytes: Uint8Array) =>
    call(null).upload('/api/documents/verify', [{ name: 'file', value: bytes, filename: 'x.pdf' }]);
  const verifyIn = (bytes: Uint8Array, language: string) => {
    const body = multipart([{ name: 'file', value: bytes, filename: 'x.pdf' }]);
    return context.app.inject({
      method: 'POST',
      url: '/api/documents/verify',
      headers: { 'content-type': body.contentType, 'accept-language': language },
      payload: body.payload,
    });
  };

  it('reports our signed file as intact, chained to the platform CA and known to the platform', async () => {
    const answer = await verify(signed);
    expect(answer.statusCode, answer.body).toBe(200);
    const report = answer.json();
    expect(report).toMatchObject({
      fileSha256: sha256(signed),
      fileKnownToPlatform: true,
      verdict: {
        status: 'authentic',
        summary: expect.stringMatching(/^Authentic and untampered: signed by Olivia Owner/),
        changedAfter: null,
      },
      allowedChanges: { level: 2, certifiedBy: null },
    });
    expect(report.signatures).toEqual([
      expect.objectContaining({
        signer: expect.objectContaining({
          commonName: 'Olivia Owner',
          username: expect.stringMatching(/@careplane\.test$/),
        }),
        intact: true,
        coversWholeFile: true,
        covers: { revision: 1, revisions: 1, bytes: signed.length },
        certification: null,
        changesAfter: [],
        changedAfterSigning: false,
        chainsToPlatformCa: true,
        signerWithdrawn: false,
        knownToPlatform: true,
        problems: [],
      }),
    ]);
  });

  /** A document the owner signs, then shares with the party, who signs it too; the signed file. */
  async function signedByBoth(bytes: Uint8Array, title: string): Promise<Uint8Array> {
    const { id } = await upload(owner, bytes, title);
    await sign(owner, id);
    expect(
      (await call(owner.token).post(`/api/documents/${id}/share`, { userIds: [party.userId] })).statusCode,
    ).toBe(200);
    await sign(party, id);
    return (await call(owner.token).get(`/api/documents/${id}/download/signed`)).rawPayload;
  }

  it('reports a file two parties signed as authentic, each signature saying what it covers', async () => {
    const both = await signedByBoth(await createSamplePdf({ title: 'Two signers' }), 'Two signers');
    const report = (await verify(both)).json();
    expect(report.verdict).toMatchObject({
      status: 'authentic',
      summary: expect.stringMatching(
        /^Authentic and untampered: signed by Olivia Owner .*, then by Parker Party /,
      ),
      changedAfter: null,
    });
    expect(
      report.signatures.map((signature: { covers: unknown; changesAfter: unknown; problems: unknown }) => [
        signature.covers,
        signature.changesAfter,
        signature.problems,
      ]),
    ).toEqual([
      [
        { revision: 1, revisions: 2, bytes: expect.any(Number) },
        [{ revision: 2, kind: 'signature', description: 'added signature 2 (Parker Party)', allowed: true }],
        [],
      ],
      [{ revision: 2, revisions: 2, bytes: both.length }, [], []],
    ]);
  });

  /**
   * A file the owner signed, then changed by `change` (outside the platform), uploaded again and signed by the
   * party through the platform: what the party's signature seems to vouch for.
   */
  async function changedThenSignedAgain(title: string, change: (ownerRevision: Uint8Array) => Uint8Array) {
    const first = await signedByBoth(await createSamplePdf({ title }), title);
    const ownerRevision = first.subarray(0, (await verify(first)).json().signatures[0].covers.bytes);
    const { id } = await upload(owner, change(ownerRevision), `${title}, signed again`);
    expect(
      (await call(owner.token).post(`/api/documents/${id}/share`, { userIds: [party.userId] })).statusCode,
    ).toBe(200);
    await sign(party, id);
    return (await call(owner.token).get(`/api/documents/${id}/download/signed`)).rawPayload;
  }

  it('reports content changed after the first signature as changed, though the second signer signed it', async () => {
    // Someone changes the page after the owner signed and has the party sign it through the platform.
    const countersigned = await changedThenSignedAgain('Changed later', (ownerRevision) =>
      replacePageContent(ownerRevision, 'Pay 1000 EUR to the bearer'),
    );
    const report = (await verify(countersigned)).json();
    expect(report.verdict).toEqual({
      status: 'modified-after-signing',
      summary: expect.stringMatching(
        /^Changed after Olivia Owner \(olivia\d+@careplane\.test\) signed: revision 2 of 3 changed the content of page 1\. /,
      ),
      changedAfter: { signature: 1, revision: 2, description: 'changed the content of page 1' },
    });
    expect(report.signatures.map((signature: { intact: boolean }) => signature.intact)).toEqual([true, true]);
    expect(report.signatures[0].changedAfterSigning).toBe(true);
    const thai = (await verifyIn(countersigned, 'th')).json();
    expect(thai.verdict).toEqual({
      status: 'modified-after-signing',
      summary: expect.stringMatching(
        /^มีการแก้ไขหลังจาก Olivia Owner \(olivia\d+@careplane\.test\) ลงนาม: ฉบับแก้ไขที่ 2 จาก 3 แก้ไขเนื้อหาของหน้า 1 ลายมือชื่อที่ลงภายหลัง/,
      ),
      changedAfter: { signature: 1, revision: 2, description: 'แก้ไขเนื้อหาของหน้า 1' },
    });
  });

  it('reports a signed page covered by an empty signature field as changed, though signed again on the platform', async () => {
    // The "sneaky signature": an unsigned field whose appearance paints over the page, then a real signature
    // made through the platform, which used to close it off as "authentic".
    const countersigned = await changedThenSignedAgain('Covered later', (ownerRevision) =>
      addEmptySignatureField(ownerRevision, 'VOID - Morphine 500 tablets'),
    );
    const description =
      'added an empty signature field "Signature9" with a visible appearance on page 1, which can draw over ' +
      'what was signed';
    const report = (await verify(countersigned)).json();
    expect(report.verdict).toMatchObject({
      status: 'modified-after-signing',
      changedAfter: { signature: 1, revision: 2, description },
    });
    expect((await verifyIn(countersigned, 'th')).json().verdict.changedAfter.description).toBe(
      'เพิ่มช่องลายมือชื่อว่าง "Signature9" ที่แสดงให้เห็นในหน้า 1 ซึ่งอาจแสดงทับเนื้อหาที่ลงนามไว้',
    );
  });

  it('reports a changed byte as not intact', async () => {
    const changed = Buffer.from(signed);
    // A byte of the header's binary comment: the structure still reads, the signed bytes differ.
    expect(changed.subarray(0, 10).toString('latin1')).toBe('%PDF-1.7\n%');
    changed[11] = changed[11]! ^ 0x01;
    const report = (await verify(changed)).json();
    expect(report.verdict.status).toBe('tampered');
    // The signed revision now includes the changed byte: Careplane does not hold it either.
    expect(report.signatures[0]).toMatchObject({ intact: false, knownToPlatform: false });
    expect(report.signatures[0].problems[0]).toMatch(/signed bytes were changed/);
    expect(report.fileKnownToPlatform).toBe(false);
  });

  it('tells the report in Thai for a Thai reader, its fields unchanged', async () => {
    const thai = await verifyIn(signed, 'th-TH,th;q=0.9');
    expect(thai.headers['content-language']).toBe('th');
    const english = (await verifyIn(signed, 'en')).json();
    const report = thai.json();
    expect(report.verdict.summary).toMatch(
      /^ของจริงและไม่ถูกแก้ไข: ลงนามโดย Olivia Owner \(olivia\d+@careplane\.test\) เมื่อ \d\d\.\d\d\.25\d\d \d\d:\d\d UTC ไฟล์นี้ตรงทุกไบต์กับฉบับที่ Careplane ลงนามให้สมบูรณ์$/,
    );
    expect(report.allowedChanges.description).toBe('กรอกแบบฟอร์มและลงนาม (ไม่มีลายมือชื่อรับรอง จึงใช้ค่าเริ่มต้น)');
    const withoutSentences = (answer: { verdict: object; allowedChanges: object }) => ({
      ...answer,
      verdict: { ...answer.verdict, summary: '' },
      allowedChanges: { ...answer.allowedChanges, description: '' },
    });
    expect(withoutSentences(report)).toEqual(withoutSentences(english));
    expect(english.verdict.summary).toMatch(/^Authentic and untampered: signed by Olivia Owner/);

    const changed = Buffer.from(signed);
    changed[11] = changed[11]! ^ 0x01;
    const tampered = (await verifyIn(changed, 'th')).json();
    expect(tampered.verdict.status).toBe('tampered');
    expect(tampered.signatures[0].problems[0]).toBe('ข้อมูลที่ลงนามถูกเปลี่ยนแปลง: ค่าแฮชไม่ตรงกับลายมือชื่อ');
    expect(tampered.verdict.summary).toMatch(
      /^ถูกแก้ไขหรือเสียหาย: ลายมือชื่อที่ 1 \(Olivia Owner .*\) ใช้ไม่ได้: ข้อมูลที่ลงนามถูกเปลี่ยนแปลง: ค่าแฮชไม่ตรงกับลายมือชื่อ อย่าใช้เอกสารนี้อ้างอิง$/,
    );

    // A file that is no PDF, and one whose structure breaks: the reason in Thai too (the PDF's own words kept).
    const notPdf = (await verifyIn(Buffer.from('just some text, not a document'), 'th')).json();
    expect(notPdf.verdict.status).toBe('unreadable');
    expect(notPdf.verdict.summary).toBe('ไม่ใช่ไฟล์ PDF ที่อ่านได้: ไฟล์นี้ไม่ใช่ PDF (ไม่มีส่วนหัว %PDF)');
    const cut = (await verifyIn(Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), 'th')).json();
    expect(cut.verdict.status).toBe('unreadable');
    expect(cut.verdict.summary).toBe('ไม่ใช่ไฟล์ PDF ที่อ่านได้: ไม่พบ startxref ใกล้ท้ายไฟล์');
  });

  it('reports a file signed elsewhere as unknown to the platform and not chained to its CA', async () => {
    const foreignCa = await testAuthority('Someone Else CA');
    const foreign = await signPdf(
      await createSamplePdf({ title: 'Foreign' }),
      await testSigner(foreignCa, ANN),
      foreignCa,
    );
    const report = (await verify(foreign)).json();
    expect(report.verdict.status).toBe('untrusted');
    expect(report.signatures[0]).toMatchObject({
      intact: true,
      chainsToPlatformCa: false,
      knownToPlatform: false,
    });
    expect(report.fileKnownToPlatform).toBe(false);
  });

  it('answers the CA certificate without sign-in, and refuses what is not a PDF upload', async () => {
    const pem = await call(null).get('/api/documents/ca.pem');
    expect(pem.statusCode).toBe(200);
    expect(pem.body).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const [stored] = await db().select().from(documentCertificateAuthority);
    expect(pem.body.trim()).toBe(stored!.certificatePem.trim());
    expect((await call(null).post('/api/documents/verify', { file: 'x' })).statusCode).toBe(415);
    expect((await verify(Buffer.from('plain text'))).json().verdict.status).toBe('unreadable');
  });

  it('limits verifications per address (429 with Retry-After)', async () => {
    let last = await verify(signed);
    for (let i = 0; i < VERIFY_LIMIT && last.statusCode !== 429; i++) last = await verify(signed);
    expect(last.statusCode).toBe(429);
    expect(last.headers['retry-after']).toBeDefined();
  });
});

describe('delete', () => {
  it('removes the document, its signing requests and the files nothing else uses', async () => {
    const bytes = await createSamplePdf({ title: 'Short-lived' });
    const kept = await upload(party, bytes, 'Same bytes, other owner');
    const { id } = await upload(owner, bytes, 'Short-lived');
    await sign(owner, id);
    const signedSha = (await call(owner.token).get(`/api/documents/${id}`)).json().signedFile.sha256;
    expect((await call(owner.token).delete(`/api/documents/${id}`)).statusCode).toBe(204);
    expect((await call(owner.token).get(`/api/documents/${id}`)).statusCode).toBe(404);
    expect(
      await db().select().from(documentSigningRequests).where(eq(documentSigningRequests.documentId, id)),
    ).toEqual([]);
    expect(await db().select().from(documentFiles).where(eq(documentFiles.sha256, signedSha))).toEqual([]);
    // The other owner's identical upload keeps the shared bytes.
    expect(
      await db()
        .select({ sha: documentFiles.sha256 })
        .from(documentFiles)
        .where(eq(documentFiles.sha256, sha256(bytes))),
    ).toHaveLength(1);
    expect((await call(party.token).get(`/api/documents/${kept.id}/download`)).statusCode).toBe(200);
  });
});

describe('the phone’s words', () => {
  it('asks for a signature in the signer’s language, else the request’s', async () => {
    const id = (await upload(owner, await createSamplePdf({ title: 'Care plan' }), 'แผนการดูแล')).id;
    const started = await context.app.inject({
      method: 'POST',
      url: `/api/documents/${id}/sign`,
      headers: { authorization: `Bearer ${owner.token}`, 'accept-language': 'th' },
    });
    expect(started.statusCode, started.body).toBe(200);
    const request = (await owner.authenticator.pending(owner.key)).find(
      (pending) => pending.id === started.json().requestId,
    );
    expect(request?.details.description).toBe('ลงนามเอกสาร "แผนการดูแล"');
    await owner.authenticator.decide(owner.key, request!, 'deny');
  });
});

describe('the API description', () => {
  it('names every documents route, the verifier and the CA certificate without a token', async () => {
    const spec = (await call(null).get('/api/openapi.json')).json();
    for (const path of [
      '/api/documents',
      '/api/documents/{id}',
      '/api/documents/{id}/download',
      '/api/documents/{id}/download/signed',
      '/api/documents/{id}/share',
      '/api/documents/{id}/sign',
      '/api/documents/{id}/signing/{requestId}',
      '/api/documents/parties',
      '/api/documents/verify',
      '/api/documents/ca.pem',
    ]) {
      expect(spec.paths[path], path).toBeDefined();
    }
    expect(spec.paths['/api/documents/verify'].post.security).toEqual([]);
    expect(spec.paths['/api/documents/ca.pem'].get.security).toEqual([]);
  });
});

describe('the platform CA', () => {
  it('keeps its key encrypted at rest and refuses to start with a wrong passphrase', async () => {
    const stored = await db().select().from(documentCertificateAuthority);
    expect(stored).toHaveLength(1);
    const row = stored[0]!;
    expect(row.encryptedPrivateKeyPem).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----/);
    expect(JSON.stringify(row)).not.toMatch(/BEGIN (EC )?PRIVATE KEY/);
    const config = (passphrase: string) =>
      loadConfig({
        AUTH_ISSUER: TEST_ISSUER,
        AUTH_AUDIENCE: TEST_AUDIENCE,
        LOG_LEVEL: 'silent',
        DEMO_DATA: '0',
        AUTH_SERVER: '0',
        // The first process's key: none is generated into the working copy's DATA_DIR.
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        DOCUMENTS_CA_PASSPHRASE: passphrase,
      });
    await expect(
      buildApp(config('not the passphrase of this CA'), { database: context.database, logger: false }),
    ).rejects.toThrow(/passphrase is wrong/);
    // The same passphrase opens the same CA: a second process (here without the auth server) agrees.
    const second = await buildApp(config(TEST_CA_PASSPHRASE), {
      database: context.database,
      logger: false,
      keys: createLocalJWKSet({ keys: [context.signer.jwk] }),
    });
    try {
      expect((await second.inject({ url: '/api/documents/ca.pem' })).body.trim()).toBe(
        row.certificatePem.trim(),
      );
      // With AUTH_SERVER=0 the API still asks the phone, through the auth server's tables.
      const id = (await upload(owner, await createSamplePdf({ title: 'Split' }), 'Split')).id;
      const started = await second.inject({
        method: 'POST',
        url: `/api/documents/${id}/sign`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(started.statusCode, started.body).toBe(200);
      await phoneAnswers(owner, 'approve');
      const state = await second.inject({
        url: `/api/documents/${id}/signing/${started.json().requestId}`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(state.json()).toMatchObject({ status: 'signed' });
      const [request] = await db()
        .select()
        .from(authRequests)
        .where(eq(authRequests.id, started.json().requestId));
      expect(request!.documentSignature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    } finally {
      await second.close();
    }
  });
});
