// A service's own refusal reaches a person in their language too: the 404 names the record, the 409 the status
// and the action, the 403 what is missing, in Thai for a Thai request, and word for word as before in English.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrescription, createUser, type TestUser } from '@/test/factories.js';
import { createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
let nurse: TestUser;
beforeAll(async () => {
  context = await createTestContext();
  nurse = await createUser(context, { localRoles: ['nurse'] });
});
afterAll(async () => {
  await context?.close();
});

const send = (method: 'GET' | 'POST', url: string, language?: string, token = context.adminToken) =>
  context.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(language ? { 'accept-language': language } : {}) },
  });

/** The answer's status, message and language. */
async function refusal(
  method: 'GET' | 'POST',
  url: string,
  language?: string,
  token?: string,
): Promise<{ status: number; message: string; language: unknown }> {
  const answer = await send(method, url, language, token);
  return {
    status: answer.statusCode,
    message: answer.json<{ message: string }>().message,
    language: answer.headers['content-language'],
  };
}

describe('a service’s refusal in the request’s language', () => {
  it('names the record a 404 did not find', async () => {
    const url = `/api/users/${randomUUID()}`;
    expect(await refusal('GET', url, 'th-TH,th;q=0.9')).toEqual({
      status: 404,
      message: 'ไม่พบผู้ใช้',
      language: 'th',
    });
    for (const language of [undefined, 'en-GB']) {
      expect(await refusal('GET', url, language)).toEqual({
        status: 404,
        message: 'User not found',
        language: 'en',
      });
    }
    const provider = await refusal('GET', `/api/service-providers/${randomUUID()}`, 'th');
    expect(provider.message).toBe('ไม่พบผู้ให้บริการ');
  });

  it('names the status and the action a 409 refuses', async () => {
    const { id } = await createPrescription(context);
    const url = `/api/prescriptions/${id}/mark-ready`;
    expect(await refusal('POST', url, 'th')).toEqual({
      status: 409,
      message:
        'ใบสั่งยานี้อยู่ในสถานะ "ใหม่" (new): "จัดยาเสร็จ" (mark-ready) ทำได้เมื่อสถานะเป็น "ออกใบสั่งยาแล้ว" (issued) หรือ "รอจัดยา" (waiting) เท่านั้น',
      language: 'th',
    });
    expect(await refusal('POST', url, 'en')).toEqual({
      status: 409,
      message: 'The prescription is new: mark-ready needs issued or waiting',
      language: 'en',
    });
    // The status it has now is a value for programs (the console words it), the same in every language.
    for (const language of ['th', 'en']) {
      const answer = await send('POST', url, language);
      expect(answer.json().issues).toEqual([{ path: 'status', message: 'new' }]);
    }
  });

  it('says what a 403 lacks', async () => {
    expect(await refusal('GET', '/api/users', 'th', nurse.token)).toEqual({
      status: 403,
      message: 'ไม่มีสิทธิ์ทำรายการนี้',
      language: 'th',
    });
    expect(await refusal('GET', '/api/users', undefined, nurse.token)).toMatchObject({
      message: 'Not allowed',
    });
    // A nurse of no command center's care team.
    expect(await refusal('GET', '/api/command-centers/devices', 'th', nurse.token)).toEqual({
      status: 403,
      message: 'เฉพาะทีมดูแลของศูนย์สั่งการ (หัวหน้างาน พยาบาล หรือแพทย์ที่ได้รับมอบหมาย) เท่านั้นที่ใช้รายการนี้ได้',
      language: 'th',
    });
    expect(await refusal('GET', '/api/command-centers/devices', 'en', nurse.token)).toMatchObject({
      message:
        "Only a command center's care team (a supervisor, nurse or doctor assigned to it) may use these calls",
    });
  });

  it('speaks Thai for a 401 before the caller is known', async () => {
    const answer = await send('GET', '/api/users/me', 'th', 'not-a-token.at.all');
    expect(answer.statusCode).toBe(401);
    expect(answer.json().message).toMatch(/[\u0E00-\u0E7F]/);
    expect(answer.headers['content-language']).toBe('th');
  });

  it('answers a route that does not exist, and a body Fastify refuses, in the request’s language', async () => {
    expect(await refusal('GET', '/api/no-such-list', 'th')).toEqual({
      status: 404,
      message: 'ไม่พบ GET /api/no-such-list บนเซิร์ฟเวอร์นี้',
      language: 'th',
    });
    expect(await refusal('GET', '/api/no-such-list?x=1', 'en')).toEqual({
      status: 404,
      message: 'Route GET /api/no-such-list not found',
      language: 'en',
    });
    const plainText = (language: string) =>
      context.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: {
          authorization: `Bearer ${context.adminToken}`,
          'content-type': 'text/plain',
          'accept-language': language,
        },
        payload: 'not json',
      });
    const thai = await plainText('th');
    expect(thai.statusCode).toBe(415);
    expect(thai.json<{ message: string }>().message).toBe(
      'ไม่รองรับชนิดข้อมูล (Content-Type) ที่ส่งมา โปรดส่งเป็น JSON (application/json) หรือไม่ต้องส่งข้อมูลเมื่อคำขอนั้นไม่รับข้อมูล',
    );
    const english = await plainText('en');
    expect(english.statusCode).toBe(415);
    expect(english.json<{ message: string }>().message).toBe(
      'Unsupported Media Type: send JSON (application/json), or no body where the request takes none',
    );
  });
});
