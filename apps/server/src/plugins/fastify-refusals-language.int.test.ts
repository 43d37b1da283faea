// The refusals Fastify and its plugins make themselves, before any route of ours answers, reach a Thai reader
// in Thai too: an address that cannot be read, an upload with more parts than it takes, and the
// rate limiter's 429. English stays the words Fastify (or the plugin) writes, but for an upload's second file
// or extra fields, which say what the form takes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/test/harness.js';
import { fastifyRefusal } from './errors.js';

/** Writes per caller and minute: more than the uploads below send. */
const WRITES_PER_MINUTE = 8;

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext({ API_WRITE_RATE_LIMIT: String(WRITES_PER_MINUTE) });
});
afterAll(async () => {
  await context?.close();
});

const thaiScript = /[\u0E00-\u0E7F]/;

async function refusal(
  request: { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: Buffer },
  language: string,
  token = context.adminToken,
) {
  const answer = await context.app.inject({
    ...request,
    headers: {
      authorization: `Bearer ${token}`,
      'accept-language': language,
      ...request.headers,
    },
  });
  return {
    status: answer.statusCode,
    message: answer.json<{ message: string }>().message,
    language: answer.headers['content-language'],
  };
}

/** A multipart/form-data body of the given parts. */
function multipart(parts: { name: string; value: string; filename?: string }[]) {
  const boundary = `----careplane${randomUUID()}`;
  const text =
    parts
      .map(
        (part) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"` +
          (part.filename ? `; filename="${part.filename}"\r\nContent-Type: application/pdf` : '') +
          `\r\n\r\n${part.value}\r\n`,
      )
      .join('') + `--${boundary}--\r\n`;
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.from(text),
  };
}

describe('Fastify’s own refusals in the request’s language', () => {
  it('an address that cannot be read', async () => {
    const request = { method: 'GET' as const, url: '/api/users/%E0%A4%A' };
    expect(await refusal(request, 'th')).toEqual({
      status: 400,
      message: 'อ่านที่อยู่ (URL) ของคำขอไม่ได้ เพราะเข้ารหัสไม่ถูกต้อง',
      language: 'th',
    });
    expect(await refusal(request, 'en')).toEqual({
      status: 400,
      message: 'The address cannot be read (invalid encoding)',
      language: 'en',
    });
  });

  it('an upload with more files, fields or parts than it takes, or a forbidden field name', async () => {
    const cases = [
      [
        [
          { name: 'file', value: '%PDF-1.7', filename: 'a.pdf' },
          { name: 'file', value: '%PDF-1.7', filename: 'b.pdf' },
        ],
        'ส่งได้เพียงไฟล์เดียว ในช่อง "file"',
        'Only one file, in the field "file"',
      ],
      [
        [
          { name: 'title', value: 'a' },
          { name: 'title', value: 'b' },
          { name: 'title', value: 'c' },
        ],
        'ฟอร์มมีช่องข้อมูลมากเกินไป: รับเพียงไฟล์ และชื่อเอกสารเมื่ออัปโหลด',
        'The form has more fields than it takes: a file and, for an upload, a title',
      ],
      [
        [{ name: '__proto__', value: 'a' }],
        'ใช้ชื่อช่องข้อมูลนี้ไม่ได้ (ชื่อสงวนของระบบ)',
        'prototype property is not allowed as field name',
      ],
    ] as const;
    for (const [parts, thai, english] of cases) {
      const request = { method: 'POST' as const, url: '/api/documents', ...multipart([...parts]) };
      // A malformed upload, not a large one: 400, where the multipart reader says 413.
      const status = 400;
      expect(await refusal(request, 'th'), english).toEqual({ status, message: thai, language: 'th' });
      expect(await refusal(request, 'en'), english).toEqual({ status, message: english, language: 'en' });
    }
  });

  it('a raw PDF body where an upload is taken: how to send one, as a JSON body is told', async () => {
    for (const url of ['/api/documents', '/api/documents/verify']) {
      const request = {
        method: 'POST' as const,
        url,
        headers: { 'content-type': 'application/pdf' },
        payload: Buffer.from('%PDF-1.7'),
      };
      expect(await refusal(request, 'en'), url).toEqual({
        status: 415,
        message: 'Send the file as multipart/form-data in a field named "file"',
        language: 'en',
      });
      expect(await refusal(request, 'th'), url).toMatchObject({ status: 415, language: 'th' });
    }
  });

  it('a path part past the router’s limit, without the address echoed back', async () => {
    const request = { method: 'POST' as const, url: `/api/users/me/phones/${'A'.repeat(600)}/revoke` };
    expect(await refusal(request, 'th')).toEqual({
      status: 414,
      message: 'ที่อยู่บางส่วนยาวเกินไป ไม่มีรหัสใดในระบบนี้ยาวเกิน 200 ตัวอักษร',
      language: 'th',
    });
    expect((await refusal(request, 'en')).message).toBe(
      'A part of the address is too long: no identifier here is longer than 200 characters',
    );
  });

  it('a file the multipart reader finds too large before the upload’s own check does', () => {
    const error = Object.assign(new Error('request file too large'), {
      code: 'FST_REQ_FILE_TOO_LARGE',
      statusCode: 413,
    });
    expect(fastifyRefusal(error)).toEqual({
      en: 'request file too large',
      th: 'ไฟล์ที่ส่งมีขนาดใหญ่เกินกำหนด',
    });
  });

  it('the rate limiter’s 429', async () => {
    // A caller of its own, whose writes no other test spent.
    const token = await context.signer.sign({ roles: ['admin'] }, { subject: randomUUID() });
    const write = { method: 'POST' as const, url: `/api/prescriptions/${randomUUID()}/mark-ready` };
    const statuses = new Set<number>();
    for (let i = 0; i < WRITES_PER_MINUTE; i++) statuses.add((await refusal(write, 'en', token)).status);
    expect(statuses.has(429)).toBe(false);
    const thai = await refusal(write, 'th-TH,th;q=0.9', token);
    expect(thai).toMatchObject({ status: 429, language: 'th' });
    expect(thai.message).toMatch(/^มีคำขอมากเกินไป โปรดลองอีกครั้งใน (1 นาที|\d+ วินาที)$/);
    expect(thai.message).toMatch(thaiScript);
    const english = await refusal(write, 'en', token);
    expect(english).toMatchObject({ status: 429, language: 'en' });
    expect(english.message).toMatch(/^Rate limit exceeded, retry in (1 minute|\d+ seconds?)$/);
  });
});
