// Scale data for benchmarks: hundreds of thousands of rows per table, made by set-based SQL
// (INSERT ... SELECT FROM generate_series) so the database does the work, not a row-by-row loop.
//
// Every run adds a new batch: its usernames, hardware identifiers and ids carry a batch tag, so runs can be
// repeated on the same database. Ids are uuid v7 (time-ordered); ids of records that other rows point at
// are computed from (tag, kind, ordinal), so a later statement can name them without a join.
import type { DatabaseHandle } from '../client.js';
import { firstNames, lastNames, regions } from './reference-data.js';

export interface ScaleOptions {
  users: number;
  readings: number;
  /** IoT devices; default users / 40, so each has a few hundred readings. */
  iotDevices?: number;
  /** Client devices; default users / 20. */
  devices?: number;
  /** Stats per client device, every 15 minutes back from now; default 24. */
  statsPerDevice?: number;
  /** Command centers; default users / 5,000, at least 3. */
  commandCenters?: number;
  /** Service providers, types in turn; default users / 1,000, at least 3. */
  serviceProviders?: number;
  /** Readings spread over this many days back from now; default 14. */
  readingDays?: number;
  /** Rows per INSERT statement for the big tables. */
  statementRows?: number;
  now?: number;
  log?: (line: string) => void;
}

export const scalePresets = {
  small: { users: 10_000, readings: 100_000 },
  large: { users: 100_000, readings: 1_000_000 },
} as const satisfies Record<string, ScaleOptions>;
export type ScalePreset = keyof typeof scalePresets;

export interface ScaleStep {
  table: string;
  rows: number;
  milliseconds: number;
}

export interface ScaleResult {
  tag: string;
  domain: string;
  counts: Record<string, number>;
  steps: ScaleStep[];
  milliseconds: number;
}

const DAY = 86_400_000;
const STAT_INTERVAL = 15 * 60_000;

/** Local roles by user ordinal, per block of 200: the mix of a care-at-home organisation. */
const roleBands: readonly [string, number][] = [
  ['patient', 140],
  ['caregiver', 20],
  ['nurse', 16],
  ['doctor', 8],
  ['courier', 6],
  ['pharmacist', 6],
  ['supervisor', 3],
  ['application_admin', 1],
];
const BLOCK = 200;
const PATIENTS_PER_BLOCK = 140;
const NURSE_START = 160;
const NURSES_PER_BLOCK = 16;
const iotTypes = ['heart_rate', 'battery', 'temperature', 'pressure', 'blood_pressure', 'alert'] as const;
const providerTypes = ['pharmacy', 'courier', 'nurse'] as const;

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
const textArray = (values: readonly string[]) => `array[${values.map(literal).join(',')}]::text[]`;
const int = (value: number) => {
  if (!Number.isSafeInteger(value)) throw new Error(`Not an integer: ${value}`);
  return String(value);
};

/** SQL for a uuid v7 from a millisecond timestamp and a text key (hashed for the random bits). */
const uuid7 = (millis: string, key: string) =>
  `(lpad(to_hex((${millis})::bigint), 12, '0') || '7' || substr(md5(${key}), 1, 3) || '8' || substr(md5(${key}), 4, 15))::uuid`;
/** SQL for a uuid v7 whose random bits come from gen_random_uuid(): for rows nobody points at. */
const uuid7Random = (millis: string) =>
  `(lpad(to_hex((${millis})::bigint), 12, '0') || '7' || substr(replace(gen_random_uuid()::text, '-', ''), 14))::uuid`;

function countPatients(users: number) {
  return Math.floor(users / BLOCK) * PATIENTS_PER_BLOCK + Math.min(users % BLOCK, PATIENTS_PER_BLOCK);
}

/** Fills the database with a new batch of scale data and reports per-table timings. */
export async function generateScaleData(
  database: DatabaseHandle,
  options: ScaleOptions,
): Promise<ScaleResult> {
  const log = options.log ?? (() => undefined);
  const now = options.now ?? Date.now();
  const nUsers = options.users;
  const nReadings = options.readings;
  if (nUsers < BLOCK) throw new Error(`Scale data needs at least ${BLOCK} users`);
  const nPatients = countPatients(nUsers);
  const nCenters = options.commandCenters ?? Math.max(3, Math.floor(nUsers / 5_000));
  const nProviders = options.serviceProviders ?? Math.max(3, Math.floor(nUsers / 1_000));
  const nDevices = options.devices ?? Math.max(10, Math.floor(nUsers / 20));
  const nIot = Math.min(options.iotDevices ?? Math.max(6, Math.floor(nUsers / 40)), nPatients);
  const statsPerDevice = options.statsPerDevice ?? 24;
  const nWorkstations = Math.floor(nDevices / 10);
  const readingSpan = (options.readingDays ?? 14) * DAY;
  const statementRows = options.statementRows ?? 100_000;
  const tag = `b${now.toString(36)}${Math.floor(Math.random() * 36 ** 3)
    .toString(36)
    .padStart(3, '0')}`;
  const domain = `${tag}.scale.careplane.local`;

  // Users are created over the last year, in ordinal order, so their v7 ids rise with the ordinal.
  const userStart = now - 365 * DAY;
  const userStep = Math.max(1, Math.floor((365 * DAY) / nUsers));
  const userMillis = (ordinal: string) =>
    `(${int(userStart)}::bigint + (${ordinal})::bigint * ${int(userStep)})`;
  const userId = (ordinal: string) => uuid7(userMillis(ordinal), `'${tag}:u:' || (${ordinal})`);
  const entityId = (kind: string, ordinal: string) => uuid7(int(now), `'${tag}:${kind}:' || (${ordinal})`);
  const profileId = (ordinal: string) => uuid7(userMillis(ordinal), `'${tag}:p:' || (${ordinal})`);
  /** The user ordinal of the k-th patient. */
  const patientUser = (k: string) =>
    `((${k}) / ${PATIENTS_PER_BLOCK} * ${BLOCK} + (${k}) % ${PATIENTS_PER_BLOCK})`;
  const roleCase = (ordinal: string) => {
    let upper = 0;
    const branches = roleBands.map(([role, size]) => {
      upper += size;
      return `when (${ordinal}) % ${BLOCK} < ${upper} then ${literal(role)}`;
    });
    return `(case ${branches.join(' ')} end)`;
  };
  const firsts = textArray(firstNames.map((name) => name.name));
  const firstsThai = textArray(firstNames.map((name) => name.thai));
  const genders = textArray(firstNames.map((name) => name.gender));
  const lasts = textArray(lastNames.map((name) => name.name));
  const lastsThai = textArray(lastNames.map((name) => name.thai));
  const places = regions.flatMap((region) => region.places);
  const placeField = (field: 'district' | 'city' | 'county' | 'postalCode') =>
    textArray(places.map((place) => place[field]));
  const placeLat = `array[${places.map((place) => place.lat).join(',')}]::float8[]`;
  const placeLng = `array[${places.map((place) => place.lng).join(',')}]::float8[]`;
  const streets = textArray([...new Set(places.flatMap((place) => place.streets))]);
  const pick = (array: string, length: number, ordinal: string) =>
    `(${array})[(1 + (${ordinal}) % ${length})::int]`;
  const addressJson = (ordinal: string, title: string) => {
    const place = `(${ordinal}) % ${places.length}`;
    const at = (array: string) => `(${array})[1 + ${place}]`;
    return `jsonb_build_object('title', ${literal(title)}, 'street', ${pick(streets, new Set(places.flatMap((p) => p.streets)).size, `(${ordinal}) / 7`)},
      'houseNumber', (1 + (${ordinal}) % 400)::text, 'district', ${at(placeField('district'))}, 'city', ${at(placeField('city'))},
      'county', ${at(placeField('county'))}, 'postalCode', ${at(placeField('postalCode'))}, 'country', 'Thailand',
      'geo', jsonb_build_object('lat', round((${at(placeLat)} + (((${ordinal})::bigint * 7919) % 4000 - 2000) / 100000.0)::numeric, 6),
                                'lng', round((${at(placeLng)} + (((${ordinal})::bigint * 104729) % 4000 - 2000) / 100000.0)::numeric, 6)))`;
  };

  const steps: ScaleStep[] = [];
  const started = performance.now();
  const run = async (table: string, expected: number, statement: string) => {
    const stepStarted = performance.now();
    // Both drivers report the rows an INSERT wrote: node-postgres as rowCount, PGlite as affectedRows.
    const result = (await database.rawQuery(statement)) as {
      rowCount?: number | null;
      affectedRows?: number;
    };
    const rows = result.rowCount ?? result.affectedRows ?? expected;
    const milliseconds = performance.now() - stepStarted;
    const existing = steps.find((step) => step.table === table);
    if (existing) {
      existing.rows += rows;
      existing.milliseconds += milliseconds;
    } else {
      steps.push({ table, rows, milliseconds });
    }
    return milliseconds;
  };
  /** Runs a statement over [0, total) in slices of statementRows ordinals. */
  const runSliced = async (table: string, total: number, build: (from: number, to: number) => string) => {
    for (let from = 0; from < total; from += statementRows) {
      const to = Math.min(total, from + statementRows) - 1;
      await run(table, to - from + 1, build(from, to));
      if (total > statementRows)
        log(`  ${table}: ${(to + 1).toLocaleString('en')} of ${total.toLocaleString('en')} done`);
    }
  };

  log(
    `Scale batch ${tag} on ${database.kind}: ${nUsers.toLocaleString('en')} users, ${nReadings.toLocaleString('en')} readings`,
  );

  await run(
    'command_centers',
    nCenters,
    `insert into command_centers (id, title, address, created_at, updated_at)
     select ${entityId('cc', 'i')}, 'Command center ' || ${pick(placeField('city'), places.length, 'i')} || ' ${tag}-' || i,
       ${addressJson('i', 'Command center')}, to_timestamp(${int(now)} / 1000.0), to_timestamp(${int(now)} / 1000.0)
     from generate_series(0, ${int(nCenters - 1)}) as i`,
  );
  await run(
    'service_providers',
    nProviders,
    `insert into service_providers (id, title, type, address, is_enabled, created_at, updated_at)
     select ${entityId('sp', 'i')}, initcap(${pick(textArray(providerTypes), 3, 'i')}) || ' provider ${tag}-' || i,
       ${pick(textArray(providerTypes), 3, 'i')}, ${addressJson('i', 'Office')}, i % 50 <> 49,
       to_timestamp(${int(now)} / 1000.0), to_timestamp(${int(now)} / 1000.0)
     from generate_series(0, ${int(nProviders - 1)}) as i`,
  );
  // Profiles first: users point at them.
  await runSliced(
    'patient_profiles',
    nUsers,
    (from, to) => `
    insert into patient_profiles (id, status, location, emergency_contacts, created_at, updated_at)
    select ${profileId('i')}, ${pick(textArray(['enrolled', 'enrolled', 'enrollment', 'discharged']), 4, 'i / 7')},
      jsonb_build_object('title', 'Home', 'address', ${addressJson('i', 'Home')}),
      jsonb_build_array(jsonb_build_object('name', ${pick(firsts, firstNames.length, 'i / 3')} || ' ' || ${pick(lasts, lastNames.length, 'i / 11')},
        'relationship', ${pick(textArray(['daughter', 'son', 'spouse', 'neighbour']), 4, 'i')}, 'phoneNumber', '+66 8' || lpad((i % 100000000)::text, 8, '0'))),
      to_timestamp(${userMillis('i')} / 1000.0), to_timestamp(${userMillis('i')} / 1000.0)
    from generate_series(${from}, ${to}) as i
    where i % ${BLOCK} < ${PATIENTS_PER_BLOCK}`,
  );

  await runSliced(
    'users',
    nUsers,
    (from, to) => `
    insert into users (id, username, username_without_domain, primary_domain, email, phone_number, title, first_name, last_name,
      identity_assurance_level, is_verified, registration_completed, registration_status, address, roles, local_roles,
      additional_info, patient_profile_id, created_at, updated_at)
    select ${userId('i')}, u.local || '@${domain}', u.local, '${domain}', u.local || '@example.com',
      '+66 9' || lpad((i % 100000000)::text, 8, '0'), case when u.role = 'doctor' then 'Dr.' when u.gender = 'female' then 'Ms.' else 'Mr.' end,
      u.first, u.last, case when u.role = 'patient' then 'substantial' else 'high' end, i % 10 <> 0, i % 25 <> 0,
      case when i % 25 = 0 then 'registered' else 'completed' end,
      jsonb_build_array(${addressJson('i', 'Home')}), array['public']::text[], array[u.role]::text[],
      jsonb_build_object('localizedFirstName', u.first_thai, 'localizedLastName', u.last_thai, 'gender', u.gender,
        'identityDocumentType', 'national_id', 'identityDocumentNumber', lpad((1000000000000 + i * 7919)::text, 13, '0'),
        'identityDocumentIsValidIndefinitely', false,
        'dateOfBirth', to_char(date '1935-01-01' + (i * 37 % 25000)::int, 'YYYY-MM-DD')),
      case when u.role = 'patient' then ${profileId('i')} end,
      to_timestamp(${userMillis('i')} / 1000.0), to_timestamp(${userMillis('i')} / 1000.0)
    from generate_series(${from}, ${to}) as i,
    lateral (select ${roleCase('i')} as role,
      ${pick(firsts, firstNames.length, 'i')} as first, ${pick(firstsThai, firstNames.length, 'i')} as first_thai,
      ${pick(genders, firstNames.length, 'i')} as gender,
      ${pick(lasts, lastNames.length, 'i / ' + firstNames.length)} as last, ${pick(lastsThai, lastNames.length, 'i / ' + firstNames.length)} as last_thai,
      lower(${pick(firsts, firstNames.length, 'i')} || '.' || ${pick(lasts, lastNames.length, 'i / ' + firstNames.length)}) || '.' || i as local) as u`,
  );

  // Everyone belongs to a command center; every fifth user to a second one.
  await runSliced(
    'command_center_users',
    nUsers,
    (from, to) => `
    insert into command_center_users (command_center_id, user_id)
    select ${entityId('cc', `c`)}, ${userId('i')}
    from generate_series(${from}, ${to}) as i,
    lateral (values (i % ${nCenters}), ((i + 1) % ${nCenters})) as v(c)
    where v.c = i % ${nCenters} or (i % 5 = 0 and ${nCenters} > 1)`,
  );
  // Nurses, couriers and pharmacists work for a provider of their kind.
  const providerOfType = (typeIndex: number, ordinal: string) =>
    `((${ordinal}) % greatest(1, (${nProviders} - ${typeIndex} + 2) / 3)) * 3 + ${typeIndex}`;
  await runSliced(
    'user_employers',
    nUsers,
    (from, to) => `
    insert into user_employers (user_id, service_provider_id)
    select ${userId('i')}, ${entityId('sp', 'p')}
    from generate_series(${from}, ${to}) as i,
    lateral (select case ${roleCase('i')} when 'pharmacist' then ${providerOfType(0, 'i')}
      when 'courier' then ${providerOfType(1, 'i')} when 'nurse' then ${providerOfType(2, 'i')} end as p) as e
    where e.p is not null and e.p < ${nProviders}`,
  );
  // Each patient has a nurse of the same block of 200.
  await runSliced(
    'user_assigned_nurses',
    nUsers,
    (from, to) => `
    insert into user_assigned_nurses (user_id, nurse_id)
    select ${userId('i')}, ${userId('n')}
    from generate_series(${from}, ${to}) as i,
    lateral (select i / ${BLOCK} * ${BLOCK} + ${NURSE_START} + i % ${NURSES_PER_BLOCK} as n) as a
    where i % ${BLOCK} < ${PATIENTS_PER_BLOCK} and a.n < ${nUsers}`,
  );

  const deviceRoles = textArray([
    'patient_terminal',
    'patient_terminal',
    'workstation',
    'monitoring_workstation',
    'supervisor_workstation',
    'screen_workstation',
  ]);
  await run(
    'devices',
    nDevices,
    `insert into devices (id, title, location, is_enabled, role, local_roles, assigned_user_id, command_center_id, created_at, updated_at)
     select ${entityId('dev', 'd')}, 'Device ${tag}-' || d, jsonb_build_object('title', 'Site ' || d, 'address', ${addressJson('d', 'Site')}),
       d % 40 <> 39, r.role, array[r.role]::text[], ${userId(patientUser(`d % ${nPatients}`))}, ${entityId('cc', `d % ${nCenters}`)},
       to_timestamp(${int(now)} / 1000.0), to_timestamp(${int(now)} / 1000.0)
     from generate_series(0, ${int(nDevices - 1)}) as d,
     lateral (select ${pick(deviceRoles, 6, 'd')} as role) as r`,
  );
  const nStats = nDevices * statsPerDevice;
  await runSliced(
    'device_stats',
    nStats,
    (from, to) => `
    insert into device_stats (id, timestamp, boot_time, firmware, network, system, hardware, software, device_id, created_at)
    select ${uuid7Random('t.ts')}, t.ts, t.ts - (s * ${STAT_INTERVAL}) % (3 * ${DAY}) - 60000, 'CP-WS firmware 5.0.' || (d % 4),
      jsonb_build_array(jsonb_build_object('name', 'eth0', 'mac', '02:42:' || lpad(to_hex(d / 256 % 256), 2, '0') || ':' || lpad(to_hex(d % 256), 2, '0') || ':00:01', 'type', 'wired', 'active', true,
        'ip4', jsonb_build_object('ip', '10.' || (d / 65536 % 256) || '.' || (d / 256 % 256) || '.' || (d % 256), 'extIp', '203.150.0.' || (d % 250),
          'gateway', '10.0.0.1', 'dns', jsonb_build_array('1.1.1.1')),
        'ip6', jsonb_build_object('ip', 'fd00::' || to_hex(d), 'extIp', null, 'gateway', 'fd00::1', 'dns', jsonb_build_array()))),
      jsonb_build_object('osVersion', 'Debian GNU/Linux 12 (bookworm)',
        'loadAverage', jsonb_build_object('user', round((0.2 + ((d * 31 + s * 17) % 100) / 60.0)::numeric, 2), 'wait', 0.02, 'system', 0.1),
        'hdd', jsonb_build_object('usage', 30 + d % 40, 'used', (30 + d % 40) * 1280000000::bigint),
        'cpu', jsonb_build_object('usage', (d * 13 + s * 7) % 90 + 5, 'used', round((((d * 13 + s * 7) % 90 + 5) / 25.0)::numeric, 2)),
        'memory', jsonb_build_object('usage', 30 + (d + s) % 50, 'used', (30 + (d + s) % 50) * 80000000::bigint),
        'swap', jsonb_build_object('usage', 0, 'used', 0)),
      jsonb_build_object('cpu', jsonb_build_array(jsonb_build_object('model', 'Intel(R) Celeron(R) N5105', 'cores', 4)),
        'memory', jsonb_build_object('total', 8589934592), 'disks', jsonb_build_array(jsonb_build_object('name', 'nvme0n1', 'size', 128000000000))),
      null, ${entityId('dev', 'd')}, to_timestamp(t.ts / 1000.0)
    from generate_series(${from}, ${to}) as i,
    lateral (select i % ${nDevices} as d, i / ${nDevices} as s) as k,
    lateral (select ${int(now)}::bigint - (${statsPerDevice} - 1 - k.s) * ${STAT_INTERVAL} - (k.d * 7919 % 60000) as ts) as t`,
  );

  if (nWorkstations > 0) {
    await run(
      'workstations',
      nWorkstations,
      `insert into workstations (id, title, device_id, created_at, updated_at)
       select ${entityId('ws', 'w')}, 'Workstation ${tag}-' || w, ${entityId('dev', 'w * 10')},
         to_timestamp(${int(now)} / 1000.0), to_timestamp(${int(now)} / 1000.0)
       from generate_series(0, ${int(nWorkstations - 1)}) as w`,
    );
    await run(
      'workstation_devices',
      nWorkstations * 4,
      `insert into workstation_devices (workstation_id, device_id)
       select ${entityId('ws', 'w')}, ${entityId('dev', 'w * 10 + k')}
       from generate_series(0, ${int(nWorkstations - 1)}) as w, generate_series(1, 4) as k`,
    );
    await run(
      'workstation_patients',
      nWorkstations * 3,
      `insert into workstation_patients (workstation_id, user_id)
       select distinct ${entityId('ws', 'w')}, ${userId(patientUser(`(w * 3 + k) % ${nPatients}`))}
       from generate_series(0, ${int(nWorkstations - 1)}) as w, generate_series(0, 2) as k`,
    );
  }

  // IoT devices belong to patients (the k-th device to the k-th patient) and to a client device.
  const iotType = (ordinal: string) => pick(textArray(iotTypes), iotTypes.length, ordinal);
  await run(
    'iot_devices',
    nIot,
    `insert into iot_devices (id, hardware_identifier, device_identifier, model, trust_level, connection_type, connection_meta,
       supported_data_types, assigned_user_id, created_by_device_id, created_at, updated_at)
     select ${entityId('iot', 'k')}, 'SC-' || upper('${tag}') || '-' || lpad(k::text, 7, '0'), 'SN-' || k, 'CP-' || upper(replace(t.type, '_', '')) || ' sensor',
       ${pick(textArray(['verified', 'verified', 'untrusted']), 3, 'k')}, ${pick(textArray(['ble', 'wifi', 'cellular', 'usb']), 4, 'k')},
       jsonb_build_object('firmwareVersion', '1.' || (k % 9) || '.0'),
       case when t.type = 'battery' then array['battery']::text[] else array[t.type, 'battery']::text[] end,
       ${userId(patientUser('k'))}, ${entityId('dev', `k % ${nDevices}`)}, to_timestamp(${int(now)} / 1000.0), to_timestamp(${int(now)} / 1000.0)
     from generate_series(0, ${int(nIot - 1)}) as k,
     lateral (select ${iotType('k')} as type) as t`,
  );
  await run(
    'iot_device_devices',
    nIot,
    `insert into iot_device_devices (iot_device_id, device_id)
     select ${entityId('iot', 'k')}, ${entityId('dev', `k % ${nDevices}`)} from generate_series(0, ${int(nIot - 1)}) as k`,
  );

  // Readings: time-major order (slot, then device), so the primary key grows and each device has an even series.
  const perDevice = Math.ceil(nReadings / nIot);
  const interval = Math.max(1, Math.floor(readingSpan / perDevice));
  await runSliced(
    'iot_device_data',
    nReadings,
    (from, to) => `
    insert into iot_device_data (id, timestamp, data_type, data, iot_device_id, user_id, created_by_user_id, created_at)
    select ${uuid7Random('r.ts')}, r.ts, r.type,
      case r.type
        when 'heart_rate' then jsonb_build_object('rate', 55 + (r.h % 50), 'timestamp', r.ts)
        when 'battery' then jsonb_build_object('level', 100 - (r.s % 96), 'timestamp', r.ts)
        when 'temperature' then jsonb_build_object('value', round((36.0 + (r.h % 25) / 10.0)::numeric, 1), 'unit', '°C', 'timestamp', r.ts)
        when 'pressure' then jsonb_build_object('value', round(((r.h % 450) / 100.0)::numeric, 2), 'unit', 'kPa', 'timestamp', r.ts)
        when 'blood_pressure' then jsonb_build_object('sys', 105 + (r.h % 50), 'dias', 65 + (r.h % 30), 'timestamp', r.ts)
        else jsonb_build_object('id', 'evt-' || r.k || '-' || r.s, 'type', 'button_pressed', 'severity', 'high', 'timestamp', r.ts)
      end,
      ${entityId('iot', 'r.k')}, ${userId(patientUser('r.k'))}, ${userId(patientUser('r.k'))},
      to_timestamp((r.ts + 900) / 1000.0)
    from generate_series(${from}, ${to}) as i,
    lateral (select i % ${nIot} as k, i / ${nIot} as s, (i * 2654435761) % 1000003 as h) as b,
    lateral (select b.k, b.s, b.h, ${iotType('b.k')} as type,
      ${int(now - readingSpan)}::bigint + b.s * ${interval} + (b.k * 7919) % ${interval} as ts) as r`,
  );

  // One alert per IoT device: every third still open.
  await run(
    'alerts',
    nIot,
    `insert into alerts (id, is_active, timestamp, data, closing_data, iot_device_id, user_id, created_by_user_id, created_at, updated_at)
     select ${uuid7Random('a.ts')}, k % 3 = 0, a.ts,
       jsonb_build_object('type', 'heart_rate_high', 'message', 'Heart rate above 130 bpm', 'severity', 'high'),
       case when k % 3 = 0 then null else jsonb_build_object('reason', 'resolved', 'closedAt', to_char(to_timestamp((a.ts + 600000) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')) end,
       ${entityId('iot', 'k')}, ${userId(patientUser('k'))}, ${userId(patientUser('k'))}, to_timestamp(a.ts / 1000.0), to_timestamp(a.ts / 1000.0)
     from generate_series(0, ${int(nIot - 1)}) as k,
     lateral (select ${int(now)}::bigint - (k * 7919 % ${int(readingSpan)}) as ts) as a`,
  );

  const analyseStarted = performance.now();
  await database.rawQuery(
    'analyze users, patient_profiles, command_center_users, user_employers, user_assigned_nurses, devices, device_stats, iot_devices, iot_device_devices, iot_device_data, alerts',
  );
  steps.push({ table: '(analyze)', rows: 0, milliseconds: performance.now() - analyseStarted });

  const counts = Object.fromEntries(
    steps.filter((step) => step.rows > 0).map((step) => [step.table, step.rows]),
  );
  return { tag, domain, counts, steps, milliseconds: performance.now() - started };
}

/** A table of step timings with rows per second, for the command line. */
export function formatScaleReport(result: ScaleResult): string {
  const lines = result.steps.map((step) => {
    const seconds = step.milliseconds / 1000;
    const rate = step.rows > 0 && seconds > 0 ? Math.round(step.rows / seconds).toLocaleString('en') : '-';
    return `  ${step.table.padEnd(22)} ${step.rows.toLocaleString('en').padStart(11)} rows  ${seconds.toFixed(1).padStart(7)} s  ${rate.padStart(9)} rows/s`;
  });
  const total = result.steps.reduce((sum, step) => sum + step.rows, 0);
  const seconds = result.milliseconds / 1000;
  lines.push(
    `  ${'total'.padEnd(22)} ${total.toLocaleString('en').padStart(11)} rows  ${seconds.toFixed(1).padStart(7)} s  ${Math.round(
      total / seconds,
    )
      .toLocaleString('en')
      .padStart(9)} rows/s`,
  );
  return lines.join('\n');
}
