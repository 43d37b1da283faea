import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceStats, devices, users } from '@/db/schema/index.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { HOUR_MS } from './stats.repository.js';
import { createStatsService, lastHours, lastMonths } from './stats.service.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

/** Waits out the last seconds of an hour, so inserted data and the answer see the same hours and months. */
async function awayFromHourBoundary() {
  const left = HOUR_MS - (Date.now() % HOUR_MS);
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

let userSeq = 0;
async function insertUsersCreatedAt(...dates: Date[]) {
  await context.database.db.insert(users).values(
    dates.map((createdAt) => {
      userSeq += 1;
      return {
        username: `stats${userSeq}@careplane.test`,
        usernameWithoutDomain: `stats${userSeq}`,
        primaryDomain: 'careplane.test',
        createdAt,
      };
    }),
  );
}

let deviceSeq = 0;
async function insertDevice() {
  deviceSeq += 1;
  const [device] = await context.database.db
    .insert(devices)
    .values({ title: `Stats device ${deviceSeq}` })
    .returning({ id: devices.id });
  return device!.id;
}

async function insertStats(deviceId: string, ...timestamps: number[]) {
  await context.database.db.insert(deviceStats).values(
    timestamps.map((timestamp) => ({
      deviceId,
      timestamp,
      firmware: '1.0.0',
      network: [],
      system: { osVersion: 'test' },
      hardware: { cpu: [] },
    })),
  );
}

const countRows = async (table: typeof users | typeof devices) => {
  const [row] = await context.database.db.select({ n: count() }).from(table);
  return row!.n;
};

describe('series windows', () => {
  it('lists the last 12 UTC months oldest first, across a year boundary', () => {
    const months = lastMonths(new Date('2026-01-31T23:59:59.999Z'), 12);
    expect(months.map((month) => month.toISOString().slice(0, 7))).toEqual([
      '2025-02',
      '2025-03',
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
    ]);
    expect(months[0]!.toISOString()).toBe('2025-02-01T00:00:00.000Z');
  });

  it('lists the last 24 hours oldest first, ending with the current hour', () => {
    const hours = lastHours(new Date('2026-03-01T00:30:00.000Z'), 24);
    expect(hours).toHaveLength(24);
    expect(new Date(hours[0]!).toISOString()).toBe('2026-02-28T01:00:00.000Z');
    expect(new Date(hours[23]!).toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
});

describe('GET /api/users/stats', () => {
  it('counts all users and the new users of each of the last 12 months, zero-filled', async () => {
    await awayFromHourBoundary();
    const now = new Date();
    const months = lastMonths(now, 12);
    const monthStart = (index: number) => months[index]!;
    const midMonth = (index: number) => new Date(monthStart(index).getTime() + 14 * 24 * HOUR_MS);
    await insertUsersCreatedAt(
      monthStart(11), // this month, first instant
      midMonth(9),
      midMonth(9),
      new Date(monthStart(10).getTime() - 1), // last instant of month 9
      monthStart(0), // oldest month, first instant
      new Date(monthStart(0).getTime() - 1), // 13 months ago: counted in the total only
      new Date(Date.UTC(2019, 5, 1)),
    );

    const response = await api(context).get('/api/users/stats');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.count).toBe(await countRows(users));
    expect(body.count).toBe(2 + 7);
    expect(body.labels).toEqual(months.map((month) => month.toISOString().slice(0, 7)));
    expect(body.labels[11]).toBe(now.toISOString().slice(0, 7));
    // The two users of the test context were created just now.
    expect(body.data).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 3]);
  });

  it('answers a full zero series for months without users', async () => {
    const service = createStatsService(context.database.db, { deviceDomains: [] });
    const stats = await service.userStats(new Date('2001-06-15T00:00:00Z'));
    expect(stats.labels[0]).toBe('2000-07');
    expect(stats.labels[11]).toBe('2001-06');
    expect(stats.data).toEqual(Array.from({ length: 12 }, () => 0));
    expect(stats.count).toBe(await countRows(users));
  });

  it('is for admins only', async () => {
    const anonymous = await context.app.inject({ url: '/api/users/stats' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    const nurse = await api(context, context.userToken).get('/api/users/stats');
    expect(nurse.statusCode).toBe(403);
    expect(nurse.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
  });
});

describe('GET /api/devices/charts', () => {
  it('counts all devices and the distinct devices reporting in each of the last 24 hours', async () => {
    await awayFromHourBoundary();
    const now = Date.now();
    const hours = lastHours(new Date(now), 24);
    const hour = (index: number) => hours[index]!;

    const busy = await insertDevice();
    const quiet = await insertDevice();
    const steady = await insertDevice();
    await insertDevice(); // never reports
    await insertStats(busy, hour(23), hour(23) + 1_000, now, hour(18) + 60_000, hour(18) + 120_000);
    await insertStats(busy, hour(0)); // first instant of the window
    await insertStats(busy, hour(0) - 1, hour(23) + HOUR_MS); // just before and just after the window
    await insertStats(quiet, hour(23) + 5, hour(18) + HOUR_MS - 1);
    // Every ten minutes over the whole window: one device in every hour, however many stats.
    const everyTenMinutes: number[] = [];
    for (let at = hour(0); at <= now; at += 10 * 60_000) everyTenMinutes.push(at);
    await insertStats(steady, ...everyTenMinutes);

    const response = await api(context).get('/api/devices/charts');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.count).toBe(await countRows(devices));
    expect(body.count).toBe(4);
    expect(body.labels).toEqual(hours.map((at) => new Date(at).toISOString()));
    const expected = Array.from({ length: 24 }, () => 1);
    expected[0] = 2;
    expected[18] = 3;
    expected[23] = 3;
    expect(body.data).toEqual(expected);
  });

  it('zero-fills hours without stats', async () => {
    const service = createStatsService(context.database.db, { deviceDomains: [] });
    const device = await insertDevice();
    const now = new Date('2020-01-10T05:30:00.000Z');
    const start = Date.parse('2020-01-09T06:00:00.000Z');
    await insertStats(device, start + 3 * HOUR_MS + 10, start + 3 * HOUR_MS + 20);
    const charts = await service.deviceCharts(now);
    expect(charts.labels[0]).toBe('2020-01-09T06:00:00.000Z');
    expect(charts.labels[23]).toBe('2020-01-10T05:00:00.000Z');
    expect(charts.data).toEqual(Array.from({ length: 24 }, (_, index) => (index === 3 ? 1 : 0)));
    expect(charts.count).toBe(await countRows(devices));
  });

  it('is for admins only', async () => {
    expect((await context.app.inject({ url: '/api/devices/charts' })).statusCode).toBe(401);
    const nurse = await api(context, context.userToken).get('/api/devices/charts');
    expect(nurse.statusCode).toBe(403);
    expect(nurse.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
  });
});

describe('GET /api/domains', () => {
  it('lists the configured device domains to anyone signed in', async () => {
    const response = await api(context, context.userToken).get('/api/domains');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ items: context.config.deviceDomains });
    expect(response.json().items).toEqual(['careplane.local']);
  });

  it('needs a token', async () => {
    const response = await context.app.inject({ url: '/api/domains' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('answers the domains of the configuration', () => {
    const service = createStatsService(context.database.db, {
      deviceDomains: ['clinic.example', 'home.example'],
    });
    expect(service.domains()).toEqual({ items: ['clinic.example', 'home.example'] });
  });
});
