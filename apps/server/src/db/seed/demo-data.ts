// The demo data set as plain rows: a pure function of (seed, anchor), so tests can compare two builds.
// Each aggregate has its builder in demo/; this file runs them and hands the rows to demo.ts.
import type * as schema from '../schema/index.js';
import { DEMO_SEED, createSeedContext } from './demo/context.js';
import { buildDeviceJobs, buildDevices } from './demo/devices.js';
import { buildAlerts, buildIotDevices } from './demo/iot.js';
import { buildOrganisations } from './demo/organisations.js';
import { buildPeople } from './demo/people.js';
import { buildPrescriptions } from './demo/prescriptions.js';

export { DEMO_DOMAIN, DEMO_SEED, demoAnchor } from './demo/context.js';
export { demoSignInUsers, type DemoSignInUser } from './demo/people.js';

export interface DemoData {
  seed: string;
  anchor: number;
  commandCenters: (typeof schema.commandCenters.$inferInsert)[];
  serviceProviders: (typeof schema.serviceProviders.$inferInsert)[];
  /** Users without a patient profile: inserted before the profiles they create. */
  staff: (typeof schema.users.$inferInsert)[];
  patientProfiles: (typeof schema.patientProfiles.$inferInsert)[];
  patients: (typeof schema.users.$inferInsert)[];
  userEmployers: (typeof schema.userEmployers.$inferInsert)[];
  userAssignedNurses: (typeof schema.userAssignedNurses.$inferInsert)[];
  commandCenterUsers: (typeof schema.commandCenterUsers.$inferInsert)[];
  devices: (typeof schema.devices.$inferInsert)[];
  deviceStats: (typeof schema.deviceStats.$inferInsert)[];
  workstations: (typeof schema.workstations.$inferInsert)[];
  workstationDevices: (typeof schema.workstationDevices.$inferInsert)[];
  workstationPatients: (typeof schema.workstationPatients.$inferInsert)[];
  iotDevices: (typeof schema.iotDevices.$inferInsert)[];
  iotDeviceDevices: (typeof schema.iotDeviceDevices.$inferInsert)[];
  iotDeviceData: (typeof schema.iotDeviceData.$inferInsert)[];
  alerts: (typeof schema.alerts.$inferInsert)[];
  deviceRunnerJobs: (typeof schema.deviceRunnerJobs.$inferInsert)[];
  documents: (typeof schema.documents.$inferInsert)[];
  documentSigningParties: (typeof schema.documentSigningParties.$inferInsert)[];
  prescriptions: (typeof schema.prescriptions.$inferInsert)[];
  /** The prescriptions' histories: the audit rows of their creation and of each action since. */
  prescriptionHistory: (typeof schema.auditLog.$inferInsert)[];
}

export function buildDemoData(options: { seed?: string; now: number }): DemoData {
  const context = createSeedContext(options.seed ?? DEMO_SEED, options.now);
  // The builders draw from one random sequence, so they run in this order; each takes what it needs from
  // the earlier ones.
  const organisations = buildOrganisations(context);
  const people = buildPeople(context, organisations);
  const { population } = people;
  const devices = buildDevices(context, organisations, population);
  const iot = buildIotDevices(context, devices);
  const alertSet = buildAlerts(context, population, devices, iot);
  const deviceRunnerJobs = buildDeviceJobs(context, population, devices);
  const paperwork = buildPrescriptions(context, organisations, population, iot);

  return {
    seed: context.seed,
    anchor: context.anchor,
    commandCenters: organisations.commandCenters,
    serviceProviders: organisations.serviceProviders,
    staff: people.staff,
    patientProfiles: people.patientProfiles,
    patients: people.patients,
    userEmployers: people.userEmployers,
    userAssignedNurses: people.userAssignedNurses,
    commandCenterUsers: people.commandCenterUsers,
    devices: devices.devices,
    deviceStats: devices.deviceStats,
    workstations: devices.workstations,
    workstationDevices: devices.workstationDevices,
    workstationPatients: devices.workstationPatients,
    iotDevices: iot.iotDevices,
    iotDeviceDevices: iot.iotDeviceDevices,
    iotDeviceData: [...iot.readings, ...alertSet.readings],
    alerts: alertSet.alerts,
    deviceRunnerJobs,
    documents: paperwork.documents,
    documentSigningParties: paperwork.documentSigningParties,
    prescriptions: paperwork.prescriptions,
    prescriptionHistory: paperwork.prescriptionHistory,
  };
}
