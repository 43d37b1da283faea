// Demo data for an empty database: every screen has something to show, the same for the same seed.
//
// Ids are name-based uuids of (seed, record), so they never change. Timestamps hang off an anchor: the
// load time rounded down to 15 minutes, so a month of stats and readings ends "now" and charts look alive.
// Time series values depend on the absolute time slot, not on the anchor (see demo-series.ts).
import { sql } from 'drizzle-orm';
import type { DatabaseHandle, Executor } from '../client.js';
import {
  alerts,
  auditLog,
  commandCenterUsers,
  commandCenters,
  deviceRunnerJobs,
  deviceStats,
  devices,
  documentSigningParties,
  documents,
  iotDeviceData,
  iotDeviceDevices,
  iotDevices,
  patientProfiles,
  prescriptions,
  serviceProviders,
  userAssignedNurses,
  userEmployers,
  users,
  workstationDevices,
  workstationPatients,
  workstations,
} from '../schema/index.js';
import { insertRows } from './bulk.js';
import { DEMO_SEED, buildDemoData, demoSignInUsers, type DemoData } from './demo-data.js';

export { DEMO_SEED, buildDemoData, demoSignInUsers } from './demo-data.js';

export interface DemoDataOptions {
  /** Another seed gives another, equally consistent data set. */
  seed?: string;
  /** The moment the data should end at (milliseconds or a Date); defaults to the current time. */
  now?: number | Date;
}

export interface DemoDataSummary {
  seed: string;
  /** The demo's "now" (ISO 8601): stats and readings end here. */
  anchor: string;
  users: number;
  patientProfiles: number;
  commandCenters: number;
  serviceProviders: number;
  devices: number;
  deviceStats: number;
  workstations: number;
  iotDevices: number;
  iotReadings: number;
  alerts: number;
  runnerJobs: number;
  prescriptions: number;
  documents: number;
  signInUsers: string[];
  milliseconds: number;
}

// Serialises concurrent first starts of several server processes on one PostgreSQL database.
const DEMO_LOCK_KEY = 'careplane:demo-data';

/** Loads the demo data in one transaction when the users table is empty; otherwise returns null. */
export async function loadDemoDataIfEmpty(
  database: DatabaseHandle,
  options: DemoDataOptions = {},
): Promise<DemoDataSummary | null> {
  const started = performance.now();
  if (await hasUsers(database.db)) return null;
  const now = options.now instanceof Date ? options.now.getTime() : (options.now ?? Date.now());
  const data = buildDemoData({ seed: options.seed ?? DEMO_SEED, now });
  const loaded = await database.db.transaction(async (tx) => {
    await holdDemoLock(tx, DEMO_LOCK_KEY);
    if (await hasUsers(tx)) return false;
    await insertDemoData(tx, data);
    return true;
  });
  if (!loaded) return null;
  return summarise(data, performance.now() - started);
}

/**
 * Processes started at once on a new database each find it empty: the first to take this lock (until its
 * transaction ends) loads that part of the demo, and the others, asking again once they hold it, find it done.
 */
export async function holdDemoLock(tx: Executor, key: string): Promise<void> {
  // Another process loading the demo holds the lock for longer than a request may wait for one (and its
  // inserts take longer than a request's statement): waiting here is the point, so no deadline applies.
  await tx.execute(sql`set local lock_timeout = 0`);
  await tx.execute(sql`set local statement_timeout = 0`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

async function hasUsers(executor: Executor) {
  const [row] = await executor.select({ id: users.id }).from(users).limit(1);
  return row !== undefined;
}

/** Parents before children: staff (who create everything), then profiles, then the patients who own them. */
async function insertDemoData(tx: Executor, data: DemoData) {
  await insertRows(tx, users, data.staff);
  await insertRows(tx, commandCenters, data.commandCenters);
  await insertRows(tx, serviceProviders, data.serviceProviders);
  await insertRows(tx, patientProfiles, data.patientProfiles);
  await insertRows(tx, users, data.patients);
  await insertRows(tx, userEmployers, data.userEmployers);
  await insertRows(tx, userAssignedNurses, data.userAssignedNurses);
  await insertRows(tx, commandCenterUsers, data.commandCenterUsers);
  await insertRows(tx, devices, data.devices);
  await insertRows(tx, deviceStats, data.deviceStats);
  await insertRows(tx, workstations, data.workstations);
  await insertRows(tx, workstationDevices, data.workstationDevices);
  await insertRows(tx, workstationPatients, data.workstationPatients);
  await insertRows(tx, iotDevices, data.iotDevices);
  await insertRows(tx, iotDeviceDevices, data.iotDeviceDevices);
  await insertRows(tx, iotDeviceData, data.iotDeviceData);
  await insertRows(tx, alerts, data.alerts);
  await insertRows(tx, deviceRunnerJobs, data.deviceRunnerJobs);
  await insertRows(tx, documents, data.documents);
  await insertRows(tx, documentSigningParties, data.documentSigningParties);
  await insertRows(tx, prescriptions, data.prescriptions);
  await insertRows(tx, auditLog, data.prescriptionHistory);
}

function summarise(data: DemoData, milliseconds: number): DemoDataSummary {
  return {
    seed: data.seed,
    anchor: new Date(data.anchor).toISOString(),
    users: data.staff.length + data.patients.length,
    patientProfiles: data.patientProfiles.length,
    commandCenters: data.commandCenters.length,
    serviceProviders: data.serviceProviders.length,
    devices: data.devices.length,
    deviceStats: data.deviceStats.length,
    workstations: data.workstations.length,
    iotDevices: data.iotDevices.length,
    iotReadings: data.iotDeviceData.length,
    alerts: data.alerts.length,
    runnerJobs: data.deviceRunnerJobs.length,
    prescriptions: data.prescriptions.length,
    documents: data.documents.length,
    signInUsers: demoSignInUsers(data.seed).map((user) => user.username),
    milliseconds: Math.round(milliseconds),
  };
}
