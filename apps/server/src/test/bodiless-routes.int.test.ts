// A route that declares no body takes none (decision 111): a write route without a body in its contract refuses
// a body with something in it, naming what was sent, instead of answering as if it had not been sent. No body, or
// `{}`, is taken as before (the console sends none; a client that always sends an object sends `{}`).
import { randomUUID } from 'node:crypto';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceRunnerJobs } from '@/db/schema/index.js';
import { createUser } from './factories.js';
import { createTestContext, type TestContext } from './harness.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const NO_BODY = 'Takes no body: send none, or {}';

function send(method: string, url: string, payload?: string, language?: string) {
  return context.app.inject({
    method: method as 'POST',
    url,
    headers: {
      authorization: `Bearer ${context.adminToken}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...(language ? { 'accept-language': language } : {}),
    },
    ...(payload === undefined ? {} : { payload }),
  });
}

describe('a route without a body', () => {
  it('refuses fields or any other value, in English and Thai, and does nothing', async () => {
    const user = await createUser(context);
    const jobsBefore = (await context.database.db.select({ n: count() }).from(deviceRunnerJobs))[0]!.n;
    const routes = [
      `/api/command-centers/users/${user.id}/device/reboot`,
      `/api/users/${user.id}/enrollment`,
      `/api/devices/${randomUUID()}/token`,
      '/api/events/ticket',
    ];
    for (const url of routes) {
      const fields = await send('POST', url, JSON.stringify({ deviceId: randomUUID() }));
      expect(fields.statusCode, `${url}: ${fields.body}`).toBe(400);
      expect(fields.json().issues).toEqual([
        { path: 'body', message: 'This field is not accepted: deviceId.' },
      ]);
      const text = await send('POST', url, JSON.stringify('x'.repeat(1_000_000)));
      expect(text.statusCode, `${url}: ${text.body.slice(0, 200)}`).toBe(400);
      expect(text.json().issues).toEqual([{ path: 'body', message: NO_BODY }]);
      for (const other of ['null', '[]', '0', 'true']) {
        expect((await send('POST', url, other)).statusCode, `${url} ${other}`).toBe(400);
      }
    }
    const thai = await send('POST', '/api/events/ticket', '"x"', 'th');
    expect(thai.statusCode).toBe(400);
    expect(thai.json().issues[0].message).toMatch(/ไม่รับ/);
    const thaiFields = await send('POST', '/api/events/ticket', '{"a":1}', 'th');
    expect(thaiFields.json().issues[0].message).not.toBe('This field is not accepted: a.');
    expect((await context.database.db.select({ n: count() }).from(deviceRunnerJobs))[0]!.n).toBe(jobsBefore);
  });

  it('takes no body, or an empty object, as before', async () => {
    const user = await createUser(context);
    for (const payload of [undefined, '', '{}']) {
      const ticket = await send('POST', '/api/events/ticket', payload);
      expect(ticket.statusCode, ticket.body).toBeLessThan(300);
      const enrollment = await send('POST', `/api/users/${user.id}/enrollment`, payload);
      expect(enrollment.statusCode, enrollment.body).toBeLessThan(500);
      expect(enrollment.statusCode).not.toBe(400);
    }
  });

  it('every write route of the API without a body in its contract refuses one', async () => {
    const guarded = context.app.routesWithoutBody;
    expect(guarded.length).toBeGreaterThan(10);
    for (const { method, url } of guarded) {
      const concrete = url.replace(/:[A-Za-z]+/g, randomUUID());
      const answer = await send(method, concrete, '{"unexpected":true}');
      // A device's route is refused before its body is read (a person's token is no device's).
      if (answer.statusCode === 401) continue;
      expect(answer.statusCode, `${method} ${url}: ${answer.body}`).toBe(400);
      expect(answer.json().issues, `${method} ${url}`).toEqual([
        { path: 'body', message: 'This field is not accepted: unexpected.' },
      ]);
    }
  });
});
