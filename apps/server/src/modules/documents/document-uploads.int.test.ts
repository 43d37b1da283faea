// Uploads over real HTTP (decision 037): the file is staged in the database a slice at a time while it
// arrives and joined there, so the server never holds it whole; large uploads at once leave the health check
// answering; one caller's concurrent uploads are capped (429); what is refused or interrupted leaves nothing
// staged; the PDF check reads only the file's ends and its newest cross-reference section.
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLargeSamplePdf, createSamplePdf } from '@careplane/pdf-signatures/samples';
import { documentFiles, documentUploadChunks, documents, users } from '@/db/schema/index.js';
import { createTestContext, type TestContext } from '@/test/harness.js';
import { deleteStaleUploads, insertUploadChunk, storeUpload } from './document-files.repository.js';
import { UPLOAD_CHUNK_BYTES } from './document-files.service.js';

const MAX_BYTES = 24 * 1024 * 1024;

let context: TestContext;
let base: string;
const db = () => context.database.db;

beforeAll(async () => {
  context = await createTestContext({
    DOCUMENTS_MAX_BYTES: String(MAX_BYTES),
    DOCUMENTS_MAX_CONCURRENT_UPLOADS: '2',
  });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(context.app.server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await context?.close();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const staged = async () => (await db().select({ n: count() }).from(documentUploadChunks))[0]!.n;
const stored = async () => ({
  documents: (await db().select({ n: count() }).from(documents))[0]!.n,
  files: (await db().select({ n: count() }).from(documentFiles))[0]!.n,
});

/** Waits (without a fixed sleep) until `condition` holds, or fails after `timeoutMs`. */
async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const CRLF = '\r\n';
/** A multipart body with one file (and an optional title): the bytes before the file's, and after. */
function multipartAround(filename: string, title?: string) {
  const boundary = `----careplane${randomUUID()}`;
  const titlePart = title
    ? `--${boundary}${CRLF}Content-Disposition: form-data; name="title"${CRLF}${CRLF}${title}${CRLF}`
    : '';
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    before: Buffer.from(
      `${titlePart}--${boundary}${CRLF}Content-Disposition: form-data; name="file"; filename="${filename}"${CRLF}` +
        `Content-Type: application/pdf${CRLF}${CRLF}`,
    ),
    after: Buffer.from(`${CRLF}--${boundary}--${CRLF}`),
  };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  json: () => Record<string, unknown>;
}

/**
 * An upload sent over HTTP whose first `sendFirst` bytes of the file go at once and the rest only when
 * `finish()` is called: an upload that is under way for as long as the test wants.
 */
function startUpload(token: string, file: Uint8Array, options: { sendFirst?: number; title?: string } = {}) {
  const body = multipartAround('scan.pdf', options.title);
  const bytes = Buffer.from(file);
  const split = Math.min(options.sendFirst ?? bytes.length, bytes.length);
  const request = http.request(`${base}/api/documents`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': body.contentType,
      'content-length': body.before.length + bytes.length + body.after.length,
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          json: () => JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        }),
      );
    });
    // A server that answers before the body is sent may close the connection while it is being written.
    request.on('error', (error) => (error.message.includes('EPIPE') ? undefined : reject(error)));
  });
  request.write(Buffer.concat([body.before, bytes.subarray(0, split)]));
  const finish = () => {
    request.end(Buffer.concat([bytes.subarray(split), body.after]));
    return answer;
  };
  if (split === bytes.length) return { answer: finish(), finish };
  return { answer, finish };
}

/** A signed-in person of their own (each has their own upload slots). */
async function person(name: string) {
  const subject = randomUUID();
  await db()
    .insert(users)
    .values({
      username: `${name}.${subject.slice(0, 8)}@careplane.test`,
      usernameWithoutDomain: `${name}.${subject.slice(0, 8)}`,
      primaryDomain: 'careplane.test',
      masterId: subject,
      firstName: name,
      lastName: 'Uploader',
      roles: ['public'],
    });
  return context.signer.sign({ roles: ['public'] }, { subject });
}

describe('streamed uploads', () => {
  it('stores a file of several slices byte for byte, and nothing stays staged', async () => {
    const file = await createLargeSamplePdf(3.5 * 1024 * 1024, { imageBytes: 256 * 1024 });
    expect(file.length).toBeGreaterThan(3 * UPLOAD_CHUNK_BYTES);
    const { answer } = startUpload(context.userToken, file, { title: 'Discharge letter' });
    const created = await answer;
    expect(created.status, JSON.stringify(created.json())).toBe(201);
    expect(created.json()).toMatchObject({
      title: 'Discharge letter',
      file: { sha256: sha256(file), size: file.length },
    });
    expect(await staged()).toBe(0);

    const download = await fetch(`${base}/api/documents/${String(created.json().id)}/download`, {
      headers: { authorization: `Bearer ${context.userToken}` },
    });
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(file));
  });

  it('takes four ~20 MB uploads at once while the health check keeps answering', async () => {
    const files = await Promise.all(
      [20, 19, 18, 17].map((mb) => createLargeSamplePdf(mb * 1024 * 1024, { imageBytes: 1024 * 1024 })),
    );
    // Two people, two uploads each: as many as each may send at once.
    const tokens = [await person('Mali'), await person('Niran')];
    const before = await stored();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const healthTimes: number[] = [];
    let uploading = true;
    const polling = (async () => {
      while (uploading) {
        const started = performance.now();
        const health = await fetch(`${base}/api/health`);
        expect(health.status).toBe(200);
        await health.arrayBuffer();
        healthTimes.push(performance.now() - started);
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const started = performance.now();
    const answers = await Promise.all(
      files.map((file, index) => startUpload(tokens[index % 2]!, file, { title: `Scan ${index}` }).answer),
    );
    const elapsed = performance.now() - started;
    uploading = false;
    await polling;

    answers.forEach((answer, index) => {
      expect(answer.status, JSON.stringify(answer.json())).toBe(201);
      expect(answer.json()).toMatchObject({ file: { sha256: sha256(files[index]!) } });
    });
    expect(await stored()).toEqual({ documents: before.documents + 4, files: before.files + 4 });
    expect(await staged()).toBe(0);
    // Figures of this run, for the record; the test asserts only that health answered throughout.
    expect(healthTimes.length).toBeGreaterThan(0);
    const sorted = [...healthTimes].sort((a, b) => a - b);
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    console.info(
      `4 uploads (${files.map((file) => mb(file.length)).join(', ')} MB) in ${Math.round(elapsed)} ms; ` +
        `health answered ${healthTimes.length}× (median ${Math.round(sorted[sorted.length >> 1]!)} ms, ` +
        `max ${Math.round(sorted.at(-1)!)} ms); rss ${mb(rssBefore)} → peak ${mb(rssPeak)} MB ` +
        `(the test's own four files are ${mb(files.reduce((sum, file) => sum + file.length, 0))} MB of it)`,
    );
  }, 240_000);

  it('refuses a third upload at once from one person (429, Retry-After), and takes it once one has finished', async () => {
    const token = await person('Ploy');
    const file = await createLargeSamplePdf(2.5 * 1024 * 1024, { imageBytes: 256 * 1024 });
    const first = startUpload(token, file, { sendFirst: 1.5 * 1024 * 1024 });
    const second = startUpload(token, file, { sendFirst: 1.5 * 1024 * 1024 });
    // Both are under way once each has a slice staged.
    await until(async () => (await staged()) >= 2, 'both uploads have a slice staged');

    const third = await startUpload(token, await createSamplePdf({ title: 'Third' })).answer;
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('5');
    expect(third.json()).toMatchObject({
      statusCode: 429,
      message: 'At most 2 uploads at once: wait until one has finished',
    });
    // Somebody else is not held up by this person's uploads.
    expect((await startUpload(await person('Somchai'), file).answer).status).toBe(201);

    expect((await first.finish()).status).toBe(201);
    expect((await second.finish()).status).toBe(201);
    expect((await startUpload(token, await createSamplePdf({ title: 'Now' })).answer).status).toBe(201);
    expect(await staged()).toBe(0);
  }, 120_000);

  it('refuses a file over the limit part way through (413) and removes what was staged', async () => {
    const before = await stored();
    const tooBig = await createLargeSamplePdf(MAX_BYTES + 2 * 1024 * 1024, { imageBytes: 1024 * 1024 });
    const answer = await startUpload(context.userToken, tooBig).answer;
    expect(answer.status).toBe(413);
    expect(answer.json()).toMatchObject({
      statusCode: 413,
      message: 'The file is larger than 24 MB, the most a document may hold',
    });
    expect(await stored()).toEqual(before);
    expect(await staged()).toBe(0);
  }, 120_000);

  it('answers 400 to a form whose body ends inside its file, over real HTTP, and stores nothing', async () => {
    // Over a socket the reader ends the part early ("Part terminated early"), which an injected request does
    // not show: the verifier, open to anyone, answered it with a 500.
    const before = await stored();
    const cut = Buffer.from(
      `--xx${CRLF}Content-Disposition: form-data; name="file"; filename="a.pdf"${CRLF}${CRLF}%PDF-1.7 cut`,
    );
    for (const [path, token] of [
      ['/api/documents/verify', null],
      ['/api/documents', context.userToken],
    ] as const) {
      const answer = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'multipart/form-data; boundary=xx',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: cut,
      });
      expect(answer.status, path).toBe(400);
      expect(await answer.json()).toMatchObject({
        message: 'The form could not be read: send it as multipart/form-data with its boundary, whole',
      });
    }
    expect(await stored()).toEqual(before);
    expect(await staged()).toBe(0);
  });

  it('answers 409 when the staged slices were swept away before the upload finished', async () => {
    const before = await stored();
    const file = await createLargeSamplePdf(2.5 * 1024 * 1024, { imageBytes: 256 * 1024 });
    const upload = startUpload(context.userToken, file, { sendFirst: 1.5 * 1024 * 1024 });
    await until(async () => (await staged()) >= 1, 'a slice is staged');
    // What the sweep of unfinished uploads does to one older than its limit.
    await db().delete(documentUploadChunks);
    const answer = await upload.finish();
    expect(answer.status).toBe(409);
    expect(answer.json()).toMatchObject({
      message: 'The upload took too long and was not kept: send the file again',
    });
    expect(await stored()).toEqual(before);
    expect(await staged()).toBe(0);
  }, 120_000);

  it('checks the PDF by its ends and its newest cross-reference section, and stages nothing it refuses', async () => {
    const pdf = Buffer.from(await createSamplePdf({ title: 'Check' }));
    const text = pdf.toString('latin1');
    const xrefAt = Number(/startxref\s+(\d+)/.exec(text.slice(text.lastIndexOf('startxref')))![1]);
    const withTrailer = (offset: number) =>
      Buffer.concat([
        pdf.subarray(0, text.lastIndexOf('startxref')),
        Buffer.from(`startxref\n${offset}\n%%EOF\n`),
      ]);
    const before = await stored();
    const cases: [string, Buffer, number, string][] = [
      ['no trailer', Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), 415, 'The file is not a readable PDF'],
      ['a trailer past the end', withTrailer(pdf.length + 10), 415, 'The file is not a readable PDF'],
      [
        'a trailer into the middle of an object',
        withTrailer(xrefAt - 7),
        415,
        'The file is not a readable PDF',
      ],
      ['no header', Buffer.concat([Buffer.from('GIF89a'), pdf.subarray(5)]), 415, 'The file is not a PDF'],
      ['empty', Buffer.alloc(0), 400, 'The file is empty'],
    ];
    for (const [name, bytes, status, message] of cases) {
      const answer = await startUpload(context.userToken, bytes).answer;
      expect(answer.status, name).toBe(status);
      expect(answer.json(), name).toMatchObject({ statusCode: status, message });
    }
    expect(await stored()).toEqual(before);
    expect(await staged()).toBe(0);
    // Text after %%EOF (some scanners add it) is not a reason to refuse.
    const trailing = await startUpload(context.userToken, Buffer.concat([pdf, Buffer.from('\n\n')])).answer;
    expect(trailing.status).toBe(201);
  });
});

describe('staged slices', () => {
  it('are joined only when they add up to the size, and swept once older than the limit', async () => {
    const uploadId = randomUUID();
    await insertUploadChunk(db(), { uploadId, index: 0, bytes: Buffer.from('%PDF-') });
    await insertUploadChunk(db(), { uploadId, index: 2, bytes: Buffer.from('end') });
    // A slice is missing: nothing is stored.
    expect(await storeUpload(db(), { uploadId, sha256: 'f'.repeat(64), size: 20 })).toBe(false);
    expect(
      await db()
        .select()
        .from(documentFiles)
        .where(eq(documentFiles.sha256, 'f'.repeat(64))),
    ).toEqual([]);

    const fresh = randomUUID();
    await insertUploadChunk(db(), { uploadId: fresh, index: 0, bytes: Buffer.from('fresh') });
    await db()
      .update(documentUploadChunks)
      .set({ createdAt: sql`now() - interval '2 hours'` })
      .where(eq(documentUploadChunks.uploadId, uploadId));
    expect(await deleteStaleUploads(db(), new Date(Date.now() - 60 * 60 * 1000))).toBe(1);
    const left = await db().select({ uploadId: documentUploadChunks.uploadId }).from(documentUploadChunks);
    expect(left).toEqual([{ uploadId: fresh }]);
    await db().delete(documentUploadChunks);
  });
});
