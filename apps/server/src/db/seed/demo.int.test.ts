import {
  iotDataTypes,
  localUserRoles,
  patientStatuses,
  prescriptionStatuses,
  processStatuses,
  serviceProviderTypes,
} from '@careplane/shared/common/enums';
import {
  nextStatus,
  prescriptionTransitions,
  type PrescriptionAction,
} from '@careplane/shared/prescriptions/prescription-transitions';
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, createTestDatabase, type TestDatabase } from '@/test/harness.js';
import { openDatabase, type DatabaseHandle } from '../client.js';
import { buildDemoData, demoSignInUsers, loadDemoDataIfEmpty, type DemoDataSummary } from './demo.js';
import { regions } from './reference-data.js';

// A fixed "now" keeps the test independent of the clock; 2025-03-14T09:26:53Z rounds down to 09:15.
const NOW = Date.UTC(2025, 2, 14, 9, 26, 53);
const ANCHOR = Date.UTC(2025, 2, 14, 9, 15);
const WEEK = 7 * 86_400_000;
const MONTH = 30 * 86_400_000;
const HOUR = 3_600_000;

let first: TestDatabase;
let second: TestDatabase;
let summary: DemoDataSummary | null;

const rows = async (database: DatabaseHandle, text: string) =>
  (await database.rawQuery(text)).rows as Record<string, unknown>[];
const values = async (database: DatabaseHandle, text: string) =>
  (await rows(database, text)).map((row) => Object.values(row)[0]);
/** A timestamp as the driver gives it (a Date, or text on the embedded database), in milliseconds. */
const time = (value: unknown) => new Date(value as string | Date).getTime();
const count = async (database: DatabaseHandle, table: string) =>
  Number((await rows(database, `select count(*)::int as n from ${table}`))[0]!.n);

beforeAll(async () => {
  first = await createTestDatabase();
  second = await createTestDatabase();
  summary = await loadDemoDataIfEmpty(first.handle, { now: NOW });
}, 180_000);
afterAll(async () => {
  await first?.drop();
  await second?.drop();
});

describe('demo data', () => {
  it('loads on an empty database and reports what it loaded', async () => {
    expect(summary).not.toBeNull();
    expect(summary).toMatchObject({ anchor: new Date(ANCHOR).toISOString(), commandCenters: 3 });
    const db = first.handle;
    expect(summary!.users).toBe(await count(db, 'users'));
    expect(summary!.users).toBeGreaterThanOrEqual(55);
    expect(summary!.iotReadings).toBe(await count(db, 'iot_device_data'));
    expect(summary!.deviceStats).toBe(await count(db, 'device_stats'));
    expect(summary!.prescriptions).toBe(await count(db, 'prescriptions'));
    expect(await count(db, 'command_centers')).toBe(3);
  });

  it('has users of every local role, the named sign-in users, and patients in every status', async () => {
    const db = first.handle;
    const roles = await values(db, 'select distinct unnest(local_roles) from users');
    expect(roles.sort()).toEqual([...localUserRoles].sort());

    const named = await rows(
      db,
      `select u.username, u.roles, u.local_roles, u.master_id,
         array(select sp.type from user_employers e join service_providers sp on sp.id = e.service_provider_id
               where e.user_id = u.id order by sp.type) as employer_types,
         (select count(*)::int from command_center_users c where c.user_id = u.id) as centers
       from users u where u.username like '%@careplane.local' and u.master_id is not null order by u.username`,
    );
    const byName = Object.fromEntries(named.map((row) => [row.username, row]));
    expect(Object.keys(byName).sort()).toEqual(
      demoSignInUsers()
        .map((user) => user.username)
        .sort(),
    );
    expect(byName['admin@careplane.local']).toMatchObject({
      roles: ['admin'],
      local_roles: ['application_admin'],
    });
    expect(byName['pharmacist@careplane.local']).toMatchObject({
      local_roles: ['pharmacist'],
      employer_types: ['pharmacy'],
    });
    expect(byName['driver@careplane.local']).toMatchObject({
      local_roles: ['courier'],
      employer_types: ['courier'],
    });
    expect(byName['courier@careplane.local']).toMatchObject({
      local_roles: ['courier'],
      employer_types: ['courier'],
    });
    expect(byName['nurse@careplane.local']).toMatchObject({ local_roles: ['nurse'] });
    expect(byName['nurse@careplane.local']!.employer_types).toContain('nurse');
    expect(byName['doctor@careplane.local']).toMatchObject({ local_roles: ['doctor'] });
    expect(byName['patient@careplane.local']).toMatchObject({ local_roles: ['patient'] });
    expect(byName['supervisor@careplane.local']).toMatchObject({ local_roles: ['supervisor'], centers: 1 });
    for (const user of demoSignInUsers()) expect(byName[user.username]!.master_id).toBe(user.masterId);

    const statuses = await values(db, 'select distinct status from patient_profiles');
    expect(statuses.sort()).toEqual([...patientStatuses].sort());
    // Every patient has a profile with emergency contacts and a location; the others have none.
    const patients = await rows(
      db,
      `select count(*)::int as n, count(p.id)::int as with_profile,
         count(*) filter (where jsonb_array_length(p.emergency_contacts) > 0 and p.location is not null)::int as complete
       from users u left join patient_profiles p on p.id = u.patient_profile_id where 'patient' = any(u.local_roles)`,
    );
    expect(patients[0]!.n).toBe(patients[0]!.with_profile);
    expect(patients[0]!.n).toBe(patients[0]!.complete);
    expect(
      await count(db, `users where patient_profile_id is not null and not ('patient' = any(local_roles))`),
    ).toBe(0);
    expect(await count(db, 'user_assigned_nurses')).toBeGreaterThan(10);
  });

  it('has command centers in Thailand, providers of every type with employees', async () => {
    const db = first.handle;
    const centers = await rows(
      db,
      `select address->>'country' as country, (address->'geo'->>'lat')::float8 as lat, (address->'geo'->>'lng')::float8 as lng,
         (select count(*)::int from command_center_users c where c.command_center_id = cc.id) as users
       from command_centers cc`,
    );
    for (const center of centers) {
      expect(center.country).toBe('Thailand');
      expect(center.lat).toBeGreaterThan(5);
      expect(center.lat).toBeLessThan(21);
      expect(center.lng).toBeGreaterThan(97);
      expect(center.lng).toBeLessThan(106);
      expect(center.users).toBeGreaterThan(3);
    }
    const types = await rows(
      db,
      `select sp.type, count(e.user_id)::int as employees from service_providers sp
       left join user_employers e on e.service_provider_id = sp.id group by sp.type`,
    );
    expect(types.map((row) => row.type).sort()).toEqual([...serviceProviderTypes].sort());
    for (const row of types) expect(row.employees).toBeGreaterThan(0);
  });

  it("puts every address's street in its district: the card's words and its map point agree", async () => {
    const streetsOf = new Map(
      regions.flatMap((region) => region.places).map((place) => [place.district, place.streets]),
    );
    const addresses = await rows(
      first.handle,
      `select a->>'street' as street, a->>'district' as district from users, jsonb_array_elements(address) a
       union all select address->>'street', address->>'district' from service_providers
       union all select delivery_address->>'street', delivery_address->>'district' from prescriptions`,
    );
    // Each district its own streets: one list for a whole city put Silom Road in Bang Kapi.
    for (const region of regions) {
      const lists = region.places.map((place) => [...place.streets].sort().join());
      expect(new Set(lists).size, region.city).toBe(region.places.length);
    }
    expect(addresses.length).toBeGreaterThan(50);
    for (const { street, district } of addresses) {
      expect(streetsOf.get(String(district)), `${String(street)}, ${String(district)}`).toContain(street);
    }
  });

  it('has devices with a month of stats, every 15 minutes over the last week, hourly before, and workstations', async () => {
    const db = first.handle;
    const roles = await values(db, 'select distinct role from devices');
    expect(roles.length).toBeGreaterThanOrEqual(5);
    const [stats] = await rows(
      db,
      `select min(timestamp)::float8 as first, max(timestamp)::float8 as last, count(*)::int as n,
         count(distinct device_id)::int as devices from device_stats`,
    );
    expect(stats!.first as number).toBeLessThanOrEqual(ANCHOR - MONTH + HOUR + 30_000);
    expect(stats!.first as number).toBeGreaterThan(ANCHOR - MONTH);
    expect(stats!.last as number).toBeLessThanOrEqual(ANCHOR + 30_000);
    expect(stats!.last as number).toBeGreaterThan(ANCHOR - 15 * 60_000);
    // A device reporting all month sends 4 stats an hour over the last week, one an hour before it.
    const [busiest] = await rows(
      db,
      `select count(*) filter (where timestamp > ${ANCHOR - WEEK})::int as week,
         count(*) filter (where timestamp <= ${ANCHOR - WEEK})::int as before
         from device_stats group by device_id order by count(*) desc limit 1`,
    );
    expect(busiest).toEqual({ week: 7 * 24 * 4, before: 23 * 24 });
    const [stat] = await rows(
      db,
      'select network, system, hardware, software, firmware, boot_time from device_stats limit 1',
    );
    expect(stat!.network).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: expect.any(String),
          mac: expect.any(String),
          type: expect.any(String),
          active: true,
          ip4: expect.objectContaining({
            ip: expect.any(String),
            gateway: expect.any(String),
            dns: expect.any(Array),
          }),
          ip6: expect.objectContaining({ ip: expect.any(String) }),
        }),
      ]),
    );
    expect(stat!.system).toMatchObject({
      osVersion: expect.any(String),
      loadAverage: { user: expect.any(Number), wait: expect.any(Number), system: expect.any(Number) },
      cpu: { usage: expect.any(Number), used: expect.any(Number) },
      memory: { usage: expect.any(Number), used: expect.any(Number) },
      hdd: { usage: expect.any(Number), used: expect.any(Number) },
      swap: { usage: expect.any(Number), used: expect.any(Number) },
    });
    // The load's shares are per cent of CPU time, as the agent reports them: together about the CPU usage.
    const shown = stat!.system as {
      loadAverage: { user: number; wait: number; system: number };
      cpu: { usage: number };
    };
    const { user, wait, system } = shown.loadAverage;
    expect(Math.abs(user + wait + system - shown.cpu.usage)).toBeLessThan(5);
    expect(stat!.hardware).toMatchObject({
      cpu: expect.any(Array),
      memory: expect.any(Object),
      disks: expect.any(Array),
    });
    expect(stat!.software).toMatchObject({ system: expect.any(Array) });

    const workstations = await rows(
      db,
      `select w.device_id, (select count(*)::int from workstation_devices d where d.workstation_id = w.id) as devices,
         (select count(*)::int from workstation_patients p where p.workstation_id = w.id) as patients from workstations w`,
    );
    expect(workstations.length).toBeGreaterThan(0);
    for (const workstation of workstations) {
      expect(workstation.device_id).not.toBeNull();
      expect(workstation.devices).toBeGreaterThan(0);
      expect(workstation.patients).toBeGreaterThan(0);
    }
  });

  it('has IoT devices of every data type with a week of readings in the documented shapes', async () => {
    const db = first.handle;
    const supported = await values(db, 'select distinct unnest(supported_data_types) from iot_devices');
    expect(supported.sort()).toEqual([...iotDataTypes].sort());
    const readingTypes = await values(db, 'select distinct data_type from iot_device_data');
    expect(readingTypes.sort()).toEqual([...iotDataTypes].sort());
    const unassigned = await count(
      db,
      `iot_devices i where exists (select 1 from iot_device_data d where d.iot_device_id = i.id)
         and (i.assigned_user_id is null or not exists (select 1 from iot_device_devices l where l.iot_device_id = i.id))`,
    );
    expect(unassigned).toBe(0);

    const [range] = await rows(
      db,
      'select min(timestamp)::float8 as first, max(timestamp)::float8 as last from iot_device_data',
    );
    // A month of readings: the longest period the console's charts offer.
    expect(range!.first as number).toBeGreaterThan(ANCHOR - MONTH);
    expect(range!.first as number).toBeLessThan(ANCHOR - MONTH + 3_600_000);
    expect(range!.last as number).toBeGreaterThan(ANCHOR - 30 * 60_000);
    expect(range!.last as number).toBeLessThanOrEqual(ANCHOR + 60_000);

    const samples = await rows(
      db,
      `select distinct on (data_type) data_type, data, timestamp::float8 as timestamp from iot_device_data order by data_type, id`,
    );
    const shapes: Record<string, object> = {
      battery: { level: expect.any(Number) },
      heart_rate: { rate: expect.any(Number) },
      temperature: { value: expect.any(Number), unit: expect.any(String) },
      pressure: { value: expect.any(Number), unit: expect.any(String) },
      blood_pressure: { sys: expect.any(Number), dias: expect.any(Number) },
      alert: { id: expect.any(String) },
    };
    for (const sample of samples) {
      expect(sample.data).toMatchObject({
        ...shapes[sample.data_type as string],
        timestamp: sample.timestamp,
      });
    }
  });

  it("gives the named supervisor's centers patients whose IoT devices sent readings in the last day", async () => {
    // What the care team's page of a person shows (decision 102): the same scope as the scoped calls.
    const [found] = await rows(
      first.handle,
      `with centers as (
         select ccu.command_center_id as id from command_center_users ccu
           join users u on u.id = ccu.user_id where u.username = 'supervisor@careplane.local'),
       members as (
         select ccu.user_id from command_center_users ccu where ccu.command_center_id in (select id from centers)
         union
         select d.assigned_user_id from devices d where d.command_center_id in (select id from centers))
       select count(distinct i.assigned_user_id)::int as patients, count(*)::int as readings
         from iot_device_data r join iot_devices i on i.id = r.iot_device_id
         join users p on p.id = i.assigned_user_id and 'patient' = any(p.local_roles)
        where i.assigned_user_id in (select user_id from members) and r.timestamp > ${ANCHOR - 86_400_000}`,
    );
    expect(found!.patients as number).toBeGreaterThanOrEqual(2);
    expect(found!.readings as number).toBeGreaterThan(0);
  });

  it('has open and closed alerts, jobs in every status and prescriptions in every status', async () => {
    const db = first.handle;
    expect(await count(db, 'alerts where is_active')).toBeGreaterThan(0);
    expect(
      await count(
        db,
        'alerts where not is_active and closed_by_user_id is not null and closing_data is not null',
      ),
    ).toBeGreaterThan(0);

    // An alert raised by a reading out of bounds has that reading among its device's readings (its chart
    // shows what raised it).
    const outOfBounds = await rows(
      db,
      `select a.id, a.data, d.id as device_id from alerts a join iot_devices d on d.id = a.iot_device_id
        where a.data->>'reason' = 'out_of_bounds'`,
    );
    expect(outOfBounds.length).toBeGreaterThan(0);
    for (const alert of outOfBounds) {
      const data = alert.data as {
        dataType: string;
        reading: Record<string, unknown> & { timestamp: number };
      };
      const found = await rows(
        db,
        `select data from iot_device_data where iot_device_id = '${String(alert.device_id)}'
          and data_type = '${data.dataType}' and timestamp = ${data.reading.timestamp}`,
      );
      const measured = Object.fromEntries(
        Object.entries(data.reading).filter(([key]) => key !== 'timestamp'),
      );
      expect(found.map((reading) => reading.data)).toContainEqual(measured);
    }

    const jobs = await rows(db, 'select status, results from device_runner_jobs');
    expect([...new Set(jobs.map((job) => job.status))].sort()).toEqual([...processStatuses].sort());
    for (const job of jobs.filter(
      (candidate) => candidate.status === 'SUCCEEDED' || candidate.status === 'FAILED',
    )) {
      expect((job.results as unknown[]).length).toBeGreaterThan(0);
      expect((job.results as unknown[])[0]).toMatchObject({
        command: expect.any(String),
        exitCode: expect.any(Number),
        stdout: expect.any(String),
        stderr: expect.any(String),
        startedAt: expect.any(String),
        finishedAt: expect.any(String),
      });
    }

    const prescriptions = await rows(
      db,
      `select p.status, p.content, p.pickup_by_nurse, p.nurse_id, p.shipper_id, p.issuer_receipt_id, p.pickup_receipt_id,
         p.delivery_address, p.pickup_address, issuer.local_roles as issuer_roles, supplier.type as supplier_type,
         recipient.local_roles as recipient_roles
       from prescriptions p join users issuer on issuer.id = p.issuer_id join users recipient on recipient.id = p.recipient_id
       join service_providers supplier on supplier.id = p.supplier_id`,
    );
    expect([...new Set(prescriptions.map((row) => row.status))].sort()).toEqual(
      [...prescriptionStatuses].sort(),
    );
    for (const row of prescriptions) {
      expect(row.issuer_roles).toEqual(['doctor']);
      expect(row.recipient_roles).toEqual(['patient']);
      expect(row.supplier_type).toBe('pharmacy');
      expect(row.delivery_address).not.toBeNull();
      expect(row.pickup_address).not.toBeNull();
      expect(row.pickup_by_nurse ? row.nurse_id : row.shipper_id).not.toBeNull();
      expect((row.content as unknown[]).length).toBeGreaterThan(0);
      for (const item of row.content as unknown[]) {
        expect(item).toMatchObject({
          name: expect.any(String),
          strength: expect.any(String),
          form: expect.any(String),
          quantity: expect.any(Number),
          unit: expect.any(String),
          dosage: expect.any(String),
        });
      }
      if (row.status !== 'new') expect(row.issuer_receipt_id).not.toBeNull();
      if (['picked_up', 'delivered', 'returned'].includes(row.status as string))
        expect(row.pickup_receipt_id).not.toBeNull();
    }
    expect(await count(db, 'documents')).toBeGreaterThan(await count(db, 'prescriptions'));
    expect(await count(db, 'document_signing_parties')).toBeGreaterThan(0);
  });

  it("tells each prescription's history: written, then every action that brought it to its status, by its party", async () => {
    const db = first.handle;
    const prescriptions = await rows(
      db,
      `select p.id, p.status, p.version, p.issuer_id, p.pickup_by_nurse, p.nurse_id, p.shipper_driver_id,
         p.issuer_receipt_id, p.pickup_receipt_id, p.created_at, p.updated_at,
         array(select e.user_id from user_employers e where e.service_provider_id = p.supplier_id) as pharmacy
       from prescriptions p`,
    );
    const history = await rows(
      db,
      `select record_id, action, actor_user_id, at, changes from audit_log
       where resource = 'prescriptions' order by at, id`,
    );
    for (const prescription of prescriptions) {
      const entries = history.filter((entry) => entry.record_id === prescription.id);
      expect(entries[0]).toMatchObject({ action: 'create', actor_user_id: prescription.issuer_id });
      expect(entries[0]!.at).toEqual(prescription.created_at);
      let status: PrescriptionStatus = 'new';
      let picker: unknown = null;
      const actions = entries.filter((entry) => !/^create$|-requested$/.test(entry.action as string));
      for (const entry of actions) {
        const action = entry.action as PrescriptionAction;
        const next = nextStatus(action, status);
        expect(next, `${action} from ${status}`).not.toBeNull();
        expect(entry.changes).toMatchObject({ status: next });
        const actor = prescriptionTransitions[action].actor;
        if (actor === 'issuer') expect(entry.actor_user_id).toBe(prescription.issuer_id);
        if (actor === 'supplierPharmacist') expect(prescription.pharmacy).toContain(entry.actor_user_id);
        if (actor === 'pickupParty') {
          picker = entry.actor_user_id;
          const party = prescription.pickup_by_nurse ? prescription.nurse_id : prescription.shipper_driver_id;
          expect(picker).toBe(party);
        }
        if (actor === 'picker') expect(entry.actor_user_id).toBe(picker);
        if (action === 'hold' || action === 'return') expect(entry.changes).toHaveProperty('reason');
        status = next!;
      }
      expect(status).toBe(prescription.status);
      expect(Number(prescription.version)).toBe(actions.length + 1);
      expect(entries.at(-1)!.at).toEqual(prescription.updated_at);
      // A signed action's signature was asked first, of the one who signed its receipt.
      for (const [action, receipt] of [
        ['issue', prescription.issuer_receipt_id],
        ['pickup', prescription.pickup_receipt_id],
      ] as const) {
        const done = actions.find((entry) => entry.action === action);
        const asked = entries.find((entry) => entry.action === `${action}-requested`);
        if (!done) {
          expect(asked).toBeUndefined();
          continue;
        }
        expect(asked).toMatchObject({
          actor_user_id: done.actor_user_id,
          changes: { documentId: receipt, signer: done.actor_user_id },
        });
        expect(time(asked!.at)).toBeLessThan(time(done.at));
      }
      for (const entry of entries) expect(time(entry.at)).toBeLessThanOrEqual(ANCHOR);
    }
  });

  // It loads the whole demo a second time, as the hook did the first: the hook's time, not a test's.
  it('is deterministic: the same seed and time give the same rows in another database', async () => {
    const again = await loadDemoDataIfEmpty(second.handle, { now: NOW });
    expect({ ...again, milliseconds: 0 }).toEqual({ ...summary, milliseconds: 0 });
    const samples = [
      'select id, username, first_name, last_name, local_roles, additional_info, patient_profile_id, created_at from users order by id',
      'select id, status, location, emergency_contacts from patient_profiles order by id',
      'select id, title, address from command_centers order by id',
      'select * from device_stats order by id limit 200',
      'select * from iot_device_data order by id limit 500',
      'select id, hardware_identifier, supported_data_types, assigned_user_id from iot_devices order by id',
      'select id, status, content, issuer_id, recipient_id, shipper_driver_id from prescriptions order by id',
      'select id, status, results, not_before from device_runner_jobs order by id',
      'select id, is_active, data, closing_data from alerts order by id',
      'select at, actor_user_id, action, record_id, changes from audit_log order by at, record_id, action',
    ];
    for (const sample of samples) {
      expect(await rows(second.handle, sample)).toEqual(await rows(first.handle, sample));
    }
  }, 90_000);

  it('gives the same ids and series values at another load time', () => {
    const today = buildDemoData({ now: NOW });
    const later = buildDemoData({ now: NOW + 6 * 3_600_000 });
    expect(later.staff.map((row) => row.id)).toEqual(today.staff.map((row) => row.id));
    expect(later.prescriptions.map((row) => row.id)).toEqual(today.prescriptions.map((row) => row.id));
    // A reading of a time slot both loads cover is the same reading.
    const byId = new Map(today.iotDeviceData.map((row) => [row.id, row]));
    const shared = later.iotDeviceData.filter((row) => byId.has(row.id));
    expect(shared.length).toBeGreaterThan(later.iotDeviceData.length * 0.9);
    for (const row of shared.slice(0, 500)) expect(row).toEqual(byId.get(row.id));
    // So is a device's stat: a moment reported every 15 minutes in one load and hourly in the other (it left
    // the last week between the two) keeps its id and values.
    const statsById = new Map(today.deviceStats.map((row) => [row.id, row]));
    const sharedStats = later.deviceStats.filter((row) => statsById.has(row.id));
    // Reported every 15 minutes in the first load, hourly in the later one.
    const seam = sharedStats.filter(
      (row) => row.timestamp > ANCHOR - WEEK + 60_000 && row.timestamp < ANCHOR + 6 * HOUR - WEEK,
    );
    expect(seam.length).toBeGreaterThan(0);
    for (const row of [...seam, ...sharedStats.slice(0, 200)]) expect(row).toEqual(statsById.get(row.id));
    expect(sharedStats.length).toBeGreaterThan(today.deviceStats.length * 0.9);
  });

  it('is not loaded twice', async () => {
    const before = await count(first.handle, 'users');
    const readings = await count(first.handle, 'iot_device_data');
    expect(await loadDemoDataIfEmpty(first.handle, { now: NOW + 86_400_000 })).toBeNull();
    expect(await count(first.handle, 'users')).toBe(before);
    expect(await count(first.handle, 'iot_device_data')).toBe(readings);
  });
});

describe.runIf(process.env.DATABASE_URL_TEST)('demo data with several processes starting at once', () => {
  it('is loaded by one; the other waits for it past its lock deadline and loads nothing', async () => {
    const created = await createPostgresDatabase('careplane_demo_race');
    // Deadlines far shorter than the load: a process waiting for the other's load must not give up.
    const timeouts = { connectMs: 5_000, statementMs: 200, lockMs: 100 };
    const handles = await Promise.all([
      openDatabase({ databaseUrl: created.url, poolSize: 2, timeouts }),
      openDatabase({ databaseUrl: created.url, poolSize: 2, timeouts }),
    ]);
    try {
      const loads = await Promise.all(handles.map((handle) => loadDemoDataIfEmpty(handle, { now: NOW })));
      expect(loads.filter((load) => load !== null)).toHaveLength(1);
      expect(await count(handles[0], 'users')).toBe(loads.find((load) => load !== null)!.users);
    } finally {
      for (const handle of handles) await handle.close();
      await created.drop();
    }
  }, 120_000);
});
