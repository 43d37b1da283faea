// Access to every route of the devices module (devices, stats, workstations, runner jobs), and their
// place in the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, createStat } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

describe('access', () => {
  it('answers 401 without a token and 403 for a non-admin on every devices call', async () => {
    const device = await createDevice(context, { title: 'Guarded' });
    const workstation = (
      await api(context).post('/api/devices/workstations', { assignedPatients: [], assignedWorkstations: [] })
    ).json();
    const stat = await createStat(context, device.id, 1_700_000_000_000);
    const job = (
      await api(context).post('/api/devices/jobs', { purpose: 'x', commands: ['reboot'], device: device.id })
    ).json();
    const calls: [string, string, object?][] = [
      ['GET', '/api/devices'],
      ['GET', `/api/devices/${device.id}`],
      ['POST', '/api/devices', { title: 'x' }],
      ['PATCH', `/api/devices/${device.id}`, { title: 'x' }],
      ['DELETE', `/api/devices/${device.id}`],
      ['POST', `/api/devices/${device.id}/token`],
      ['GET', `/api/devices/${device.id}/last-stats-submission`],
      ['GET', '/api/devices/stats'],
      ['GET', `/api/devices/stats/${stat.id}`],
      ['PATCH', `/api/devices/stats/${stat.id}`, { firmware: 'x' }],
      ['DELETE', `/api/devices/stats/${stat.id}`],
      ['GET', '/api/devices/workstations'],
      ['GET', `/api/devices/workstations/${workstation.id}`],
      ['POST', '/api/devices/workstations', { assignedPatients: [], assignedWorkstations: [] }],
      ['PATCH', `/api/devices/workstations/${workstation.id}`, { title: 'x' }],
      ['DELETE', `/api/devices/workstations/${workstation.id}`],
      ['POST', `/api/devices/workstations/${workstation.id}/assigned-patient/add`, { id: context.userId }],
      ['POST', `/api/devices/workstations/${workstation.id}/assigned-patient/remove`, { id: context.userId }],
      ['GET', '/api/devices/jobs'],
      ['GET', `/api/devices/jobs/${job.id}`],
      ['POST', '/api/devices/jobs', { purpose: 'x', commands: ['reboot'], device: device.id }],
      ['PATCH', `/api/devices/jobs/${job.id}`, { status: 'CANCELLED' }],
      ['DELETE', `/api/devices/jobs/${job.id}`],
    ];
    for (const [method, url, payload] of calls) {
      const options = { method: method as 'GET', url, ...(payload ? { payload } : {}) };
      const anonymous = await context.app.inject(options);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const nurse = await context.app.inject({
        ...options,
        headers: { authorization: `Bearer ${context.userToken}` },
      });
      expect(nurse.statusCode, `${method} ${url}`).toBe(403);
    }
    // Nothing changed.
    expect((await api(context).get(`/api/devices/${device.id}`)).json().title).toBe('Guarded');
    expect((await api(context).get(`/api/devices/jobs/${job.id}`)).json().status).toBe('NEW');
  });

  it('describes the devices calls in the OpenAPI document', async () => {
    const response = await context.app.inject({ url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    for (const path of [
      '/api/devices',
      '/api/devices/{id}/token',
      '/api/devices/{id}/last-stats-submission',
      '/api/devices/stats',
      '/api/devices/workstations/{id}/assigned-patient/add',
      '/api/devices/jobs/{id}',
    ]) {
      expect(paths).toContain(path);
    }
  });
});
