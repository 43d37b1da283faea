import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/test/harness.js';
import { generateScaleData, type ScaleResult } from './scale.js';

// Runs on PGlite, or on PostgreSQL when DATABASE_URL_TEST is set (the harness picks).
let database: TestDatabase;
let result: ScaleResult;
const NOW = Date.UTC(2025, 5, 1, 12);

const rows = async (text: string) => (await database.handle.rawQuery(text)).rows as Record<string, unknown>[];
const count = async (table: string) => Number((await rows(`select count(*)::int as n from ${table}`))[0]!.n);

beforeAll(async () => {
  database = await createTestDatabase();
  result = await generateScaleData(database.handle, {
    users: 1_000,
    readings: 10_000,
    now: NOW,
    statementRows: 4_000,
  });
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe('scale data generator', () => {
  it('writes the requested users and readings, and reports what it wrote', async () => {
    expect(await count('users')).toBe(1_000);
    expect(await count('iot_device_data')).toBe(10_000);
    expect(result.counts).toMatchObject({ users: 1_000, iot_device_data: 10_000 });
    for (const table of [
      'patient_profiles',
      'devices',
      'device_stats',
      'iot_devices',
      'command_center_users',
    ]) {
      expect(result.counts[table], table).toBe(await count(table));
    }
    expect(result.steps.every((step) => step.milliseconds >= 0)).toBe(true);
  });

  it('links users as patients, staff of providers and members of command centers', async () => {
    // 70% patients, each with a profile and a nurse; staff with employers; everyone in a command center.
    expect(await count('patient_profiles')).toBe(700);
    expect(await count(`users where 'patient' = any(local_roles) and patient_profile_id is not null`)).toBe(
      700,
    );
    expect(await count('user_assigned_nurses')).toBe(700);
    expect(
      await count(`users u where not exists (select 1 from command_center_users c where c.user_id = u.id)`),
    ).toBe(0);
    expect(await count('command_center_users')).toBe(1_200);
    const [employed] = await rows(
      `select count(*)::int as n, count(*) filter (where
         (sp.type = 'pharmacy' and 'pharmacist' = any(u.local_roles)) or (sp.type = 'courier' and 'courier' = any(u.local_roles))
         or (sp.type = 'nurse' and 'nurse' = any(u.local_roles)))::int as matching
       from user_employers e join users u on u.id = e.user_id join service_providers sp on sp.id = e.service_provider_id`,
    );
    expect(employed!.n).toBeGreaterThan(0);
    expect(employed!.matching).toBe(employed!.n);
    // The benchmark's "two relations and a filtersLike" finds patients in a center whose name matches.
    const [matching] = await rows(
      `select count(*)::int as n from users u join patient_profiles p on p.id = u.patient_profile_id
       where exists (select 1 from command_center_users c where c.user_id = u.id) and u.last_name ilike '%on%'`,
    );
    expect(matching!.n).toBeGreaterThan(0);
  });

  it('spreads readings over many IoT devices and a time range, in the documented shapes', async () => {
    const [spread] = await rows(
      `select count(distinct iot_device_id)::int as devices, min(timestamp)::float8 as first, max(timestamp)::float8 as last,
         count(*) filter (where iot_device_id is null or created_by_user_id is null)::int as orphans
       from iot_device_data`,
    );
    expect(spread!.devices).toBe(await count('iot_devices'));
    expect(spread!.devices).toBeGreaterThanOrEqual(20);
    expect(spread!.orphans).toBe(0);
    expect(spread!.first as number).toBeGreaterThanOrEqual(NOW - 14 * 86_400_000);
    expect(spread!.last as number).toBeLessThanOrEqual(NOW);
    expect((spread!.last as number) - (spread!.first as number)).toBeGreaterThan(13 * 86_400_000);
    // One device has enough readings in a week for a page of 100 sorted by time.
    const [device] = await rows(
      `select iot_device_id, count(*)::int as n from iot_device_data where timestamp >= ${NOW - 7 * 86_400_000}
       group by iot_device_id order by 2 limit 1`,
    );
    expect(device!.n).toBeGreaterThanOrEqual(100);

    const samples = await rows(
      `select distinct on (data_type) data_type, data, timestamp::float8 as timestamp from iot_device_data order by data_type`,
    );
    expect(samples.map((sample) => sample.data_type).sort()).toEqual(
      ['alert', 'battery', 'blood_pressure', 'heart_rate', 'pressure', 'temperature'].sort(),
    );
    for (const sample of samples)
      expect((sample.data as { timestamp: number }).timestamp).toBe(sample.timestamp);
    // Ids are uuid v7, time-ordered like the records the API creates.
    const ids = await rows('select id::text as id from iot_device_data limit 20');
    for (const { id } of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('adds a new batch when run again', async () => {
    const again = await generateScaleData(database.handle, { users: 200, readings: 1_000, now: NOW + 1 });
    expect(again.tag).not.toBe(result.tag);
    expect(await count('users')).toBe(1_200);
    expect(await count('iot_device_data')).toBe(11_000);
    expect(await count(`users where primary_domain = '${again.domain}'`)).toBe(200);
  });
});
