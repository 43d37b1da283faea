// A refusal reaches a person in their language: the console sends Accept-Language with the user's choice, and
// the 400's message and every issue's are sentences in it that name the field, never zod's own words.
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const send = (method: 'GET' | 'POST', url: string, language?: string, payload?: object) =>
  context.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${context.adminToken}`,
      ...(language ? { 'accept-language': language } : {}),
    },
    ...(payload ? { payload } : {}),
  });

const badUser = {
  firstName: 7,
  lastName: 'ก'.repeat(121),
  additionalInfo: { dateOfBirth: '25/11/1990' },
  nickname: 'x',
};

function refusal(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.body).not.toMatch(
    /Invalid input|expected string|received undefined|Too big|Invalid option/,
  );
  return response.json<{ message: string; issues: { path: string; message: string }[] }>();
}

describe('refusals in the request’s language', () => {
  it('answer English sentences naming each field by default and for en', async () => {
    for (const language of [undefined, 'en-GB,en;q=0.9', 'fr, de']) {
      const answer = await send('POST', '/api/users', language, badUser);
      const { message, issues } = refusal(answer);
      expect(answer.headers['content-language']).toBe('en');
      expect(message).toBe('Invalid request');
      expect(issues).toEqual([
        { path: 'body.username', message: 'Username is required.' },
        { path: 'body.additionalInfo.dateOfBirth', message: 'Must be a date YYYY-MM-DD' },
        { path: 'body.firstName', message: 'First name must be text.' },
        { path: 'body.lastName', message: 'Last name must be at most 120 characters.' },
        { path: 'body', message: 'This field is not accepted: nickname.' },
      ]);
    }
  });

  it('answer Thai sentences naming each field in Thai for th', async () => {
    const answer = await send('POST', '/api/users', 'th-TH,th;q=0.9,en;q=0.8', badUser);
    const { message, issues } = refusal(answer);
    expect(answer.headers['content-language']).toBe('th');
    expect(message).toBe('คำขอไม่ถูกต้อง: โปรดตรวจสอบข้อมูลที่ส่ง');
    expect(issues).toEqual([
      { path: 'body.username', message: 'ต้องระบุชื่อผู้ใช้' },
      { path: 'body.additionalInfo.dateOfBirth', message: 'วันเกิด ต้องเป็นวันที่แบบ YYYY-MM-DD (ปี ค.ศ.)' },
      { path: 'body.firstName', message: 'ชื่อ ต้องเป็นข้อความ' },
      { path: 'body.lastName', message: 'นามสกุล ต้องยาวไม่เกิน 120 ตัวอักษร' },
      { path: 'body', message: 'ไม่รับช่องข้อมูลนี้: nickname' },
    ]);
  });

  it('speak Thai for a bad path, a bad query, and a list item, and a service’s own refusal', async () => {
    const badId = refusal(await send('GET', '/api/prescriptions/not-a-uuid', 'th'));
    expect(badId.issues).toEqual([{ path: 'params.id', message: 'รหัส ต้องเป็นรหัสอ้างอิง (UUID)' }]);
    const badQuery = refusal(await send('GET', '/api/users?limit=many', 'th'));
    expect(badQuery.issues.map((issue) => issue.message)).toEqual(['จำนวนสูงสุด ต้องเป็นจำนวนเต็ม']);

    const items = refusal(
      await send('POST', '/api/prescriptions', 'th', { content: [{ name: 'Metformin', quantity: 0 }] }),
    );
    expect(items.issues).toContainEqual({ path: 'body.content.0.quantity', message: 'จำนวน ต้องมากกว่า 0' });

    // Checked by the service against the database, after the contract: its English has a Thai entry.
    const [recipient, issuer, supplier, shipper] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const unknown = refusal(
      await send('POST', '/api/prescriptions', 'th', {
        recipient,
        issuer,
        supplier,
        shipper,
        content: [{ name: 'Metformin', quantity: 60 }],
      }),
    );
    expect(unknown.message, JSON.stringify(unknown)).toBe('ใบสั่งยาไม่ถูกต้อง: โปรดตรวจสอบข้อมูลที่ส่ง');
    expect(unknown.issues).toEqual(
      expect.arrayContaining([
        { path: 'body.recipient', message: 'ผู้รับยา: ไม่มีผู้ใช้ที่มีรหัสนี้' },
        { path: 'body.supplier', message: 'ร้านยา: ไม่มีผู้ให้บริการที่มีรหัสนี้' },
      ]),
    );
  });
});
