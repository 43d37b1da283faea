import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceRunnerJobs } from '@/db/schema/index.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { createDevice, createUser } from '@/test/factories.js';
import { auditRows, ids } from '@/test/records.js';

let context: TestContext;
let deviceId: string;
beforeAll(async () => {
  context = await createTestContext();
  deviceId = (await createDevice(context, { title: 'Runner' })).id;
});
afterAll(async () => {
  await context?.close();
});

const MISSING = '0190f6a2-6d3b-7c8e-9f00-00000000dead';

async function createJob(body: Record<string, unknown> = {}, token = context.adminToken) {
  const response = await api(context, token).post('/api/devices/jobs', {
    purpose: 'Restart after update',
    commands: ['reboot'],
    device: deviceId,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string } & Record<string, unknown>>();
}

const result = (command: string, exitCode: number | null = 0) => ({
  command,
  exitCode,
  stdout: `${command} done`,
  stderr: '',
  startedAt: '2030-01-01T08:00:00.000Z',
  finishedAt: '2030-01-01T08:00:03.000Z',
});

describe('runner jobs: create (spec §5 runner job submit)', () => {
  it('creates a job from a submission with the defaults of spec §9 and the caller as creator', async () => {
    const before = Date.now();
    const job = await createJob({ commands: ['collect-logs', 'ping 10.0.0.1'] });
    expect(job).toMatchObject({
      purpose: 'Restart after update',
      commands: ['collect-logs', 'ping 10.0.0.1'],
      results: [],
      status: 'NEW',
      deviceId,
      createdByUserId: context.adminUserId,
    });
    const notBefore = Date.parse(job.notBefore as string);
    expect(notBefore).toBeGreaterThanOrEqual(before - 5_000);
    expect(notBefore).toBeLessThanOrEqual(Date.now() + 5_000);
    const [entry] = await auditRows(context, 'device-jobs', job.id);
    expect(entry).toMatchObject({ action: 'create', actorUserId: context.adminUserId });
  });

  it("stores a blank purpose as 'No purpose provided.' and keeps a given notBefore", async () => {
    const job = await createJob({ purpose: '   ', notBefore: '2030-05-01T10:00:00+02:00' });
    expect(job.purpose).toBe('No purpose provided.');
    expect(job.notBefore).toBe('2030-05-01T08:00:00.000Z');
  });

  it('refuses invalid submissions with 400 and stores nothing', async () => {
    const valid = { purpose: 'x', commands: ['reboot'], device: deviceId };
    const without = (field: string) => {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      return body;
    };
    const bad: [string, unknown][] = [
      ['no purpose', without('purpose')],
      ['no commands', without('commands')],
      ['no device', without('device')],
      ['empty commands', { ...valid, commands: [] }],
      ['blank command', { ...valid, commands: [''] }],
      ['command not text', { ...valid, commands: [42] }],
      ['too many commands', { ...valid, commands: Array(51).fill('reboot') }],
      ['huge command', { ...valid, commands: ['x'.repeat(1001)] }],
      ['huge purpose', { ...valid, purpose: 'x'.repeat(501) }],
      ['NUL in purpose', { ...valid, purpose: 'a\u0000' }],
      ['device not a uuid', { ...valid, device: 'x' }],
      ['unknown device', { ...valid, device: MISSING }],
      ['notBefore not a date', { ...valid, notBefore: 'soon' }],
      ['notBefore as a number', { ...valid, notBefore: 1_900_000_000_000 }],
      ['status set by the client', { ...valid, status: 'SUCCEEDED' }],
      ['results set by the client', { ...valid, results: [] }],
      ['createdByUser set by the client', { ...valid, createdByUser: context.userId }],
    ];
    const before = await context.database.db.$count(deviceRunnerJobs);
    for (const [label, body] of bad) {
      const response = await api(context).post('/api/devices/jobs', body);
      expect(response.statusCode, label).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect(await context.database.db.$count(deviceRunnerJobs)).toBe(before);
  });

  it('refuses a notBefore outside 1970 to 9999 naming it, before the database is asked (decision 111)', async () => {
    const valid = { purpose: 'x', commands: ['reboot'], device: deviceId };
    const before = await context.database.db.$count(deviceRunnerJobs);
    for (const notBefore of ['0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '1970-01-01T00:30:00+01:00']) {
      const response = await api(context).post('/api/devices/jobs', { ...valid, notBefore });
      expect(response.statusCode, `${notBefore}: ${response.body}`).toBe(400);
      expect(response.json().issues).toEqual([
        { path: 'body.notBefore', message: 'Must be between 1970 and 9999' },
      ]);
    }
    const thai = await context.app.inject({
      method: 'POST',
      url: '/api/devices/jobs',
      headers: { authorization: `Bearer ${context.adminToken}`, 'accept-language': 'th' },
      payload: { ...valid, notBefore: '0000-01-01T00:00:00Z' },
    });
    expect(thai.json().issues[0].message).toContain('9999');
    expect(thai.json().issues[0].message).not.toBe('Must be between 1970 and 9999');
    expect(await context.database.db.$count(deviceRunnerJobs)).toBe(before);
    const latest = await createJob({ notBefore: '9999-12-31T23:59:59Z' });
    expect(latest.notBefore).toBe('9999-12-31T23:59:59.000Z');
  });

  it("refuses the agent's own commands without what they need, saying what to add, in English and Thai", async () => {
    const valid = { purpose: 'Check the network', device: deviceId };
    const before = await context.database.db.$count(deviceRunnerJobs);
    for (const [command, message] of [
      ['ping', 'ping needs a host name or address after it, such as ping 10.0.0.1'],
      ['ping -f 10.0.0.1', 'ping needs a host name or address after it, such as ping 10.0.0.1'],
      ['ping $(reboot)', 'ping needs a host name or address after it, such as ping 10.0.0.1'],
      ['notify', 'notify needs the text to show after it, such as notify Take your tablets'],
      ['notify   ', 'notify needs the text to show after it, such as notify Take your tablets'],
    ] as const) {
      const response = await api(context).post('/api/devices/jobs', {
        ...valid,
        commands: ['collect-logs', command],
      });
      expect(response.statusCode, command).toBe(400);
      expect(response.json().issues, command).toEqual([{ path: 'body.commands.1', message }]);
    }
    const thai = await context.app.inject({
      method: 'POST',
      url: '/api/devices/jobs',
      headers: { authorization: `Bearer ${context.adminToken}`, 'accept-language': 'th' },
      payload: { ...valid, commands: ['ping'] },
    });
    expect(thai.statusCode).toBe(400);
    expect(thai.json().issues[0].message).toBe(
      'รายการที่ 1 ของคำสั่ง: คำสั่ง ping ต้องตามด้วยชื่อโฮสต์หรือที่อยู่ เช่น ping 10.0.0.1',
    );
    expect(await context.database.db.$count(deviceRunnerJobs)).toBe(before);

    // With what they need, they are taken, as is any other text (a shell command, decisions §7).
    const taken = await api(context).post('/api/devices/jobs', {
      ...valid,
      commands: ['ping gateway.local', 'notify Take your tablets', 'uptime'],
    });
    expect(taken.statusCode, taken.body).toBe(201);
  });

  it('refuses a caller whose token claims admin but who has no user record (rights come from the record)', async () => {
    const stranger = await context.signer.sign({ roles: ['admin'] }, { subject: randomUUID() });
    const response = await api(context, stranger).post('/api/devices/jobs', {
      purpose: 'x',
      commands: ['reboot'],
      device: deviceId,
    });
    expect(response.statusCode).toBe(403);
    const jobs = await api(context).get(
      `/api/devices/jobs?filters=device.id~${deviceId}&filtersLike=purpose~x`,
    );
    expect(jobs.json().items.filter((job: { purpose: string }) => job.purpose === 'x')).toEqual([]);
  });
});

describe('runner jobs: what an admin may change (decisions §7, decision 025)', () => {
  let device: { id: string; token: string };
  beforeAll(async () => {
    device = await createDevice(context, { title: 'Admin-side runner' });
  });
  const asDevice = (method: 'GET' | 'POST', url: string, payload?: object) =>
    context.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${device.token}` },
      ...(payload ? { payload } : {}),
    });
  /** The device fetches and acknowledges its next job. */
  async function accept() {
    const fetched = await asDevice('GET', '/api/devices/me/jobs/next?wait=0');
    expect(fetched.statusCode, fetched.body).toBe(200);
    const id = fetched.json<{ id: string }>().id;
    expect((await asDevice('POST', `/api/devices/me/jobs/${id}/ack`)).statusCode).toBe(200);
    return id;
  }

  it('cancels from NEW and from ACCEPTED, never from RUNNING', async () => {
    const fresh = await createJob({ device: device.id });
    const cancelled = await api(context).patch(`/api/devices/jobs/${fresh.id}`, { status: 'CANCELLED' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', leaseExpiresAt: null });

    await createJob({ device: device.id });
    const accepted = await accept();
    expect(
      (await api(context).patch(`/api/devices/jobs/${accepted}`, { status: 'CANCELLED' })).statusCode,
    ).toBe(200);

    await createJob({ device: device.id });
    const running = await accept();
    await asDevice('POST', `/api/devices/me/jobs/${running}/status`, { status: 'RUNNING' });
    expect(
      (await api(context).patch(`/api/devices/jobs/${running}`, { status: 'CANCELLED' })).statusCode,
    ).toBe(409);
    expect((await api(context).get(`/api/devices/jobs/${running}`)).json().status).toBe('RUNNING');
    const actions = (await auditRows(context, 'device-jobs', fresh.id)).map((row) => row.action);
    expect(actions).toEqual(['create', 'update']);
  });

  it("refuses every other status from an admin with 409: those steps are the device's", async () => {
    const job = await createJob({ device: device.id });
    for (const status of ['NEW', 'ACCEPTED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT']) {
      const response = await api(context).patch(`/api/devices/jobs/${job.id}`, {
        status,
        results: [result('reboot')],
      });
      expect(response.statusCode, status).toBe(409);
      expect(response.json()).toMatchObject({ statusCode: 409, error: 'Conflict' });
    }
    expect((await api(context).get(`/api/devices/jobs/${job.id}`)).json()).toMatchObject({
      status: 'NEW',
      results: [],
    });
    // Cancelled is final.
    await api(context).patch(`/api/devices/jobs/${job.id}`, { status: 'CANCELLED' });
    expect(
      (await api(context).patch(`/api/devices/jobs/${job.id}`, { status: 'CANCELLED' })).statusCode,
    ).toBe(409);
  });

  it('refuses invalid updates with 400 and unknown jobs with 404', async () => {
    const job = await createJob();
    const bad: [string, unknown][] = [
      ['no status', { results: [] }],
      ['empty body', {}],
      ['unknown status', { status: 'DONE' }],
      ['lower-case status', { status: 'accepted' }],
      ['purpose is not updatable', { status: 'ACCEPTED', purpose: 'x' }],
      ['commands are not updatable', { status: 'ACCEPTED', commands: ['x'] }],
      ['device is not updatable', { status: 'ACCEPTED', device: deviceId }],
      ['result without stderr', { status: 'ACCEPTED', results: [{ ...result('x'), stderr: undefined }] }],
      ['result with extra field', { status: 'ACCEPTED', results: [{ ...result('x'), pid: 4 }] }],
      [
        'stdout beyond the bound',
        { status: 'ACCEPTED', results: [{ ...result('x'), stdout: 'x'.repeat(8193) }] },
      ],
      ['exit code not an integer', { status: 'ACCEPTED', results: [{ ...result('x'), exitCode: 0.5 }] }],
      ['startedAt not a date', { status: 'ACCEPTED', results: [{ ...result('x'), startedAt: 'now' }] }],
      ['too many results', { status: 'ACCEPTED', results: Array(51).fill(result('x')) }],
    ];
    for (const [label, body] of bad) {
      expect((await api(context).patch(`/api/devices/jobs/${job.id}`, body)).statusCode, label).toBe(400);
    }
    expect((await api(context).get(`/api/devices/jobs/${job.id}`)).json().status).toBe('NEW');
    expect(
      (await api(context).patch(`/api/devices/jobs/${MISSING}`, { status: 'ACCEPTED' })).statusCode,
    ).toBe(404);
    expect((await api(context).patch('/api/devices/jobs/x', { status: 'ACCEPTED' })).statusCode).toBe(400);
  });

  it('deletes a job', async () => {
    const job = await createJob();
    expect((await api(context).delete(`/api/devices/jobs/${job.id}`)).statusCode).toBe(204);
    expect((await api(context).get(`/api/devices/jobs/${job.id}`)).statusCode).toBe(404);
    const actions = (await auditRows(context, 'device-jobs', job.id)).map((row) => row.action);
    expect(actions).toEqual(['create', 'delete']);
  });
});

describe('runner jobs list', () => {
  let device: string;
  let otherDevice: string;
  let creator: { id: string; token: string };
  const jobs: Record<string, string> = {};

  beforeAll(async () => {
    device = (await createDevice(context, { title: 'Listed' })).id;
    otherDevice = (await createDevice(context, { title: 'Listed too' })).id;
    creator = await createUser(context, { firstName: 'cora', roles: ['admin'] });
    jobs.reboot = (
      await createJob({ device, purpose: 'Nightly reboot', notBefore: '2030-01-03T00:00:00Z' })
    ).id;
    jobs.logs = (
      await createJob({
        device,
        purpose: 'Collect logs',
        commands: ['collect-logs'],
        notBefore: '2030-01-01T00:00:00Z',
      })
    ).id;
    jobs.notify = (
      await createJob(
        {
          device: otherDevice,
          purpose: 'Say hello',
          commands: ['notify hello'],
          notBefore: '2030-01-02T00:00:00Z',
        },
        creator.token,
      )
    ).id;
    // Accepting is the device's step (decision 025); the list only needs a job in that state.
    await context.database.db
      .update(deviceRunnerJobs)
      .set({ status: 'ACCEPTED' })
      .where(eq(deviceRunnerJobs.id, jobs.logs));
    await api(context).patch(`/api/devices/jobs/${jobs.notify}`, { status: 'CANCELLED' });
  });

  const list = async (query: string) => {
    const response = await api(context).get(
      `/api/devices/jobs?filters=device.id~${device},${otherDevice}&${query}`,
    );
    expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
    return response.json();
  };

  it('filters by status, device, creator and id', async () => {
    expect(ids(await list('filters=status~NEW'))).toEqual([jobs.reboot]);
    expect(ids(await list('filters=status~ACCEPTED,CANCELLED&sort=notBefore:asc'))).toEqual([
      jobs.logs,
      jobs.notify,
    ]);
    expect((await list(`filters=device.id~${otherDevice}`)).total).toBe(1);
    expect(ids(await list(`filters=createdByUser.id~${creator.id}`))).toEqual([jobs.notify]);
    expect((await list(`filters=createdByUser.id~${creator.id},${context.adminUserId}`)).total).toBe(3);
    expect(ids(await list(`filters=id~${jobs.logs}`))).toEqual([jobs.logs]);
    expect(ids(await list('filters=purpose~Collect logs'))).toEqual([jobs.logs]);
  });

  it('searches purpose, commands and partial ids', async () => {
    expect(ids(await list('filtersLike=purpose~nightly'))).toEqual([jobs.reboot]);
    expect(ids(await list('filtersLike=commands~notify'))).toEqual([jobs.notify]);
    expect(ids(await list(`filtersLike=id~${jobs.notify!.slice(-8)}`))).toEqual([jobs.notify]);
    expect((await list(`filtersLike=device.id~${device.slice(-12)}`)).total).toBe(2);
  });

  it('sorts, pages, counts and embeds relations', async () => {
    expect(ids(await list('sort=notBefore:desc'))).toEqual([jobs.reboot, jobs.notify, jobs.logs]);
    expect(ids(await list('sort=status:asc&sort=notBefore:asc'))).toEqual([
      jobs.logs,
      jobs.notify,
      jobs.reboot,
    ]);
    expect(ids(await list('sort=purpose:asc'))).toEqual([jobs.logs, jobs.reboot, jobs.notify]);
    const page = await list('sort=notBefore:asc&limit=1&offset=1');
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(ids(page)).toEqual([jobs.notify]);
    const [item] = (await list(`filters=id~${jobs.notify}&relations=device,createdByUser`)).items;
    expect(item).toMatchObject({ device: { id: otherDevice }, createdByUser: { id: creator.id } });
    expect(item.device).not.toHaveProperty('tokenHash');
  });

  it('refuses unknown paths and mistyped values with 400', async () => {
    for (const query of [
      'filters=status~DONE',
      'filters=results~x',
      'filters=createdByUser.id~me',
      'filtersLike=status~x',
      'sort=results:asc',
      'relations=results',
      'relations=device.owner',
      'from=1',
    ]) {
      expect((await api(context).get(`/api/devices/jobs?${query}`)).statusCode, query).toBe(400);
    }
  });

  it('clears createdByUser when the creating user is deleted (spec §3)', async () => {
    expect((await api(context).delete(`/api/users/${creator.id}`)).statusCode).toBe(204);
    const job = await api(context).get(`/api/devices/jobs/${jobs.notify}`);
    expect(job.statusCode).toBe(200);
    expect(job.json().createdByUserId).toBeNull();
  });

  it('deletes the jobs of a deleted device (spec §3)', async () => {
    expect((await api(context).delete(`/api/devices/${device}`)).statusCode).toBe(204);
    expect((await api(context).get(`/api/devices/jobs/${jobs.reboot}`)).statusCode).toBe(404);
    expect((await api(context).get(`/api/devices/jobs/${jobs.logs}`)).statusCode).toBe(404);
    expect((await api(context).get(`/api/devices/jobs/${jobs.notify}`)).statusCode).toBe(200);
  });
});
