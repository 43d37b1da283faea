// Devices call with their device token (decisions §7): it reaches the device's own routes only, and stops at
// once when the device is re-keyed, disabled or deleted. A person's token does not open a device's routes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const asDevice = (token: string, url: string, method: 'GET' | 'POST' = 'GET') =>
  context.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });

async function device(title: string) {
  const created = await api(context).post('/api/devices', { title });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ id: string; token: string }>();
}

describe('device tokens', () => {
  it('answer GET /api/devices/me with the calling device, never its token', async () => {
    const tablet = await device('Ward 7 tablet');
    const me = await asDevice(tablet.token, '/api/devices/me');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ id: tablet.id, title: 'Ward 7 tablet', isEnabled: true });
    expect(me.json()).not.toHaveProperty('tokenHash');
    expect(me.json()).not.toHaveProperty('token');
  });

  it('are refused everywhere a person signs in', async () => {
    const tablet = await device('Ward 8 tablet');
    for (const url of [
      '/api/users/me',
      '/api/devices',
      `/api/devices/${tablet.id}`,
      '/api/domains',
      '/api/users/logs',
    ]) {
      const refused = await asDevice(tablet.token, url);
      expect(refused.statusCode, url).toBe(401);
      expect(refused.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
    expect((await asDevice(tablet.token, '/api/command-centers', 'POST')).statusCode).toBe(401);
  });

  it('are refused before a person route reads its input, so they learn nothing of what it accepts', async () => {
    const tablet = await device('Ward 9 tablet');
    const requests = [
      { method: 'POST', url: '/api/auth', payload: { idToken: 'not a token' } },
      { method: 'POST', url: '/api/documents', payload: { file: 'not multipart' } },
      { method: 'GET', url: '/api/documents/not-a-uuid/signing/nor-this' },
      { method: 'DELETE', url: '/api/documents/not-a-uuid' },
      { method: 'GET', url: '/api/users/logs?limit=-1' },
      { method: 'POST', url: '/api/events/ticket' },
    ] as const;
    for (const request of requests) {
      const refused = await context.app.inject({
        ...request,
        headers: { authorization: `Bearer ${tablet.token}` },
      });
      expect(refused.statusCode, `${request.method} ${request.url}: ${refused.body}`).toBe(401);
    }
  });

  it('do not let a person call as a device', async () => {
    for (const token of [context.adminToken, context.userToken]) {
      expect((await asDevice(token, '/api/devices/me')).statusCode).toBe(401);
    }
  });

  it("are asked of a person on a device's route before its input is read", async () => {
    const requests = [
      { method: 'POST', url: '/api/devices/me/jobs/not-a-uuid/status', payload: { status: 'bogus' } },
      {
        method: 'POST',
        url: `/api/devices/me/jobs/${randomUUID()}/status`,
        payload: {
          status: 'SUCCEEDED',
          results: [
            {
              command: 'reboot',
              exitCode: 0,
              stdout: '',
              stderr: '',
              startedAt: '2030-01-01T08:00:02Z',
              finishedAt: '2030-01-01T08:00:00Z',
            },
          ],
        },
      },
    ] as const;
    for (const token of [context.adminToken, context.userToken]) {
      for (const request of requests) {
        const refused = await context.app.inject({
          ...request,
          headers: { authorization: `Bearer ${token}` },
        });
        const where = `${request.method} ${request.url}: ${refused.body}`;
        expect(refused.statusCode, where).toBe(401);
        expect(refused.json().message, where).toBe('A device token is required');
      }
    }
  });

  it('stop at once when the device is re-keyed, disabled or deleted', async () => {
    const tablet = await device('Ward 9 tablet');
    const rekeyed = await api(context).post(`/api/devices/${tablet.id}/token`);
    expect(rekeyed.statusCode).toBe(200);
    expect((await asDevice(tablet.token, '/api/devices/me')).statusCode).toBe(401);
    const fresh = rekeyed.json<{ token: string }>().token;
    expect((await asDevice(fresh, '/api/devices/me')).statusCode).toBe(200);

    expect((await api(context).patch(`/api/devices/${tablet.id}`, { isEnabled: false })).statusCode).toBe(
      200,
    );
    expect((await asDevice(fresh, '/api/devices/me')).statusCode).toBe(401);
    expect((await api(context).patch(`/api/devices/${tablet.id}`, { isEnabled: true })).statusCode).toBe(200);
    expect((await asDevice(fresh, '/api/devices/me')).statusCode).toBe(200);

    expect((await api(context).delete(`/api/devices/${tablet.id}`)).statusCode).toBe(204);
    expect((await asDevice(fresh, '/api/devices/me')).statusCode).toBe(401);
  });

  it('refuse a made-up token of the right shape', async () => {
    const forged = `cpd_${'A'.repeat(43)}`;
    expect((await asDevice(forged, '/api/devices/me')).statusCode).toBe(401);
  });
});
