// Live events: a change committed through one server process reaches a stream opened at another process on
// the same database; a client resumes after its last event id (at either process); a supervisor's stream
// carries only their own center's changes; tickets are needed, signed and short-lived; an open stream follows
// its watcher's rights as an admin changes them (their roles, a center's staff).
import type { FastifyInstance } from 'fastify';
import { createLocalJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventEndpoints } from '@careplane/shared/events/events.contract';
import { buildApp } from '@/app.js';
import { openDatabase, type DatabaseHandle } from '@/db/client.js';
import { openEventStream, type EventStreamClient, type StreamEvent } from '@/test/event-stream.js';
import { createCommandCenter, createDevice, createStat, createUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
let second: FastifyInstance;
let secondDatabase: DatabaseHandle | undefined;
const base = { first: '', second: '' };
const streams: EventStreamClient[] = [];

let statTime = 1_700_000_000_000;
const newStat = (deviceId: string) => createStat(context, deviceId, (statTime += 1_000));

async function ticketFor(token: string, app: FastifyInstance = context.app) {
  const response = await app.inject({
    method: 'POST',
    url: eventEndpoints.ticket,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().ticket as string;
}

/** A stream at `where`, open and ready (every change committed from now on reaches it). */
async function watch(
  where: keyof typeof base,
  token = context.adminToken,
  resume?: { header?: string; query?: string },
) {
  const ticket = await ticketFor(token);
  const query = new URLSearchParams({ ticket, ...(resume?.query ? { lastEventId: resume.query } : {}) });
  const stream = await openEventStream(
    `${base[where]}${eventEndpoints.stream}?${query.toString()}`,
    resume?.header ? { 'last-event-id': resume.header } : {},
  );
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

const readyOf = (stream: EventStreamClient) => stream.next((event) => event.event === 'ready');
const changeOf = (stream: EventStreamClient) => stream.next((event) => event.event === 'change');
const body = (event: StreamEvent) => JSON.parse(event.data) as Record<string, unknown>;

beforeAll(async () => {
  context = await createTestContext();
  // A second server process on the same database: on PostgreSQL with connections of its own, as another
  // process would have; the embedded database has one handle, shared (its own change listener and origin).
  const { driver } = context.database;
  if (driver.kind === 'postgres') {
    const { connectionString } = driver.pool.options;
    secondDatabase = await openDatabase({ databaseUrl: connectionString!, poolSize: 3 });
  }
  second = await buildApp(context.config, {
    database: secondDatabase ?? context.database,
    keys: createLocalJWKSet({ keys: [context.signer.jwk] }),
    logger: false,
  });
  base.first = await context.app.listen({ port: 0, host: '127.0.0.1' });
  base.second = await second.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await second?.close();
  await secondDatabase?.close();
  await context?.close();
});

describe('live events: across server processes', () => {
  it('tells a stream at the second process of a stat and a job status committed through the first', async () => {
    const device = (await createDevice(context, { title: 'Ward tablet' })).id;
    const stream = await watch('second');
    await readyOf(stream);

    const stat = await newStat(device);
    const told = await changeOf(stream);
    expect(told.id).toMatch(/^[0-9a-f-]{36}\.\d+\.\d+$/);
    expect(body(told)).toEqual({
      resource: 'device-stats',
      action: 'create',
      recordId: stat.id,
      at: expect.any(Number),
    });

    const job = await api(context).post('/api/devices/jobs', {
      purpose: 'Update',
      commands: ['reboot'],
      device,
    });
    expect(job.statusCode, job.body).toBe(201);
    expect(body(await changeOf(stream))).toMatchObject({
      resource: 'device-jobs',
      action: 'create',
      recordId: job.json().id,
    });
    const cancelled = await api(context).patch(`/api/devices/jobs/${job.json().id}`, { status: 'CANCELLED' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(body(await changeOf(stream))).toMatchObject({
      resource: 'device-jobs',
      action: 'update',
      recordId: job.json().id,
    });
  });
});

describe('live events: resuming', () => {
  it('replays what a client missed after its last event id, at the same or another process', async () => {
    const device = (await createDevice(context, { title: 'Lobby kiosk' })).id;
    const first = await watch('first');
    await readyOf(first);
    const seen = await newStat(device);
    const lastSeen = await changeOf(first);
    expect(body(lastSeen).recordId).toBe(seen.id);
    first.close();

    // Missed while away; a witness at each process shows when both have heard them.
    const witnesses = [await watch('first'), await watch('second')];
    await Promise.all(witnesses.map(readyOf));
    const missed = [await newStat(device), await newStat(device)];
    for (const witness of witnesses) {
      expect(body(await changeOf(witness)).recordId).toBe(missed[0]!.id);
      expect(body(await changeOf(witness)).recordId).toBe(missed[1]!.id);
    }

    // The browser resends Last-Event-ID; a new EventSource passes it in the query.
    for (const resumed of [
      await watch('second', context.adminToken, { header: lastSeen.id }),
      await watch('first', context.adminToken, { query: lastSeen.id }),
    ]) {
      const replayed = [await resumed.next(), await resumed.next()];
      expect(replayed.map((event) => event.event)).toEqual(['change', 'change']);
      expect(replayed.map((event) => body(event).recordId)).toEqual(missed.map((stat) => stat.id));
      expect((await resumed.next()).event).toBe('ready');
    }
  });

  it('tells a client whose last event is unknown to resync', async () => {
    const stream = await watch('second', context.adminToken, { header: 'no-such-origin.1.0' });
    expect((await stream.next()).event).toBe('resync');
    expect((await stream.next()).event).toBe('ready');
  });
});

describe('live events: scoping', () => {
  it("tells a supervisor only the changes of their own center's records", async () => {
    const centers = await Promise.all(
      ['North', 'South'].map(async (name) => {
        const supervisor = await createUser(context, { firstName: name, localRoles: ['supervisor'] });
        const center = await createCommandCenter(context, { title: name, assignedUsers: [supervisor.id] });
        const device = (await createDevice(context, { title: `${name} tablet`, commandCenter: center.id }))
          .id;
        return { supervisor, device, own: [supervisor.id, center.id, device] };
      }),
    );
    const [north, south] = centers as [(typeof centers)[0], (typeof centers)[0]];
    const northStream = await watch('second', north.supervisor.token);
    const southStream = await watch('first', south.supervisor.token);
    const adminStream = await watch('first');
    await Promise.all([readyOf(northStream), readyOf(southStream), readyOf(adminStream)]);

    const northStat = await newStat(north.device);
    const southStat = await newStat(south.device);
    const otherDevice = (await createDevice(context, { title: 'No center' })).id;
    const otherStat = await newStat(otherDevice);
    const laterNorthStat = await newStat(north.device);

    // Each stream's stats, in order: its own center's only. The making of the center's own records can still
    // be on its way when the stream opens (PostgreSQL delivers a notification when it does); those may come
    // first, and nothing else.
    const nextStat = async (stream: EventStreamClient, own: unknown[]) => {
      for (;;) {
        const change = body(await changeOf(stream));
        if (change.resource === 'device-stats') return change.recordId;
        expect(own).toContain(change.recordId);
      }
    };
    expect(await nextStat(northStream, north.own)).toBe(northStat.id);
    expect(await nextStat(northStream, north.own)).toBe(laterNorthStat.id);
    expect(await nextStat(southStream, south.own)).toBe(southStat.id);
    // An admin hears them all (the device made without a center too).
    const statsHeard: unknown[] = [];
    while (statsHeard.length < 4) {
      const change = body(await changeOf(adminStream));
      if (change.resource === 'device-stats') statsHeard.push(change.recordId);
    }
    expect(statsHeard).toEqual([northStat.id, southStat.id, otherStat.id, laterNorthStat.id]);
  });
});

describe('live events: tickets', () => {
  it('asks a token for a ticket, and refuses users who supervise no center', async () => {
    expect((await context.app.inject({ method: 'POST', url: eventEndpoints.ticket })).statusCode).toBe(401);
    const nurse = await context.app.inject({
      method: 'POST',
      url: eventEndpoints.ticket,
      headers: { authorization: `Bearer ${context.userToken}` },
    });
    expect(nurse.statusCode).toBe(403);
    const { ticket, expiresAt } = (
      await context.app.inject({
        method: 'POST',
        url: eventEndpoints.ticket,
        headers: { authorization: `Bearer ${context.adminToken}` },
      })
    ).json();
    expect(typeof ticket).toBe('string');
    expect(typeof expiresAt).toBe('number');
  });

  it('opens no stream without a ticket, with a changed one or a bearer token instead', async () => {
    const ticket = await ticketFor(context.adminToken);
    const [encoded, signature] = ticket.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(encoded, 'base64url').toString()), a: true, exp: 9e15 }),
    ).toString('base64url');
    for (const [url, status] of [
      [eventEndpoints.stream, 400],
      [`${eventEndpoints.stream}?ticket=${forged}.${signature}`, 401],
      [`${eventEndpoints.stream}?ticket=${encoded}`, 401],
      [`${eventEndpoints.stream}?ticket=${context.adminToken}`, 401],
    ] as const) {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(status);
      expect(response.json()).toMatchObject({ statusCode: status });
    }
  });
});

describe('live events: rights that change while a stream is open', () => {
  /** A center with a device of its own, staffed by `staff`. */
  async function centerWithDevice(title: string, staff: string[]) {
    const center = await createCommandCenter(context, { title, assignedUsers: staff });
    const device = (await createDevice(context, { title: `${title} tablet`, commandCenter: center.id })).id;
    return { center: center.id, device };
  }
  /** The next device stat the stream tells (the other changes it may carry first are passed over). */
  const nextStat = async (stream: EventStreamClient) =>
    body(await stream.next((event) => event.event === 'change' && body(event).resource === 'device-stats'))
      .recordId;
  const patch = async (path: string, values: Record<string, unknown>) => {
    const response = await api(context).patch(path, values);
    expect(response.statusCode, response.body).toBe(200);
  };
  const ended = (stream: EventStreamClient) =>
    expect(stream.next(() => false)).rejects.toThrow('The event stream ended');

  it('a supervisor taken off a center stops hearing of it at once, in the other process; taken off the last, their stream ends', async () => {
    const supervisor = await createUser(context, { firstName: 'Sam', localRoles: ['supervisor'] });
    const north = await centerWithDevice('Taken North', [supervisor.id]);
    const east = await centerWithDevice('Taken East', [supervisor.id]);
    // The stream at the second process; the admin's changes go through the first.
    const stream = await watch('second', supervisor.token);
    await readyOf(stream);
    const eastBefore = await newStat(east.device);
    expect(await nextStat(stream)).toBe(eastBefore.id);

    await patch(`/api/command-centers/${east.center}`, { assignedUsers: [] });
    const scoped = await api(context, supervisor.token).get(
      `/api/command-centers/devices?commandCenter=${east.center}`,
    );
    expect(scoped.statusCode).toBe(404);
    await newStat(east.device);
    const northAfter = await newStat(north.device);
    // The East stat, committed first, is not told: the next stat the stream tells is North's.
    expect(await nextStat(stream)).toBe(northAfter.id);

    await patch(`/api/command-centers/${north.center}`, { assignedUsers: [] });
    expect((await api(context, supervisor.token).get('/api/command-centers/devices')).statusCode).toBe(403);
    await ended(stream);
  });

  it('an admin demoted to a supervisor hears only their own center at once; demoted further, their stream ends', async () => {
    const admin = await createUser(context, {
      firstName: 'Dee',
      localRoles: ['application_admin', 'supervisor'],
    });
    const own = await centerWithDevice('Demoted West', [admin.id]);
    const other = await centerWithDevice('Demoted Other', []);
    const stream = await watch('second', admin.token);
    await readyOf(stream);
    const otherBefore = await newStat(other.device);
    expect(await nextStat(stream)).toBe(otherBefore.id);

    await patch(`/api/users/${admin.id}`, { localRoles: ['supervisor'] });
    expect((await api(context, admin.token).get('/api/users')).statusCode).toBe(403);
    await newStat(other.device);
    const ownAfter = await newStat(own.device);
    expect(await nextStat(stream)).toBe(ownAfter.id);

    await patch(`/api/users/${admin.id}`, { localRoles: ['patient'] });
    await ended(stream);
  });

  it('a ticket opens a stream with the rights its caller has when it is used, not those it was issued under', async () => {
    const admin = await createUser(context, { firstName: 'Tia', localRoles: ['application_admin'] });
    const supervisor = await createUser(context, { firstName: 'Tom', localRoles: ['supervisor'] });
    const own = await centerWithDevice('Ticket South', [supervisor.id]);
    const other = await centerWithDevice('Ticket Other', []);
    const adminTicket = await ticketFor(admin.token);
    const supervisorTicket = await ticketFor(supervisor.token);

    await patch(`/api/users/${admin.id}`, { localRoles: ['patient'] });
    const refused = await openEventStream(
      `${base.second}${eventEndpoints.stream}?ticket=${encodeURIComponent(adminTicket)}`,
    );
    streams.push(refused);
    expect(refused.status).toBe(403);

    await patch(`/api/users/${supervisor.id}`, { localRoles: ['application_admin'] });
    const promoted = await openEventStream(
      `${base.second}${eventEndpoints.stream}?ticket=${encodeURIComponent(supervisorTicket)}`,
    );
    streams.push(promoted);
    expect(promoted.status).toBe(200);
    await readyOf(promoted);
    const otherStat = await newStat(other.device);
    expect(await nextStat(promoted)).toBe(otherStat.id);
    const ownStat = await newStat(own.device);
    expect(await nextStat(promoted)).toBe(ownStat.id);
  });
});
