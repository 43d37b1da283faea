import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceStatsSummary } from '@careplane/shared/devices/devices.contract';
import { sampleStatSubmission } from '@careplane/shared/devices/devices.fixtures';
import { deviceStats } from '@/db/schema/index.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { createDevice, createStat, createUser } from '@/test/factories.js';
import { auditRows, ids } from '@/test/records.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const MISSING = '0190f6a2-6d3b-7c8e-9f00-00000000dead';
const T0 = 1_700_000_000_000;
const MINUTE = 60_000;
const DAY = 86_400_000;

describe('device stats: create, read, update, delete (spec §3, §5)', () => {
  it('stores the full stat structure and answers it back', async () => {
    const { get, patch, delete: del } = api(context);
    const device = await createDevice(context, { title: 'Stat maker' });
    const created = await api(context).post('/api/devices/stats', {
      ...sampleStatSubmission(),
      timestamp: T0,
      bootTime: T0 - 3_600_000,
      device: device.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const stat = created.json();
    const sample = sampleStatSubmission();
    expect(stat).toMatchObject({
      timestamp: T0,
      bootTime: T0 - 3_600_000,
      firmware: sample.firmware,
      network: sample.network,
      system: sample.system,
      hardware: sample.hardware,
      software: sample.software,
      deviceId: device.id,
    });
    expect(new Date(stat.createdAt).toISOString()).toBe(stat.createdAt);

    const read = await get(`/api/devices/stats/${stat.id}?relations=device`);
    expect(read.json()).toMatchObject({ id: stat.id, device: { id: device.id, title: 'Stat maker' } });

    const corrected = await patch(`/api/devices/stats/${stat.id}`, { firmware: 'careplane-os 2.4.2' });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json()).toMatchObject({ firmware: 'careplane-os 2.4.2', timestamp: T0 });
    // A stat stays with its device.
    expect((await patch(`/api/devices/stats/${stat.id}`, { device: MISSING })).statusCode).toBe(400);

    expect((await del(`/api/devices/stats/${stat.id}`)).statusCode).toBe(204);
    expect((await get(`/api/devices/stats/${stat.id}`)).statusCode).toBe(404);
    const actions = (await auditRows(context, 'device-stats', stat.id)).map((row) => row.action);
    expect(actions).toEqual(['create', 'update', 'delete']);
  });

  it('accepts a stat without software', async () => {
    const device = await createDevice(context, { title: 'No software' });
    const created = await api(context).post('/api/devices/stats', {
      ...sampleStatSubmission(),
      software: undefined,
      timestamp: T0,
      bootTime: T0,
      device: device.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().software).toBeNull();
  });

  it('refuses invalid stats with 400 and stores nothing', async () => {
    const device = await createDevice(context, { title: 'Strict' });
    const valid = { ...sampleStatSubmission(), timestamp: T0, bootTime: T0, device: device.id };
    const sample = sampleStatSubmission();
    const without = (field: string) => {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      return body;
    };
    const bad: [string, unknown][] = [
      ['no timestamp (a device submission is not an admin create)', without('timestamp')],
      ['no bootTime', without('bootTime')],
      ['no device', without('device')],
      ['no firmware', without('firmware')],
      ['no network', without('network')],
      ['no system', without('system')],
      ['no hardware', without('hardware')],
      ['timestamp as text', { ...valid, timestamp: String(T0) }],
      ['bootTime as text', { ...valid, bootTime: 'yesterday' }],
      ['negative timestamp', { ...valid, timestamp: -1 }],
      ['device not a uuid', { ...valid, device: 'abc' }],
      ['unknown device', { ...valid, device: MISSING }],
      ['unknown field', { ...valid, createdAt: 'x' }],
      ['interface without ip6', { ...valid, network: [{ ...sample.network[0], ip6: undefined }] }],
      [
        'address without dns',
        { ...valid, network: [{ ...sample.network[0], ip4: { ip: '1.1.1.1', extIp: null, gateway: null } }] },
      ],
      ['interface active as text', { ...valid, network: [{ ...sample.network[0], active: 'true' }] }],
      ['usage above 100', { ...valid, system: { ...sample.system, hdd: { usage: 140, used: 1 } } }],
      [
        'load average missing wait',
        { ...valid, system: { ...sample.system, loadAverage: { user: 1, system: 1 } } },
      ],
      ['disks not a list', { ...valid, hardware: { ...sample.hardware, disks: {} } }],
      ['software without system list', { ...valid, software: {} }],
      ['huge firmware', { ...valid, firmware: 'x'.repeat(10_000) }],
      ['NUL in firmware', { ...valid, firmware: 'x\u0000' }],
      ['too many interfaces', { ...valid, network: Array(65).fill(sample.network[0]) }],
    ];
    const before = await context.database.db.$count(deviceStats);
    for (const [label, body] of bad) {
      const response = await api(context).post('/api/devices/stats', body);
      expect(response.statusCode, label).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    const deep = await context.app.inject({
      method: 'POST',
      url: '/api/devices/stats',
      headers: { authorization: `Bearer ${context.adminToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ ...valid, software: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) }),
    });
    expect(deep.statusCode).toBe(400);
    expect(await context.database.db.$count(deviceStats)).toBe(before);
  });

  it("names the field of an admin's record that is wrong, as that record's schema reads it", async () => {
    const device = await createDevice(context, { title: 'Named' });
    const valid = { ...sampleStatSubmission(), timestamp: T0, bootTime: T0, device: device.id };
    const withoutBootTime: Record<string, unknown> = { ...valid };
    delete withoutBootTime.bootTime;
    const sample = sampleStatSubmission();
    const cases: [unknown, string, RegExp][] = [
      [withoutBootTime, 'body.bootTime', /required/i],
      [{ ...valid, bootTime: 'yesterday' }, 'body.bootTime', /number/i],
      [
        { ...valid, system: { ...sample.system, hdd: { usage: 140, used: 1 } } },
        'body.system.hdd.usage',
        /100/,
      ],
      [{ ...valid, createdAt: 'x' }, 'body', /createdAt/],
      [['not', 'a record'], 'body', /./],
    ];
    for (const [body, path, message] of cases) {
      const response = await api(context).post('/api/devices/stats', body);
      expect(response.statusCode, path).toBe(400);
      const issues = response.json<{ issues: { path: string; message: string }[] }>().issues;
      expect(issues, JSON.stringify(issues)).toContainEqual({
        path,
        message: expect.stringMatching(message),
      });
    }
  });
});

describe('device stats list', () => {
  let first: string;
  let second: string;
  const statIds: Record<string, string> = {};

  beforeAll(async () => {
    first = (await createDevice(context, { title: 'First' })).id;
    second = (await createDevice(context, { title: 'Second' })).id;
    // first: 7 stats a minute apart; second: 2 stats.
    for (let index = 0; index < 7; index++) {
      const stat = await createStat(context, first, T0 + index * MINUTE, index < 3 ? 'fw-old' : 'fw-new');
      statIds[`first${index}`] = stat.id;
    }
    for (let index = 0; index < 2; index++) {
      const stat = await createStat(context, second, T0 + index * MINUTE + 1, 'fw-second');
      statIds[`second${index}`] = stat.id;
    }
  });

  const list = async (query: string) => {
    const response = await api(context).get(`/api/devices/stats?${query}`);
    expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
    return response.json();
  };

  it('answers 5 stats by default, newest first, with the total (spec §9)', async () => {
    const page = await list(`filters=device.id~${first}`);
    expect(page).toMatchObject({ total: 7, limit: 5, offset: 0 });
    expect(ids(page)).toEqual([6, 5, 4, 3, 2].map((index) => statIds[`first${index}`]));
    const rest = await list(`filters=device.id~${first}&offset=5`);
    expect(ids(rest)).toEqual([1, 0].map((index) => statIds[`first${index}`]));
    expect((await list(`filters=device.id~${first}&limit=50`)).items).toHaveLength(7);
  });

  it('filters by one or several devices, by id and by firmware', async () => {
    expect((await list(`filters=device.id~${second}`)).total).toBe(2);
    expect((await list(`filters=device.id~${first},${second}`)).total).toBe(9);
    expect(ids(await list(`filters=id~${statIds.second1}`))).toEqual([statIds.second1]);
    expect((await list(`filters=device.id~${first}&filters=firmware~fw-old`)).total).toBe(3);
    expect((await list(`filtersLike=id~${statIds.first3!.slice(-10)}`)).total).toBe(1);
    expect((await list('filtersLike=firmware~FW-NE')).total).toBe(4);
    expect((await list(`filtersLike=device.id~${second.slice(-12)}`)).total).toBe(2);
  });

  it('takes a time range with from and to on the timestamp', async () => {
    const page = await list(
      `filters=device.id~${first}&from=${T0 + MINUTE}&to=${T0 + 3 * MINUTE}&sort=timestamp:asc`,
    );
    expect(page.total).toBe(3);
    expect(ids(page)).toEqual([1, 2, 3].map((index) => statIds[`first${index}`]));
    expect((await list(`from=${T0 + 100 * MINUTE}`)).total).toBe(0);
  });

  it('picks the stats taken at exactly the listed timestamps', async () => {
    const both = `filters=device.id~${first},${second}`;
    const page = await list(`${both}&timestamps=${T0},${T0 + 2 * MINUTE},${T0 + 1}&sort=timestamp:asc`);
    expect(ids(page)).toEqual([statIds.first0, statIds.second0, statIds.first2]);
    const narrowed = await list(`timestamps=${T0},${T0 + 1}&filters=device.id~${second}`);
    expect(ids(narrowed)).toEqual([statIds.second0]);
    expect((await list(`${both}&timestamps=${T0 + 7}`)).total).toBe(0);
    // The same as a filter.
    expect(ids(await list(`${both}&filters=timestamp~${T0 + 2 * MINUTE}`))).toEqual([statIds.first2]);
  });

  it('sorts and embeds the device without its secret', async () => {
    const page = await list(`filters=device.id~${first}&sort=timestamp:asc&limit=2&relations=device`);
    expect(ids(page)).toEqual([statIds.first0, statIds.first1]);
    expect(page.items[0].device).toMatchObject({ id: first, title: 'First' });
    expect(page.items[0].device).not.toHaveProperty('tokenHash');
    const byBoot = await list(`filters=device.id~${second}&sort=bootTime:desc`);
    expect(ids(byBoot)).toEqual([statIds.second1, statIds.second0]);
    expect(ids(await list(`filters=device.id~${second}&sort=createdAt:asc`))).toEqual([
      statIds.second0,
      statIds.second1,
    ]);
  });

  it('refuses unknown paths and mistyped values with 400', async () => {
    for (const query of [
      'timestamps=abc',
      'timestamps=1,,2',
      'timestamps=',
      'filters=device.id~nope',
      `filters=device.id~${first},nope`,
      'filters=timestamp~soon',
      'filters=network~x',
      'filtersLike=system~x',
      'sort=firmware:asc',
      'relations=stats',
      'from=yesterday',
      'limit=500',
    ]) {
      const response = await api(context).get(`/api/devices/stats?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
  });
});

describe('last stats submission', () => {
  it('answers the newest stat of a device by its timestamp', async () => {
    const device = await createDevice(context, { title: 'Reporter' });
    await createStat(context, device.id, T0 + 5 * MINUTE, 'newest');
    await createStat(context, device.id, T0, 'older but stored later');
    const other = await createDevice(context, { title: 'Other' });
    await createStat(context, other.id, T0 + 50 * MINUTE, 'someone else');
    const response = await api(context).get(`/api/devices/${device.id}/last-stats-submission`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      deviceId: device.id,
      timestamp: T0 + 5 * MINUTE,
      firmware: 'newest',
    });
    expect(response.json()).not.toHaveProperty('device');
  });

  it('answers 200 null for a device without stats, 404 for an unknown device, 400 for a bad id', async () => {
    const device = await createDevice(context, { title: 'Silent' });
    const silent = await api(context).get(`/api/devices/${device.id}/last-stats-submission`);
    expect(silent.statusCode).toBe(200);
    expect(silent.headers['content-type']).toContain('application/json');
    expect(silent.json()).toBeNull();
    expect((await api(context).get(`/api/devices/${MISSING}/last-stats-submission`)).statusCode).toBe(404);
    expect((await api(context).get('/api/devices/x/last-stats-submission')).statusCode).toBe(400);
  });
});

describe('stats summary', () => {
  const summaryOf = (deviceId: string, query: string) =>
    api(context).get(`/api/devices/${deviceId}/stats-summary?${query}`);
  /** A stat whose `system` reports these percentages, through the API as an agent's would be stored. */
  const statAt = async (
    deviceId: string,
    timestamp: number,
    usage: { cpu: number; memory: number; disk: number; load: [number, number, number] },
  ) => {
    const sample = sampleStatSubmission();
    const [user, system, wait] = usage.load;
    const response = await api(context).post('/api/devices/stats', {
      ...sample,
      timestamp,
      bootTime: T0 - DAY,
      device: deviceId,
      system: {
        ...sample.system,
        cpu: { usage: usage.cpu, used: 1 },
        memory: { usage: usage.memory, used: 1 },
        hdd: { usage: usage.disk, used: 1 },
        loadAverage: { user, system, wait },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
  };
  /** One value, the part's lowest, mean and highest alike. */
  const flat = (value: number) => ({ min: value, avg: value, max: value });
  const busy = (cpu: number) => ({ cpu, memory: 50, disk: 40, load: [1, 1, 1] as [number, number, number] });

  it("sums up every stat of a period in equal parts: count, and each chart's lowest, mean and highest", async () => {
    const device = await createDevice(context, { title: 'Summed' });
    const other = await createDevice(context, { title: 'Elsewhere' });
    // Part 0 (T0 … T0 + 5 min): two stats; part 1: none (left out); part 3 holds the period's last moment.
    await statAt(device.id, T0, { cpu: 10, memory: 50, disk: 40, load: [5, 2, 1] });
    await statAt(device.id, T0 + MINUTE, { cpu: 90, memory: 60, disk: 40, load: [15, 4, 3] });
    await statAt(device.id, T0 + 20 * MINUTE - 1, busy(30));
    // Stored before the agent reported every number (no memory, a CPU usage that is not a number): what is
    // there counts, what is not a number is left out of its part.
    await context.database.db.insert(deviceStats).values({
      ...sampleStatSubmission(),
      timestamp: T0 + 11 * MINUTE,
      deviceId: device.id,
      system: { osVersion: 'Debian 11', cpu: { usage: 'busy' }, hdd: { usage: 70 } },
    });
    // Outside the period, or another device's: not counted.
    await statAt(device.id, T0 + 20 * MINUTE, busy(99));
    await statAt(device.id, T0 - 1, busy(99));
    await statAt(other.id, T0 + MINUTE, busy(99));

    const response = await summaryOf(device.id, `from=${T0}&to=${T0 + 20 * MINUTE - 1}&buckets=4`);
    expect(response.statusCode, response.body).toBe(200);
    const summary = response.json<DeviceStatsSummary>();
    expect(summary).toMatchObject({ from: T0, to: T0 + 20 * MINUTE - 1, bucketMillis: 5 * MINUTE, total: 4 });
    expect(summary.buckets).toEqual([
      {
        from: T0,
        count: 2,
        values: {
          cpu: { min: 10, avg: 50, max: 90 },
          disk: { min: 40, avg: 40, max: 40 },
          memory: { min: 50, avg: 55, max: 60 },
          system: { min: 2, avg: 3, max: 4 },
          user: { min: 5, avg: 10, max: 15 },
          wait: { min: 1, avg: 2, max: 3 },
        },
      },
      { from: T0 + 10 * MINUTE, count: 1, values: { disk: flat(70) } },
      {
        from: T0 + 15 * MINUTE,
        count: 1,
        values: {
          cpu: flat(30),
          disk: flat(40),
          memory: flat(50),
          system: flat(1),
          user: flat(1),
          wait: flat(1),
        },
      },
    ]);

    const quiet = await summaryOf(device.id, `from=${T0 + DAY}&to=${T0 + 2 * DAY}`);
    expect(quiet.json()).toEqual({
      from: T0 + DAY,
      to: T0 + 2 * DAY,
      bucketMillis: 720_001,
      total: 0,
      buckets: [],
    });
  });

  it('refuses what it cannot answer, with a sentence, and answers admins only', async () => {
    const device = await createDevice(context, { title: 'Asked badly' });
    const refused = async (query: string, path: string) => {
      const response = await summaryOf(device.id, query);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
    };
    await refused(`to=${T0 + 1}`, 'querystring.from');
    await refused(`from=${T0}&to=soon`, 'querystring.to');
    await refused(`from=${T0}&to=${T0}`, 'querystring.to');
    await refused(`from=${T0}&to=${T0 + 1}&buckets=501`, 'querystring.buckets');
    await refused(`from=${T0}&to=${T0 + 1}&dataType=battery`, 'querystring');
    const thai = await context.app.inject({
      method: 'GET',
      url: `/api/devices/${device.id}/stats-summary?from=${T0 + 5}&to=${T0}`,
      headers: { authorization: `Bearer ${context.adminToken}`, 'accept-language': 'th' },
    });
    expect(thai.statusCode).toBe(400);
    expect(JSON.stringify(thai.json())).toContain('ต้องอยู่หลังเวลาเริ่มต้น');

    expect((await summaryOf(MISSING, `from=${T0}&to=${T0 + 1}`)).statusCode).toBe(404);
    expect((await summaryOf('x', `from=${T0}&to=${T0 + 1}`)).statusCode).toBe(400);
    const nurse = await createUser(context, { roles: ['public'] });
    const url = `/api/devices/${device.id}/stats-summary?from=${T0}&to=${T0 + 1}`;
    expect((await api(context, nurse.token).get(url)).statusCode).toBe(403);
    expect((await context.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });
});
