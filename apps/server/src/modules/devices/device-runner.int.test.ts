// Runner jobs from the device's side (decisions §7, decision 025): long-polled fetch, hand-out to exactly one
// fetch, acknowledgement, reports, notBefore, time-out of silent devices, and every refusal.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createLocalJWKSet } from 'jose';
import { buildApp } from '@/app.js';
import { deviceRunnerJobs, devices } from '@/db/schema/index.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { createDevice } from '@/test/factories.js';
import { auditRows } from '@/test/records.js';
import { createStore } from '@/lib/store.js';
import { createDevicesService, generateDeviceToken, hashDeviceToken } from './devices.service.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const MISSING = '0190f6a2-6d3b-7c8e-9f00-00000000dead';

type Device = { id: string; token: string };
type App = TestContext['app'];
type Job = { id: string; status: string; results: unknown[]; leaseExpiresAt: string | null };

const call = (device: Device, method: 'GET' | 'POST', url: string, payload?: object) =>
  context.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${device.token}` },
    ...(payload ? { payload } : {}),
  });
const fetchNext = (device: Device, wait = 0) => call(device, 'GET', `/api/devices/me/jobs/next?wait=${wait}`);
const ack = (device: Device, id: string) => call(device, 'POST', `/api/devices/me/jobs/${id}/ack`);
const report = (device: Device, id: string, body: object) =>
  call(device, 'POST', `/api/devices/me/jobs/${id}/status`, body);

async function createJob(device: Device, body: Record<string, unknown> = {}) {
  const response = await api(context).post('/api/devices/jobs', {
    purpose: 'Maintenance',
    commands: ['collect-logs'],
    device: device.id,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Job>();
}

const result = (command: string, exitCode: number | null = 0) => ({
  command,
  exitCode,
  stdout: `${command} done`,
  stderr: '',
  startedAt: '2030-01-01T08:00:00.000Z',
  finishedAt: '2030-01-01T08:00:03.000Z',
});

/** Moves a job's lease (or hand-out) into the past, as if the device had been silent that long. */
const expireLease = (id: string) =>
  context.database.db
    .update(deviceRunnerJobs)
    .set({ leaseExpiresAt: sql`now() - interval '1 second'` })
    .where(eq(deviceRunnerJobs.id, id));

/**
 * Starts a long poll of `device` on `app` (asking in `language`, when given) and resolves once it is waiting:
 * the device has a job whose lease passed, and the fetch's first look times it out; that change (relayed
 * between processes like every other) is the sign that the fetch has looked and now waits.
 */
async function startWaiting(
  device: Device,
  { app = context.app, language }: { app?: App; language?: string } = {},
) {
  const stuck = await createJob(device, { purpose: 'Stuck' });
  await fetchNext(device);
  await ack(device, stuck.id);
  await expireLease(stuck.id);
  const looked = new Promise<void>((resolve) => {
    const stop = context.app.changes.subscribe((changes) => {
      if (changes.some((change) => change.action === 'time-out' && change.recordId === stuck.id)) {
        stop();
        resolve();
      }
    });
  });
  // inject() sends when its answer is asked for: then() starts it now.
  const answer = app
    .inject({
      method: 'GET',
      url: '/api/devices/me/jobs/next?wait=60',
      headers: {
        authorization: `Bearer ${device.token}`,
        ...(language ? { 'accept-language': language } : {}),
      },
    })
    .then((response) => response);
  await looked;
  // Wrapped: an async function returning the promise itself would wait for the answer.
  return { answer };
}

const readJob = async (id: string) => (await api(context).get(`/api/devices/jobs/${id}`)).json<Job>();

describe('a job from fetch to result', () => {
  it('runs NEW → (fetched) → ACCEPTED → RUNNING (partial results) → SUCCEEDED', async () => {
    const device = await createDevice(context, { title: 'Lifecycle' });
    const job = await createJob(device, { commands: ['collect-logs', 'notify hello'] });

    const fetched = await fetchNext(device);
    expect(fetched.statusCode, fetched.body).toBe(200);
    expect(fetched.json()).toMatchObject({
      id: job.id,
      status: 'NEW',
      commands: ['collect-logs', 'notify hello'],
    });
    expect(fetched.json().leaseExpiresAt).not.toBeNull();
    // Fetched is not accepted: only the device's acknowledgement accepts it.
    expect((await readJob(job.id)).status).toBe('NEW');

    const accepted = await ack(device, job.id);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().status).toBe('ACCEPTED');
    expect((await report(device, job.id, { status: 'RUNNING' })).json().status).toBe('RUNNING');
    const partial = await report(device, job.id, { status: 'RUNNING', results: [result('collect-logs')] });
    expect(partial.json()).toMatchObject({ status: 'RUNNING', results: [result('collect-logs')] });
    const done = await report(device, job.id, {
      status: 'SUCCEEDED',
      results: [result('collect-logs'), result('notify hello')],
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'SUCCEEDED', leaseExpiresAt: null });
    expect((await readJob(job.id)).results).toEqual([result('collect-logs'), result('notify hello')]);

    // Finished: nothing moves any more, and the job is not handed out again.
    for (const status of ['RUNNING', 'SUCCEEDED', 'FAILED']) {
      expect((await report(device, job.id, { status })).statusCode, status).toBe(409);
    }
    expect((await ack(device, job.id)).statusCode).toBe(409);
    expect((await fetchNext(device)).statusCode).toBe(204);

    const rows = await auditRows(context, 'device-jobs', job.id);
    expect(rows.map((row) => row.action)).toEqual([
      'create',
      'hand-out',
      'update',
      'update',
      'update',
      'update',
    ]);
    expect(rows[2]).toMatchObject({ actorUserId: null, actorSubject: `device:${device.id}` });
  });

  it('records a failure with a null exit code', async () => {
    const device = await createDevice(context, { title: 'Failing' });
    const job = await createJob(device, { commands: ['reboot'] });
    await fetchNext(device);
    await ack(device, job.id);
    await report(device, job.id, { status: 'RUNNING' });
    const failed = await report(device, job.id, { status: 'FAILED', results: [result('reboot', null)] });
    expect(failed.json()).toMatchObject({ status: 'FAILED', results: [{ exitCode: null }] });
  });

  it('hands out jobs oldest first, one per fetch', async () => {
    const device = await createDevice(context, { title: 'Queue' });
    const first = await createJob(device, { notBefore: '2020-01-01T00:00:00Z' });
    const second = await createJob(device, { notBefore: '2020-01-02T00:00:00Z' });
    expect((await fetchNext(device)).json().id).toBe(first.id);
    expect((await fetchNext(device)).json().id).toBe(second.id);
    expect((await fetchNext(device)).statusCode).toBe(204);
  });
});

describe('refusals', () => {
  it('refuses illegal steps with 409 and leaves the job as it was', async () => {
    const device = await createDevice(context, { title: 'Strict' });
    const job = await createJob(device);
    // Not fetched yet: no acknowledgement, no report.
    expect((await ack(device, job.id)).statusCode).toBe(409);
    for (const status of ['RUNNING', 'SUCCEEDED', 'FAILED']) {
      expect((await report(device, job.id, { status })).statusCode, status).toBe(409);
    }
    await fetchNext(device);
    // Fetched: still NEW, so no report before the acknowledgement.
    expect((await report(device, job.id, { status: 'RUNNING' })).statusCode).toBe(409);
    expect((await ack(device, job.id)).statusCode).toBe(200);
    expect((await ack(device, job.id)).statusCode).toBe(409);
    for (const status of ['SUCCEEDED', 'FAILED']) {
      const refused = await report(device, job.id, { status, results: [result('collect-logs')] });
      expect(refused.statusCode, status).toBe(409);
      expect(refused.json()).toMatchObject({ statusCode: 409, error: 'Conflict' });
    }
    expect(await readJob(job.id)).toMatchObject({ status: 'ACCEPTED', results: [] });
  });

  it('refuses bad reports and queries with 400', async () => {
    const device = await createDevice(context, { title: 'Picky' });
    const job = await createJob(device);
    await fetchNext(device);
    await ack(device, job.id);
    const bad: [string, object][] = [
      ['no status', { results: [] }],
      ['an admin status', { status: 'CANCELLED' }],
      ['ACCEPTED is the ack', { status: 'ACCEPTED' }],
      ['TIMED_OUT is the server', { status: 'TIMED_OUT' }],
      ['unknown field', { status: 'RUNNING', purpose: 'x' }],
      [
        'output beyond the bound',
        { status: 'RUNNING', results: [{ ...result('x'), stdout: 'x'.repeat(8193) }] },
      ],
      [
        'result without its times',
        { status: 'RUNNING', results: [{ command: 'x', exitCode: 0, stdout: '', stderr: '' }] },
      ],
    ];
    for (const [label, body] of bad) {
      expect((await report(device, job.id, body)).statusCode, label).toBe(400);
    }
    for (const query of ['wait=-1', 'wait=61', 'wait=soon', 'limit=3']) {
      expect((await call(device, 'GET', `/api/devices/me/jobs/next?${query}`)).statusCode, query).toBe(400);
    }
    expect((await ack(device, 'x')).statusCode).toBe(400);
    expect((await readJob(job.id)).status).toBe('ACCEPTED');
  });

  it("answers 404 for another device's job and unknown jobs, and never hands out another device's job", async () => {
    const mine = await createDevice(context, { title: 'Mine' });
    const theirs = await createDevice(context, { title: 'Theirs' });
    const job = await createJob(theirs);
    expect((await fetchNext(mine)).statusCode).toBe(204);
    await fetchNext(theirs);
    expect((await ack(mine, job.id)).statusCode).toBe(404);
    expect((await report(mine, job.id, { status: 'RUNNING' })).statusCode).toBe(404);
    expect((await ack(mine, MISSING)).statusCode).toBe(404);
    expect((await readJob(job.id)).status).toBe('NEW');
  });

  it('opens the device routes to devices only: people get 401', async () => {
    const device = await createDevice(context, { title: 'People' });
    const job = await createJob(device);
    for (const token of [context.adminToken, context.userToken]) {
      const person = { id: device.id, token };
      expect((await fetchNext(person)).statusCode).toBe(401);
      expect((await ack(person, job.id)).statusCode).toBe(401);
      expect((await report(person, job.id, { status: 'RUNNING' })).statusCode).toBe(401);
    }
    // And the admin's job routes are closed to the device.
    expect((await call(device, 'GET', `/api/devices/jobs/${job.id}`)).statusCode).toBe(401);
    expect((await call(device, 'GET', '/api/devices/jobs')).statusCode).toBe(401);
  });

  it('does not hand out a cancelled job, nor let the device go on with one cancelled after its ack', async () => {
    const device = await createDevice(context, { title: 'Cancelled' });
    const job = await createJob(device);
    await api(context).patch(`/api/devices/jobs/${job.id}`, { status: 'CANCELLED' });
    expect((await fetchNext(device)).statusCode).toBe(204);
    const later = await createJob(device);
    await fetchNext(device);
    await ack(device, later.id);
    await api(context).patch(`/api/devices/jobs/${later.id}`, { status: 'CANCELLED' });
    expect((await report(device, later.id, { status: 'RUNNING' })).statusCode).toBe(409);
  });
});

describe('notBefore', () => {
  it('keeps a job back until it is due', async () => {
    const device = await createDevice(context, { title: 'Later' });
    const job = await createJob(device, { notBefore: '2099-01-01T00:00:00Z' });
    expect((await fetchNext(device)).statusCode).toBe(204);
    expect((await ack(device, job.id)).statusCode).toBe(409);
    // Now due.
    await context.database.db
      .update(deviceRunnerJobs)
      .set({ notBefore: sql`now() - interval '1 second'` })
      .where(eq(deviceRunnerJobs.id, job.id));
    expect((await fetchNext(device)).json().id).toBe(job.id);
  });
});

describe('concurrent fetches', () => {
  it('hand a job to exactly one of them', async () => {
    const device = await createDevice(context, { title: 'Crowded' });
    const job = await createJob(device);
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetchNext(device)));
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes).toEqual([200, 204, 204, 204, 204, 204]);
    expect(answers.find((answer) => answer.statusCode === 200)!.json().id).toBe(job.id);
    const handOuts = (await auditRows(context, 'device-jobs', job.id)).filter(
      (row) => row.action === 'hand-out',
    );
    expect(handOuts).toHaveLength(1);
  });

  it('let exactly one of several acknowledgements win', async () => {
    const device = await createDevice(context, { title: 'Eager' });
    const job = await createJob(device);
    await fetchNext(device);
    const codes = (await Promise.all(Array.from({ length: 4 }, () => ack(device, job.id))))
      .map((answer) => answer.statusCode)
      .sort();
    expect(codes).toEqual([200, 409, 409, 409]);
  });
});

describe('long poll', () => {
  it('answers a waiting fetch as soon as a job is created for its device', async () => {
    const device = await createDevice(context, { title: 'Waiting' });
    const other = await createDevice(context, { title: 'Bystander' });
    let answered = false;
    const waiting = (await startWaiting(device)).answer.then((answer) => {
      answered = true;
      return answer;
    });
    // A job of another device does not answer it.
    await createJob(other);
    expect(answered).toBe(false);
    const job = await createJob(device);
    const answer = await waiting;
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().id).toBe(job.id);
  });

  it('answers a waiting fetch when a held-back job becomes due', async () => {
    const device = await createDevice(context, { title: 'Patient' });
    const job = await createJob(device, { notBefore: new Date(Date.now() + 1500).toISOString() });
    const answer = await fetchNext(device, 60);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().id).toBe(job.id);
  });

  it('answers a fetch waiting on another server process when a job is created through this one', async () => {
    // A second app on the same database stands for a second server process: the job's change reaches it
    // through PostgreSQL NOTIFY, not through memory.
    const other = await buildApp(context.config, {
      database: context.database,
      keys: createLocalJWKSet({ keys: [context.signer.jwk] }),
      logger: false,
    });
    await other.ready();
    try {
      const device = await createDevice(context, { title: 'Behind another process' });
      const waiting = (await startWaiting(device, { app: other })).answer;
      const job = await createJob(device);
      const answer = await waiting;
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().id).toBe(job.id);
    } finally {
      await other.close();
    }
  });

  it('answers 204 at once with wait=0 when nothing is due', async () => {
    const device = await createDevice(context, { title: 'Idle' });
    expect((await fetchNext(device, 0)).statusCode).toBe(204);
  });
});

describe('a fetch whose token ends while it waits', () => {
  /** The hand-outs of a job in its audit log: a job the refused fetch got would show one more. */
  const handOuts = async (id: string) =>
    (await auditRows(context, 'device-jobs', id)).filter((row) => row.action === 'hand-out').length;

  /**
   * A fetch of `device` through a runner of its own, on the app's database and change feed, which says when the
   * fetch has looked and waits; resolves then. What a test changes afterwards reaches the fetch only by waking
   * it. (A fetch through the API looks once more after startWaiting's sign, and that look alone would find a
   * changed token.)
   */
  async function fetchWaitingOnItsOwnRunner(device: Device) {
    let waits!: () => void;
    const waiting = new Promise<void>((resolve) => (waits = resolve));
    const { runner } = createDevicesService(createStore(context.database.db, context.app.changes), {
      onWait: (deviceId) => {
        if (deviceId === device.id) waits();
      },
    });
    const gone = new AbortController();
    const credential = { deviceId: device.id, tokenHash: hashDeviceToken(device.token) };
    const answer = runner.nextJob(credential, 60, { caller: null, ip: null }, gone.signal).then(
      (job) => ({ job }),
      (error: unknown) => ({ error }),
    );
    await waiting;
    return { answer, stop: () => gone.abort() };
  }

  /** What an ordinary call with `token` is answered now, to compare the ended fetch's refusal with. */
  const ordinaryRefusal = async (device: Device, language?: string) => {
    const answer = await context.app.inject({
      method: 'GET',
      url: '/api/devices/me',
      headers: {
        authorization: `Bearer ${device.token}`,
        ...(language ? { 'accept-language': language } : {}),
      },
    });
    expect(answer.statusCode, answer.body).toBe(401);
    return answer.json<{ message: string }>().message;
  };

  it('answers 401 after a re-key and leaves the job to the new token', async () => {
    const device = await createDevice(context, { title: 'Re-keyed while waiting' });
    const waiting = (await startWaiting(device)).answer;
    const rekeyed = await api(context).post(`/api/devices/${device.id}/token`);
    expect(rekeyed.statusCode, rekeyed.body).toBe(200);
    const job = await createJob(device);

    const answer = await waiting;
    expect(answer.statusCode, answer.body).toBe(401);
    expect(answer.json()).toMatchObject({ statusCode: 401, message: await ordinaryRefusal(device) });
    expect(answer.json().message).toBe('Invalid device token');
    expect(await readJob(job.id)).toMatchObject({ status: 'NEW', leaseExpiresAt: null });
    expect(await handOuts(job.id)).toBe(0);

    // The agent with the new token gets the job at once, and its fetches go on as before.
    const current = { id: device.id, token: rekeyed.json<{ token: string }>().token };
    const fetched = await fetchNext(current, 0);
    expect(fetched.statusCode, fetched.body).toBe(200);
    expect(fetched.json().id).toBe(job.id);
    expect((await ack(current, job.id)).statusCode).toBe(200);
    expect((await fetchNext(current, 0)).statusCode).toBe(204);
    expect((await fetchNext(device, 0)).statusCode).toBe(401);
  });

  it('answers 401 after a disable, in the language it asked in, and hands out nothing', async () => {
    const device = await createDevice(context, { title: 'Disabled while waiting' });
    const waiting = (await startWaiting(device, { language: 'th' })).answer;
    const disabled = await api(context).patch(`/api/devices/${device.id}`, { isEnabled: false });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const job = await createJob(device);

    const answer = await waiting;
    expect(answer.statusCode, answer.body).toBe(401);
    expect(answer.json()).toMatchObject({ statusCode: 401, message: await ordinaryRefusal(device, 'th') });
    expect(answer.json().message).toBe('โทเค็นของอุปกรณ์ไม่ถูกต้อง');
    expect(await readJob(job.id)).toMatchObject({ status: 'NEW', leaseExpiresAt: null });
    expect(await handOuts(job.id)).toBe(0);
    expect((await fetchNext(device, 0)).statusCode).toBe(401);

    // Enabled again, the same token gets the job at once: nothing held it.
    expect((await api(context).patch(`/api/devices/${device.id}`, { isEnabled: true })).statusCode).toBe(200);
    const fetched = await fetchNext(device, 0);
    expect(fetched.statusCode, fetched.body).toBe(200);
    expect(fetched.json().id).toBe(job.id);
  });

  it('ends at once on a re-key, without waiting for a job or the end of its wait', async () => {
    const device = await createDevice(context, { title: 'Re-keyed, nothing due' });
    const fetch = await fetchWaitingOnItsOwnRunner(device);
    // The fetch waits 60 s; a bound well inside it tells an answer at once from one at the wait's end.
    let bound: NodeJS.Timeout | undefined;
    const stillWaiting = new Promise<null>((resolve) => {
      bound = setTimeout(() => resolve(null), 10_000);
    });
    try {
      expect((await api(context).post(`/api/devices/${device.id}/token`)).statusCode).toBe(200);
      const answer = await Promise.race([fetch.answer, stillWaiting]);
      expect(answer, 'still waiting 10 s after the re-key').not.toBeNull();
      expect(answer).toMatchObject({ error: { statusCode: 401, message: 'Invalid device token' } });
    } finally {
      clearTimeout(bound);
      fetch.stop();
    }
  });

  it("takes no job with a token that is no longer the device's, even when it did not hear the change", async () => {
    const device = await createDevice(context, { title: 'Re-keyed unheard' });
    const fetch = await fetchWaitingOnItsOwnRunner(device);
    try {
      // The token is replaced straight in the database: no change is told, so only the job's creation wakes
      // the fetch, and the claim itself must find the token stale.
      const current = { id: device.id, token: generateDeviceToken() };
      await context.database.db
        .update(devices)
        .set({ tokenHash: hashDeviceToken(current.token) })
        .where(eq(devices.id, device.id));
      const job = await createJob(device);

      expect(await fetch.answer).toMatchObject({
        error: { statusCode: 401, message: 'Invalid device token' },
      });
      expect(await readJob(job.id)).toMatchObject({ status: 'NEW', leaseExpiresAt: null });
      expect(await handOuts(job.id)).toBe(0);
      expect((await fetchNext(current, 0)).json().id).toBe(job.id);
    } finally {
      fetch.stop();
    }
  });
});

describe('silent devices', () => {
  it('hands a job out again when its fetch never acknowledged it', async () => {
    const device = await createDevice(context, { title: 'Lost answer' });
    const job = await createJob(device);
    expect((await fetchNext(device)).json().id).toBe(job.id);
    expect((await fetchNext(device)).statusCode).toBe(204);
    await expireLease(job.id);
    expect((await fetchNext(device)).json().id).toBe(job.id);
  });

  it('times out an accepted or running job past its lease, and the next job still comes', async () => {
    const device = await createDevice(context, { title: 'Gone quiet' });
    const stuck = await createJob(device);
    await fetchNext(device);
    await ack(device, stuck.id);
    await report(device, stuck.id, { status: 'RUNNING' });
    const next = await createJob(device);
    await expireLease(stuck.id);

    const fetched = await fetchNext(device);
    expect(fetched.json().id).toBe(next.id);
    expect(await readJob(stuck.id)).toMatchObject({ status: 'TIMED_OUT', leaseExpiresAt: null });
    // A late report of the timed-out job is refused.
    expect((await report(device, stuck.id, { status: 'SUCCEEDED' })).statusCode).toBe(409);
    expect((await auditRows(context, 'device-jobs', stuck.id)).map((row) => row.action)).toContain(
      'time-out',
    );
    const listed = await api(context).get(
      `/api/devices/jobs?filters=status~TIMED_OUT&filters=device.id~${device.id}`,
    );
    expect(listed.json().total).toBe(1);
  });
});
