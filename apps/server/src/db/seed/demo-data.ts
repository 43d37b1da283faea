// The demo data set as plain rows: a pure function of (seed, anchor), so tests can compare two builds.
import type {
  DeviceRole,
  IotDataType,
  LocalUserRole,
  PatientStatus,
  PrescriptionStatus,
  ProcessStatus,
} from '@careplane/shared/common/enums';
import type {
  alerts,
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
import {
  DAY,
  HOUR,
  MINUTE,
  STAT_INTERVAL,
  WEEK,
  buildDeviceStats,
  buildReadings,
  type ReadingSeries,
} from './demo-series.js';
import { createIdFactory, createRandom, hashString, type Random } from './random.js';
import {
  firstNames,
  lastNames,
  medicines,
  regions,
  relationships,
  type FirstName,
  type PersonName,
  type Place,
  type Region,
} from './reference-data.js';

export const DEMO_SEED = 'careplane-demo';
export const DEMO_DOMAIN = 'careplane.local';

/** The demo's "now": the load time rounded down to the 15-minute stats grid. */
export const demoAnchor = (now: number) => Math.floor(now / STAT_INTERVAL) * STAT_INTERVAL;

export interface DemoData {
  seed: string;
  anchor: number;
  commandCenters: (typeof commandCenters.$inferInsert)[];
  serviceProviders: (typeof serviceProviders.$inferInsert)[];
  /** Users without a patient profile: inserted before the profiles they create. */
  staff: (typeof users.$inferInsert)[];
  patientProfiles: (typeof patientProfiles.$inferInsert)[];
  patients: (typeof users.$inferInsert)[];
  userEmployers: (typeof userEmployers.$inferInsert)[];
  userAssignedNurses: (typeof userAssignedNurses.$inferInsert)[];
  commandCenterUsers: (typeof commandCenterUsers.$inferInsert)[];
  devices: (typeof devices.$inferInsert)[];
  deviceStats: (typeof deviceStats.$inferInsert)[];
  workstations: (typeof workstations.$inferInsert)[];
  workstationDevices: (typeof workstationDevices.$inferInsert)[];
  workstationPatients: (typeof workstationPatients.$inferInsert)[];
  iotDevices: (typeof iotDevices.$inferInsert)[];
  iotDeviceDevices: (typeof iotDeviceDevices.$inferInsert)[];
  iotDeviceData: (typeof iotDeviceData.$inferInsert)[];
  alerts: (typeof alerts.$inferInsert)[];
  deviceRunnerJobs: (typeof deviceRunnerJobs.$inferInsert)[];
  documents: (typeof documents.$inferInsert)[];
  documentSigningParties: (typeof documentSigningParties.$inferInsert)[];
  prescriptions: (typeof prescriptions.$inferInsert)[];
}

/** The users who get sign-in identities: the auth server's demo identities use these subjects. */
export interface DemoSignInUser {
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  roles: string[];
  localRoles: LocalUserRole[];
  /** users.masterId: the identity's subject (`sub` of its tokens). */
  masterId: string;
}

interface NamedUserPlan {
  key: string;
  first: string;
  last: string;
  roles: string[];
  localRoles: LocalUserRole[];
}

const namedUserPlans: readonly NamedUserPlan[] = [
  {
    key: 'admin',
    first: 'Kanokwan',
    last: 'Wattanakul',
    roles: ['admin'],
    localRoles: ['application_admin'],
  },
  { key: 'doctor', first: 'Arthit', last: 'Charoenrat', roles: ['public'], localRoles: ['doctor'] },
  { key: 'pharmacist', first: 'Pranee', last: 'Limsakul', roles: ['public'], localRoles: ['pharmacist'] },
  { key: 'nurse', first: 'Siriporn', last: 'Boonmee', roles: ['public'], localRoles: ['nurse'] },
  { key: 'driver', first: 'Somchai', last: 'Thongdee', roles: ['public'], localRoles: ['courier'] },
  { key: 'courier', first: 'Tawan', last: 'Jaidee', roles: ['public'], localRoles: ['courier'] },
  { key: 'patient', first: 'Malee', last: 'Srisawat', roles: ['public'], localRoles: ['patient'] },
  { key: 'supervisor', first: 'Wichai', last: 'Panyawong', roles: ['public'], localRoles: ['supervisor'] },
];

/** How many generated users of each local role join the named ones (about 60 users in all). */
const generatedRoleCounts: readonly [LocalUserRole, number][] = [
  ['patient', 24],
  ['caregiver', 5],
  ['nurse', 6],
  ['doctor', 4],
  ['courier', 4],
  ['pharmacist', 4],
  ['supervisor', 3],
  ['application_admin', 1],
  ['none', 1],
];

const patientStatusCycle: readonly PatientStatus[] = ['enrolled', 'enrolled', 'enrollment', 'discharged'];

const iso = (timestamp: number) => new Date(timestamp).toISOString();
const dateOnly = (timestamp: number) => iso(timestamp).slice(0, 10);

interface Person {
  key: string;
  id: string;
  username: string;
  first: FirstName;
  last: PersonName;
  localRoles: LocalUserRole[];
  roles: string[];
  region: Region;
  place: Place;
  address: Record<string, unknown>;
  geo: { lat: number; lng: number };
  named: boolean;
  status?: PatientStatus;
}

const displayName = (person: Person) => `${person.first.name} ${person.last.name}`;

function streetAddress(random: Random, place: Place, title: string) {
  const geo = {
    lat: Math.round((place.lat + random.float(-0.02, 0.02, 6)) * 1e6) / 1e6,
    lng: Math.round((place.lng + random.float(-0.02, 0.02, 6)) * 1e6) / 1e6,
  };
  return {
    geo,
    address: {
      title,
      street: random.pick(place.streets),
      houseNumber: `${random.int(1, 420)}${random.chance(0.3) ? `/${random.int(1, 60)}` : ''}`,
      district: place.district,
      city: place.city,
      county: place.county,
      postalCode: place.postalCode,
      country: 'Thailand',
      geo,
    },
  };
}

const phoneNumber = (random: Random) =>
  `+66 ${random.pick(['6', '8', '9'])}${random.digits(1)} ${random.digits(3)} ${random.digits(4)}`;

export function buildDemoData(options: { seed?: string; now: number }): DemoData {
  const seed = options.seed ?? DEMO_SEED;
  const anchor = demoAnchor(options.now);
  const random = createRandom(seed);
  const id = createIdFactory(seed);
  const seedHash = hashString(seed);
  const ago = (milliseconds: number) => anchor - milliseconds;
  const date = (milliseconds: number) => new Date(ago(milliseconds));
  const stamp = (milliseconds: number) => ({ createdAt: date(milliseconds), updatedAt: date(milliseconds) });

  // ---- Command centers, one per region.
  const centerNames: Record<Region['key'], { title: string; street: string; houseNumber: string }> = {
    bangkok: { title: 'Bangkok Command Center', street: 'Rama IV Road', houseNumber: '1873' },
    'chiang-mai': { title: 'Chiang Mai Command Center', street: 'Huay Kaew Road', houseNumber: '110' },
    phuket: { title: 'Phuket Command Center', street: 'Chao Fa Road', houseNumber: '52/7' },
  };
  const adminId = id('user', 'admin');
  const commandCenterRows = regions.map((region) => {
    const place = region.places[0]!;
    const names = centerNames[region.key];
    return {
      id: id('command-center', region.key),
      title: names.title,
      address: {
        title: names.title,
        street: names.street,
        houseNumber: names.houseNumber,
        district: place.district,
        city: place.city,
        county: place.county,
        postalCode: place.postalCode,
        country: 'Thailand',
        geo: { lat: place.lat, lng: place.lng },
      },
      createdByUserId: adminId,
      ...stamp(400 * DAY),
    };
  });
  const centerOf = (region: Region) => id('command-center', region.key);

  // ---- Service providers: a pharmacy, a courier and a nurse provider per region.
  const providerTitles: Record<Region['key'], Record<'pharmacy' | 'courier' | 'nurse', string>> = {
    bangkok: {
      pharmacy: 'Sukhumvit Care Pharmacy',
      courier: 'Siam Express Medical Courier',
      nurse: 'Bangkok Home Nursing',
    },
    'chiang-mai': {
      pharmacy: 'Nimman Health Pharmacy',
      courier: 'Lanna Swift Delivery',
      nurse: 'Northern Home Care Nurses',
    },
    phuket: {
      pharmacy: 'Andaman Pharmacy',
      courier: 'Island Courier Services',
      nurse: 'Phuket Visiting Nurses',
    },
  };
  const providerId = (region: Region, type: 'pharmacy' | 'courier' | 'nurse') =>
    id('service-provider', region.key, type);
  const providerAddress = new Map<string, Record<string, unknown>>();
  const serviceProviderRows = regions.flatMap((region) =>
    (['pharmacy', 'courier', 'nurse'] as const).map((type) => {
      const title = providerTitles[region.key][type];
      const { address } = streetAddress(random, random.pick(region.places), title);
      providerAddress.set(providerId(region, type), address);
      return {
        id: providerId(region, type),
        title,
        type,
        address,
        // The Phuket courier has paused its contract: a disabled provider to show in lists.
        isEnabled: !(region.key === 'phuket' && type === 'courier'),
        createdByUserId: adminId,
        ...stamp((380 - regions.indexOf(region) * 10) * DAY),
      };
    }),
  );

  // ---- People.
  const bangkok = regions[0]!;
  const findFirst = (name: string) => firstNames.find((entry) => entry.name === name)!;
  const findLast = (name: string) => lastNames.find((entry) => entry.name === name)!;
  const usedNames = new Set(namedUserPlans.map((plan) => `${plan.first} ${plan.last}`));
  const namePairs = random
    .shuffle(firstNames.flatMap((first) => lastNames.map((last) => ({ first, last }))))
    .filter((pair) => !usedNames.has(`${pair.first.name} ${pair.last.name}`));

  const people: Person[] = [];
  const makePerson = (
    key: string,
    first: FirstName,
    last: PersonName,
    username: string,
    region: Region,
    localRoles: LocalUserRole[],
    roles: string[],
    named: boolean,
  ) => {
    const place = random.pick(region.places);
    const { address, geo } = streetAddress(random, place, 'Home');
    const person: Person = {
      key,
      id: id('user', key),
      username,
      first,
      last,
      localRoles,
      roles,
      region,
      place,
      address,
      geo,
      named,
    };
    people.push(person);
    return person;
  };
  for (const plan of namedUserPlans) {
    makePerson(
      plan.key,
      findFirst(plan.first),
      findLast(plan.last),
      `${plan.key}@${DEMO_DOMAIN}`,
      bangkok,
      plan.localRoles,
      plan.roles,
      true,
    );
  }
  let pairIndex = 0;
  for (const [role, count] of generatedRoleCounts) {
    for (let index = 0; index < count; index++) {
      const { first, last } = namePairs[pairIndex++]!;
      const username = `${first.name}.${last.name}@${DEMO_DOMAIN}`.toLowerCase();
      const region = regions[index % regions.length]!;
      makePerson(`${role}-${index + 1}`, first, last, username, region, [role], ['public'], false);
    }
  }
  const named = (key: string) => people.find((person) => person.key === key)!;
  const withRole = (role: LocalUserRole, region?: Region) =>
    people.filter((person) => person.localRoles[0] === role && (!region || person.region === region));
  const patientsAll = withRole('patient');
  let generatedPatient = 0;
  for (const patient of patientsAll) {
    patient.status = patient.named
      ? 'enrolled'
      : patientStatusCycle[generatedPatient++ % patientStatusCycle.length]!;
  }
  const nursesIn = (region: Region) => withRole('nurse', region);

  const userRow = (person: Person): typeof users.$inferInsert => {
    const isPatient = person.localRoles[0] === 'patient';
    const isNone = person.localRoles[0] === 'none';
    const createdAgo = person.named
      ? (420 - people.indexOf(person)) * DAY
      : random.int(1, 364) * DAY + random.int(0, 23) * HOUR;
    const age = isPatient ? random.int(58, 91) : random.int(24, 62);
    const birth = ago(age * 365 * DAY + random.int(0, 364) * DAY);
    const documentType = random.pick([
      'national_id',
      'national_id',
      'national_id',
      'passport',
      'driving_license',
    ] as const);
    const issued = ago(random.int(200, 2500) * DAY);
    const verified = !isNone && !(person.status === 'enrollment' && random.chance(0.5));
    return {
      id: person.id,
      username: person.username,
      usernameWithoutDomain: person.username.split('@')[0]!,
      primaryDomain: DEMO_DOMAIN,
      masterId: person.named ? id('identity', person.username) : null,
      email: person.named
        ? person.username
        : `${person.first.name}.${person.last.name}@example.com`.toLowerCase(),
      phoneNumber: phoneNumber(random),
      title: person.localRoles[0] === 'doctor' ? 'Dr.' : person.first.gender === 'female' ? 'Ms.' : 'Mr.',
      firstName: person.first.name,
      lastName: person.last.name,
      identityAssuranceLevel: isNone ? 'low' : isPatient ? 'substantial' : 'high',
      isVerified: verified,
      // One caregiver account is blocked, to show the state in the lists.
      isBlocked: person.key === 'caregiver-5',
      registrationCompleted: !isNone,
      registrationStatus: isNone ? 'pending' : 'completed',
      address: [person.address],
      roles: person.roles,
      localRoles: person.localRoles,
      matrixIdentity: person.named
        ? { userId: `@${person.username.split('@')[0]}:matrix.${DEMO_DOMAIN}` }
        : null,
      additionalInfo: {
        localizedFirstName: person.first.thai,
        localizedLastName: person.last.thai,
        identityDocumentType: documentType,
        identityDocumentNumber:
          documentType === 'national_id'
            ? `${random.int(1, 8)}${random.digits(12)}`
            : documentType === 'passport'
              ? `AA${random.digits(7)}`
              : random.digits(8),
        identityDocumentIssueDate: dateOnly(issued),
        identityDocumentExpiryDate: dateOnly(issued + (documentType === 'passport' ? 10 : 8) * 365 * DAY),
        identityDocumentIsValidIndefinitely: false,
        dateOfBirth: dateOnly(birth),
        gender: person.first.gender,
      },
      patientProfileId: isPatient ? id('patient-profile', person.key) : null,
      createdByUserId: person.key === 'admin' ? null : adminId,
      createdAt: date(createdAgo),
      updatedAt: date(Math.max(0, createdAgo - random.int(0, 30) * DAY)),
    };
  };
  const userRows = people.map(userRow);
  const staffRows = userRows.filter((row) => !row.patientProfileId);
  const patientRows = userRows.filter((row) => row.patientProfileId);

  // ---- Patient profiles: location, emergency contacts, their nurses.
  const patientProfileRows = patientsAll.map((patient) => {
    const creator = nursesIn(patient.region)[0] ?? named('nurse');
    const contacts = Array.from({ length: random.int(1, 2) }, () => {
      const first = random.pick(firstNames);
      return {
        name: `${first.name} ${patient.last.name}`,
        relationship: random.pick(relationships),
        phoneNumber: phoneNumber(random),
      };
    });
    const created = userRows.find((row) => row.id === patient.id)!.createdAt!.getTime();
    return {
      id: id('patient-profile', patient.key),
      status: patient.status!,
      location: {
        title: 'Home',
        description: random.pick([
          'Ground floor, ring the bell twice',
          'Apartment on the 3rd floor, lift available',
          'House with a green gate',
          'Condominium, register at the front desk',
        ]),
        address: patient.address,
        geo: patient.geo,
      },
      emergencyContacts: contacts,
      createdByUserId: creator.id,
      createdAt: new Date(created),
      updatedAt: new Date(created),
    };
  });

  const assignedNurseRows: (typeof userAssignedNurses.$inferInsert)[] = [];
  for (const patient of patientsAll) {
    if (patient.status === 'discharged') continue;
    const nurses = patient.named ? [named('nurse')] : nursesIn(patient.region);
    const primary =
      patient.region === bangkok && !patient.named && random.chance(0.5)
        ? named('nurse')
        : random.pick(nurses);
    assignedNurseRows.push({ userId: patient.id, nurseId: primary.id });
    const second = nurses.find((nurse) => nurse !== primary);
    if (second && random.chance(0.4)) assignedNurseRows.push({ userId: patient.id, nurseId: second.id });
  }

  const employerRows: (typeof userEmployers.$inferInsert)[] = [];
  const providerTypeFor: Partial<Record<LocalUserRole, 'pharmacy' | 'courier' | 'nurse'>> = {
    pharmacist: 'pharmacy',
    courier: 'courier',
    nurse: 'nurse',
  };
  for (const person of people) {
    const type = providerTypeFor[person.localRoles[0]!];
    if (type) employerRows.push({ userId: person.id, serviceProviderId: providerId(person.region, type) });
  }
  // The named nurse also takes shifts for the Chiang Mai provider: a user with two employers.
  employerRows.push({ userId: named('nurse').id, serviceProviderId: providerId(regions[1]!, 'nurse') });

  const centerUserRows: (typeof commandCenterUsers.$inferInsert)[] = [];
  const centerRoles: readonly LocalUserRole[] = ['patient', 'caregiver', 'nurse', 'doctor', 'supervisor'];
  for (const person of people) {
    if (centerRoles.includes(person.localRoles[0]!)) {
      centerUserRows.push({ commandCenterId: centerOf(person.region), userId: person.id });
    }
  }
  // The named doctor also covers the Chiang Mai and Phuket centers by video consultation.
  for (const region of regions.slice(1))
    centerUserRows.push({ commandCenterId: centerOf(region), userId: named('doctor').id });

  // ---- Client devices, per command center, plus home terminals of the best-equipped patients.
  interface DevicePlan {
    key: string;
    title: string;
    role: DeviceRole;
    region: Region | null;
    user: Person | null;
    enabled: boolean;
    /** How long ago the device was installed (its stats start then, at most a week back). */
    installedAgo: number;
    /** The device stopped reporting this long ago (0: reporting). */
    silentFor: number;
    busyness: number;
  }
  const devicePlans: DevicePlan[] = [];
  for (const region of regions) {
    const supervisor = region === bangkok ? named('supervisor') : withRole('supervisor', region)[0]!;
    const nurse = region === bangkok ? named('nurse') : nursesIn(region)[0]!;
    devicePlans.push(
      {
        key: `${region.key}-supervisor`,
        title: `${region.city} supervisor desk`,
        role: 'supervisor_workstation',
        region,
        user: supervisor,
        enabled: true,
        installedAgo: 300 * DAY,
        silentFor: 0,
        busyness: 0.5,
      },
      {
        key: `${region.key}-monitoring`,
        title: `${region.city} monitoring wall`,
        role: 'monitoring_workstation',
        region,
        user: null,
        enabled: true,
        installedAgo: 300 * DAY,
        silentFor: 0,
        busyness: 0.8,
      },
      {
        key: `${region.key}-screen`,
        title: `${region.city} lobby screen`,
        role: 'screen_workstation',
        region,
        user: null,
        enabled: true,
        installedAgo: region === bangkok ? 3 * DAY : 200 * DAY,
        silentFor: 0,
        busyness: 0.2,
      },
      {
        key: `${region.key}-station`,
        title: `${region.city} nurse station`,
        role: 'workstation',
        region,
        user: nurse,
        enabled: true,
        installedAgo: 280 * DAY,
        silentFor: 0,
        busyness: 0.6,
      },
    );
  }
  const equippedPatients = [
    named('patient'),
    ...patientsAll.filter((patient) => !patient.named && patient.status === 'enrolled').slice(0, 5),
  ];
  const bandOnlyPatients = patientsAll
    .filter((patient) => !patient.named && patient.status === 'enrolled')
    .slice(5);
  equippedPatients.forEach((patient, index) => {
    devicePlans.push({
      key: `terminal-${patient.key}`,
      title: `Home terminal of ${displayName(patient)}`,
      role: 'patient_terminal',
      region: patient.region,
      user: patient,
      enabled: true,
      installedAgo: (60 + index * 20) * DAY,
      // One terminal lost its connection this morning: an offline device in the lists.
      silentFor: index === 2 ? 5 * HOUR : 0,
      busyness: 0.15,
    });
  });
  devicePlans.push({
    key: 'spare-tablet',
    title: 'Spare tablet (not configured)',
    role: 'none',
    region: null,
    user: null,
    enabled: false,
    installedAgo: 10 * DAY,
    silentFor: 0,
    busyness: 0,
  });

  const deviceId = (key: string) => id('device', key);
  const deviceRows = devicePlans.map((plan) => {
    const center = commandCenterRows[regions.indexOf(plan.region ?? bangkok)]!;
    // Home terminals stand in the patient's home; every other device at its command center.
    const location =
      plan.role === 'patient_terminal' && plan.user
        ? { title: `Home of ${displayName(plan.user)}`, address: plan.user.address, geo: plan.user.geo }
        : { title: plan.title, address: center.address, geo: center.address.geo };
    return {
      id: deviceId(plan.key),
      title: plan.title,
      location,
      isEnabled: plan.enabled,
      role: plan.role,
      localRoles: [plan.role] as string[],
      assignedUserId: plan.user?.id ?? null,
      commandCenterId: plan.region ? centerOf(plan.region) : null,
      createdByUserId: adminId,
      ...stamp(plan.installedAgo),
    };
  });
  const statRows = devicePlans
    .filter((plan) => plan.enabled)
    .flatMap((plan) =>
      buildDeviceStats(
        {
          deviceId: deviceId(plan.key),
          key: plan.key,
          role: plan.role,
          from: ago(Math.min(WEEK, plan.installedAgo)),
          to: ago(plan.silentFor),
          firmware: plan.role === 'patient_terminal' ? 'CP-T2 firmware 2.4.1' : 'CP-WS firmware 5.0.3',
          busyness: plan.busyness,
        },
        seedHash,
        id,
      ),
    );

  // ---- Workstations: each nurse station groups the center's screens and home terminals.
  const workstationRows = regions.map((region) => ({
    id: id('workstation', region.key),
    title: `${region.city} nurse station`,
    deviceId: deviceId(`${region.key}-station`),
    createdByUserId: adminId,
    ...stamp(280 * DAY),
  }));
  const workstationDeviceRows = regions.flatMap((region) =>
    devicePlans
      .filter(
        (plan) =>
          plan.region === region &&
          (plan.role === 'patient_terminal' ||
            plan.role === 'monitoring_workstation' ||
            plan.role === 'screen_workstation'),
      )
      .map((plan) => ({ workstationId: id('workstation', region.key), deviceId: deviceId(plan.key) })),
  );
  const workstationPatientRows = patientsAll
    .filter((patient) => patient.status !== 'discharged')
    .map((patient) => ({ workstationId: id('workstation', patient.region.key), userId: patient.id }));

  // ---- IoT devices: a full kit for the equipped patients, a wrist band for the others, spares in stock.
  interface IotPlan {
    key: string;
    model: string;
    types: IotDataType[];
    connectionType: string;
    patient: Person | null;
    linkedTo: string[];
  }
  const kit = [
    {
      kind: 'band',
      model: 'CP-HR20 wrist band',
      types: ['heart_rate', 'battery', 'alert'],
      connectionType: 'ble',
    },
    {
      kind: 'cuff',
      model: 'CP-BP200 blood pressure monitor',
      types: ['blood_pressure', 'battery'],
      connectionType: 'ble',
    },
    {
      kind: 'thermometer',
      model: 'CP-T10 thermometer',
      types: ['temperature', 'battery'],
      connectionType: 'wifi',
    },
    { kind: 'mat', model: 'CP-PM3 bed pressure mat', types: ['pressure'], connectionType: 'usb' },
    {
      kind: 'button',
      model: 'CP-SOS1 alarm button',
      types: ['alert', 'battery'],
      connectionType: 'cellular',
    },
  ] as const;
  const iotPlans: IotPlan[] = [];
  for (const patient of equippedPatients) {
    for (const item of kit) {
      iotPlans.push({
        key: `${item.kind}-${patient.key}`,
        model: item.model,
        types: [...item.types],
        connectionType: item.connectionType,
        patient,
        linkedTo:
          item.kind === 'button'
            ? [`terminal-${patient.key}`, `${patient.region.key}-monitoring`]
            : [`terminal-${patient.key}`],
      });
    }
  }
  for (const patient of bandOnlyPatients) {
    iotPlans.push({
      key: `band-${patient.key}`,
      model: kit[0].model,
      types: ['heart_rate', 'battery', 'alert'],
      connectionType: 'ble',
      patient,
      linkedTo: [`${patient.region.key}-monitoring`],
    });
  }
  for (let index = 1; index <= 3; index++) {
    iotPlans.push({
      key: `spare-${index}`,
      model: kit[index - 1]!.model,
      types: [...kit[index - 1]!.types],
      connectionType: 'unknown',
      patient: null,
      linkedTo: [],
    });
  }
  const iotId = (key: string) => id('iot-device', key);
  const iotRows = iotPlans.map((plan, index) => {
    const hash = hashString(`${seed}:${plan.key}`);
    const mac = [0xa4, 0xc1, 0x38, (hash >>> 16) & 0xff, (hash >>> 8) & 0xff, hash & 0xff]
      .map((byte) => byte.toString(16).padStart(2, '0').toUpperCase())
      .join(':');
    return {
      id: iotId(plan.key),
      hardwareIdentifier: `${mac}-${String(index + 1).padStart(3, '0')}`,
      deviceIdentifier: `SN-${plan.model.split(' ')[0]}-${String(10_000 + index * 37)}`,
      model: plan.model,
      trustLevel: plan.patient ? 'verified' : 'untrusted',
      connectionType: plan.connectionType,
      connectionMeta: plan.patient
        ? { firmwareVersion: `1.${index % 4}.${index % 7}`, pairedWith: plan.linkedTo[0] ?? null }
        : null,
      supportedDataTypes: plan.types,
      allowMultipleDeviceRelationships: plan.linkedTo.length > 1,
      assignedUserId: plan.patient?.id ?? null,
      createdByDeviceId: plan.linkedTo[0] ? deviceId(plan.linkedTo[0]) : null,
      ...stamp(plan.patient ? 30 * DAY + index * HOUR : 15 * DAY),
    };
  });
  const iotLinkRows = iotPlans.flatMap((plan) =>
    plan.linkedTo.map((key) => ({ iotDeviceId: iotId(plan.key), deviceId: deviceId(key) })),
  );

  // ---- A week of readings. A few patients have episodes that opened alerts.
  const tachycardiaPatient = equippedPatients[1]!;
  const feverPatient = equippedPatients[2]!;
  const episodes: Record<string, { from: number; to: number }[]> = {
    [`band-${tachycardiaPatient.key}:heart_rate`]: [
      { from: ago(50 * MINUTE), to: ago(20 * MINUTE) },
      { from: ago(3 * DAY + 2 * HOUR), to: ago(3 * DAY + HOUR) },
    ],
    [`thermometer-${feverPatient.key}:temperature`]: [
      { from: ago(2 * DAY + 6 * HOUR), to: ago(DAY + 12 * HOUR) },
    ],
  };
  const readingRows = iotPlans
    .filter((plan) => plan.patient)
    .flatMap((plan) =>
      plan.types
        .filter((type): type is ReadingSeries['dataType'] => type !== 'alert')
        .flatMap((type) =>
          buildReadings(
            {
              iotDeviceId: iotId(plan.key),
              key: plan.key,
              dataType: type,
              userId: plan.patient!.id,
              from: ago(WEEK),
              to: anchor,
              baseline: (hashString(`${seed}:${plan.patient!.key}`) % 1000) / 1000,
              episodes: episodes[`${plan.key}:${type}`] ?? [],
            },
            seedHash,
            id,
          ),
        ),
    );

  // ---- Alerts: from alert readings, from readings out of bounds, and manual ones; open and closed.
  interface AlertPlan {
    key: string;
    patient: Person;
    iotKey: string | null;
    agoMs: number;
    kind:
      'fall_detected' | 'panic_button' | 'heart_rate_high' | 'temperature_high' | 'low_battery' | 'manual';
    message: string;
    severity: 'high' | 'medium' | 'low';
    closedBy?: Person;
    closedAfter?: number;
    reason?: string;
  }
  const supervisor = named('supervisor');
  const nurse = named('nurse');
  const alertPlans: AlertPlan[] = [
    {
      key: 'fall-patient',
      patient: named('patient'),
      iotKey: `band-${named('patient').key}`,
      agoMs: 2 * HOUR + 10 * MINUTE,
      kind: 'fall_detected',
      message: 'Possible fall detected by the wrist band',
      severity: 'high',
    },
    {
      key: 'hr-now',
      patient: tachycardiaPatient,
      iotKey: `band-${tachycardiaPatient.key}`,
      agoMs: 45 * MINUTE,
      kind: 'heart_rate_high',
      message: 'Heart rate above 130 bpm',
      severity: 'high',
    },
    {
      key: 'button-now',
      patient: equippedPatients[3]!,
      iotKey: `button-${equippedPatients[3]!.key}`,
      agoMs: 25 * MINUTE,
      kind: 'panic_button',
      message: 'Alarm button pressed',
      severity: 'high',
    },
    {
      key: 'battery-low',
      patient: equippedPatients[4]!,
      iotKey: `thermometer-${equippedPatients[4]!.key}`,
      agoMs: 6 * HOUR,
      kind: 'low_battery',
      message: 'Thermometer battery below 10%',
      severity: 'low',
    },
    {
      key: 'manual-call',
      patient: equippedPatients[5]!,
      iotKey: null,
      agoMs: 20 * HOUR,
      kind: 'manual',
      message: 'Please call the command center about tomorrow’s visit',
      severity: 'medium',
    },
    {
      key: 'fever',
      patient: feverPatient,
      iotKey: `thermometer-${feverPatient.key}`,
      agoMs: 2 * DAY + 5 * HOUR,
      kind: 'temperature_high',
      message: 'Body temperature above 38 °C',
      severity: 'medium',
      closedBy: nurse,
      closedAfter: 3 * HOUR,
      reason: 'resolved',
    },
    {
      key: 'hr-earlier',
      patient: tachycardiaPatient,
      iotKey: `band-${tachycardiaPatient.key}`,
      agoMs: 3 * DAY + 90 * MINUTE,
      kind: 'heart_rate_high',
      message: 'Heart rate above 130 bpm',
      severity: 'high',
      closedBy: supervisor,
      closedAfter: 40 * MINUTE,
      reason: 'resolved',
    },
    {
      key: 'fall-false',
      patient: equippedPatients[1]!,
      iotKey: `band-${equippedPatients[1]!.key}`,
      agoMs: 4 * DAY + 7 * HOUR,
      kind: 'fall_detected',
      message: 'Possible fall detected by the wrist band',
      severity: 'high',
      closedBy: supervisor,
      closedAfter: 12 * MINUTE,
      reason: 'false_alarm',
    },
    {
      key: 'button-test',
      patient: named('patient'),
      iotKey: `button-${named('patient').key}`,
      agoMs: 5 * DAY + 2 * HOUR,
      kind: 'panic_button',
      message: 'Alarm button pressed',
      severity: 'high',
      closedBy: nurse,
      closedAfter: 8 * MINUTE,
      reason: 'false_alarm',
    },
    {
      key: 'manual-meds',
      patient: named('patient'),
      iotKey: null,
      agoMs: 6 * DAY,
      kind: 'manual',
      message: 'Reminder: new prescription is on its way',
      severity: 'low',
      closedBy: named('patient'),
      closedAfter: 2 * HOUR,
      reason: 'acknowledged',
    },
    {
      key: 'battery-old',
      patient: equippedPatients[2]!,
      iotKey: `band-${equippedPatients[2]!.key}`,
      agoMs: 6 * DAY + 4 * HOUR,
      kind: 'low_battery',
      message: 'Wrist band battery below 10%',
      severity: 'low',
      closedBy: nurse,
      closedAfter: 5 * HOUR,
      reason: 'resolved',
    },
  ];
  const alertReadingRows: typeof readingRows = [];
  const alertRows = alertPlans.map((plan, index) => {
    const timestamp = ago(plan.agoMs) + 17_000;
    const alertId = id('alert', plan.key);
    const fromAlertReading = plan.kind === 'fall_detected' || plan.kind === 'panic_button';
    let readingId: string | undefined;
    if (fromAlertReading && plan.iotKey) {
      readingId = id('reading', plan.iotKey, 'alert', plan.key);
      alertReadingRows.push({
        id: readingId,
        timestamp,
        dataType: 'alert',
        data: {
          id: `evt-${alertId.slice(0, 8)}`,
          type: plan.kind,
          message: plan.message,
          severity: plan.severity,
          timestamp,
        },
        iotDeviceId: iotId(plan.iotKey),
        createdByUserId: plan.patient.id,
        createdAt: new Date(timestamp + 900),
      });
    }
    const closedAt = plan.closedBy && plan.closedAfter ? timestamp + plan.closedAfter : null;
    const creator = plan.kind === 'manual' ? (index % 2 === 0 ? supervisor : nurse) : plan.patient;
    return {
      id: alertId,
      isActive: !closedAt,
      timestamp,
      data: {
        type: plan.kind,
        message: plan.message,
        severity: plan.severity,
        ...(readingId ? { readingId } : {}),
        ...(plan.iotKey
          ? { hardwareIdentifier: iotRows.find((row) => row.id === iotId(plan.iotKey!))!.hardwareIdentifier }
          : {}),
      },
      closingData: closedAt
        ? {
            reason: plan.reason,
            notes:
              plan.reason === 'false_alarm'
                ? 'Patient confirmed by phone that all is well.'
                : 'Checked and handled.',
            closedAt: iso(closedAt),
          }
        : null,
      iotDeviceId: plan.iotKey ? iotId(plan.iotKey) : null,
      userId: plan.patient.id,
      closedByUserId: closedAt ? plan.closedBy!.id : null,
      createdByUserId: creator.id,
      createdAt: new Date(timestamp + 1_000),
      updatedAt: new Date(closedAt ?? timestamp + 1_000),
    };
  });

  // ---- Runner jobs in every status; finished ones carry results.
  interface JobPlan {
    device: string;
    status: ProcessStatus;
    commands: string[];
    purpose?: string;
    agoMs: number;
    by: Person;
    failOn?: string;
  }
  const admin = named('admin');
  const jobPlans: JobPlan[] = [
    {
      device: 'bangkok-monitoring',
      status: 'NEW',
      commands: ['restart-agent'],
      purpose: 'Apply the new agent configuration',
      agoMs: -2 * HOUR,
      by: admin,
    },
    {
      device: `terminal-${equippedPatients[1]!.key}`,
      status: 'NEW',
      commands: ['notify Please measure your blood pressure now'],
      purpose: 'Measurement reminder',
      agoMs: 5 * MINUTE,
      by: nurse,
    },
    {
      device: 'chiang-mai-station',
      status: 'NEW',
      commands: ['collect-logs'],
      agoMs: 15 * MINUTE,
      by: admin,
    },
    {
      device: 'bangkok-supervisor',
      status: 'ACCEPTED',
      commands: ['ping 8.8.8.8'],
      purpose: 'Network check',
      agoMs: 10 * MINUTE,
      by: supervisor,
    },
    {
      device: 'phuket-screen',
      status: 'ACCEPTED',
      commands: ['reboot'],
      purpose: 'Screen frozen',
      agoMs: 20 * MINUTE,
      by: admin,
    },
    {
      device: 'bangkok-station',
      status: 'RUNNING',
      commands: ['collect-logs', 'restart-agent'],
      purpose: 'Investigate slow start-up',
      agoMs: 4 * MINUTE,
      by: admin,
    },
    {
      device: `terminal-${named('patient').key}`,
      status: 'RUNNING',
      commands: ['ping careplane.local'],
      agoMs: 2 * MINUTE,
      by: supervisor,
    },
    {
      device: `terminal-${named('patient').key}`,
      status: 'SUCCEEDED',
      commands: ['reboot'],
      purpose: 'Reboot requested by the command center',
      agoMs: 26 * HOUR,
      by: supervisor,
    },
    {
      device: 'bangkok-monitoring',
      status: 'SUCCEEDED',
      commands: ['collect-logs'],
      agoMs: 2 * DAY,
      by: admin,
    },
    {
      device: 'chiang-mai-monitoring',
      status: 'SUCCEEDED',
      commands: ['ping 1.1.1.1', 'notify Network maintenance tonight at 22:00'],
      purpose: 'Maintenance notice',
      agoMs: 3 * DAY,
      by: admin,
    },
    {
      device: `terminal-${equippedPatients[2]!.key}`,
      status: 'SUCCEEDED',
      commands: ['notify Your nurse will visit at 14:00'],
      purpose: 'Visit reminder',
      agoMs: 4 * DAY,
      by: nurse,
    },
    { device: 'phuket-station', status: 'SUCCEEDED', commands: ['restart-agent'], agoMs: 5 * DAY, by: admin },
    {
      device: `terminal-${equippedPatients[2]!.key}`,
      status: 'FAILED',
      commands: ['ping 8.8.8.8', 'collect-logs'],
      purpose: 'Connection check',
      agoMs: 6 * HOUR,
      by: supervisor,
      failOn: 'ping 8.8.8.8',
    },
    {
      device: 'phuket-supervisor',
      status: 'FAILED',
      commands: ['collect-logs'],
      agoMs: 2 * DAY + 3 * HOUR,
      by: admin,
      failOn: 'collect-logs',
    },
    {
      device: 'bangkok-screen',
      status: 'CANCELLED',
      commands: ['reboot'],
      purpose: 'Reboot before the morning shift',
      agoMs: DAY,
      by: admin,
    },
    {
      device: 'chiang-mai-supervisor',
      status: 'CANCELLED',
      commands: ['notify Shift handover in 10 minutes'],
      agoMs: 3 * DAY + 4 * HOUR,
      by: supervisor,
    },
  ];
  const outputFor = (command: string, failed: boolean) => {
    if (failed) {
      return command.startsWith('ping')
        ? {
            exitCode: 1,
            stdout: `PING ${command.slice(5)}: 3 packets transmitted, 0 received, 100% packet loss\n`,
            stderr: '',
          }
        : { exitCode: 2, stdout: '', stderr: 'collect-logs: /var/log/careplane: No space left on device\n' };
    }
    if (command.startsWith('ping')) {
      return {
        exitCode: 0,
        stdout: `PING ${command.slice(5)}: 3 packets transmitted, 3 received, 0% packet loss, rtt avg 18.4 ms\n`,
        stderr: '',
      };
    }
    if (command === 'collect-logs')
      return {
        exitCode: 0,
        stdout: 'Collected 14 log files (2.3 MB) into careplane-logs.tar.gz\n',
        stderr: '',
      };
    if (command === 'reboot') return { exitCode: 0, stdout: 'Rebooting now\n', stderr: '' };
    if (command === 'restart-agent')
      return { exitCode: 0, stdout: 'careplane-agent restarted\n', stderr: '' };
    return { exitCode: 0, stdout: 'Notification shown\n', stderr: '' };
  };
  const jobRows = jobPlans.map((plan, index) => {
    const created = ago(Math.max(plan.agoMs, 0) + MINUTE);
    const notBefore = ago(plan.agoMs);
    const results: Record<string, unknown>[] = [];
    let clock = Math.max(notBefore, created) + 20_000;
    const finished = plan.status === 'SUCCEEDED' || plan.status === 'FAILED';
    const ran = finished
      ? plan.commands
      : plan.status === 'RUNNING'
        ? plan.commands.slice(0, plan.commands.length - 1)
        : [];
    for (const command of ran) {
      const failed = plan.failOn === command;
      const output = outputFor(command, failed);
      const startedAt = clock;
      clock += 3_000 + (index % 5) * 1_000;
      results.push({ command, ...output, startedAt: iso(startedAt), finishedAt: iso(clock) });
      if (failed) break;
    }
    return {
      id: id('job', index),
      purpose: plan.purpose ?? 'No purpose provided.',
      commands: plan.commands,
      results,
      status: plan.status,
      notBefore: new Date(notBefore),
      deviceId: deviceId(plan.device),
      createdByUserId: plan.by.id,
      createdAt: new Date(created),
      updatedAt: new Date(finished || plan.status !== 'NEW' ? Math.min(clock, anchor) : created),
    };
  });

  // ---- Prescriptions in every status, with the documents that travel with them.
  const documentRows: (typeof documents.$inferInsert)[] = [];
  const signingPartyRows: (typeof documentSigningParties.$inferInsert)[] = [];
  const addDocument = (
    key: string,
    title: string,
    creator: Person,
    parties: Person[],
    signedBy: Person[],
    at: number,
    role: string,
  ) => {
    const documentId = id('document', key);
    documentRows.push({
      id: documentId,
      title,
      isSigned: signedBy.length === parties.length,
      signingPartiesMetadata: signedBy.map((party, index) => ({
        userId: party.id,
        name: displayName(party),
        role: index === 0 ? role : 'co-signer',
        signedAt: iso(at + index * 7 * MINUTE),
        method: 'authenticator',
      })),
      createdByUserId: creator.id,
      createdAt: new Date(at - MINUTE),
      updatedAt: new Date(at + Math.max(0, signedBy.length - 1) * 7 * MINUTE),
    });
    for (const party of parties) signingPartyRows.push({ documentId, userId: party.id });
    return documentId;
  };

  const statusPlan: readonly [PrescriptionStatus, number][] = [
    ['new', 3],
    ['issued', 3],
    ['waiting', 3],
    ['ready', 4],
    ['picked_up', 3],
    ['delivered', 4],
    ['on_hold', 2],
    ['returned', 2],
  ];
  const versionOf: Record<PrescriptionStatus, number> = {
    new: 1,
    issued: 2,
    waiting: 3,
    ready: 4,
    picked_up: 5,
    delivered: 6,
    on_hold: 4,
    returned: 6,
  };
  const ageOf: Record<PrescriptionStatus, number> = {
    new: 3 * HOUR,
    issued: 8 * HOUR,
    waiting: DAY,
    ready: DAY + 6 * HOUR,
    picked_up: 2 * DAY,
    delivered: 5 * DAY,
    on_hold: 3 * DAY,
    returned: 4 * DAY,
  };
  const recipients = patientsAll.filter((patient) => patient.status !== 'discharged');
  const doctorsIn = (region: Region) =>
    region === bangkok ? [named('doctor')] : [...withRole('doctor', region), named('doctor')];
  const prescriptionRows: (typeof prescriptions.$inferInsert)[] = [];
  let serial = 0;
  for (const [status, count] of statusPlan) {
    for (let index = 0; index < count; index++) {
      serial++;
      // Every status has one prescription of the named patient, so their own view is complete.
      const recipient = index === 0 ? named('patient') : recipients[(serial * 5) % recipients.length]!;
      const region = recipient.region;
      const issuer = index === 0 ? named('doctor') : random.pick(doctorsIn(region));
      const supplier = providerId(region, 'pharmacy');
      const pharmacist = region === bangkok ? named('pharmacist') : withRole('pharmacist', region)[0]!;
      // Phuket's courier is paused, so nurses pick up there; elsewhere one in three goes with a nurse.
      const pickupByNurse = region.key === 'phuket' || serial % 3 === 0;
      const regionNurse = region === bangkok ? nurse : nursesIn(region)[0]!;
      const driver =
        region === bangkok
          ? serial % 2 === 0
            ? named('driver')
            : named('courier')
          : (withRole('courier', region)[0] ?? named('driver'));
      const picker = pickupByNurse ? regionNurse : driver;
      const created = ago(ageOf[status] + index * 3 * HOUR);
      const items = random.shuffle(medicines).slice(0, random.int(1, 3));
      const key = `prescription-${serial}`;
      const issued = status !== 'new';
      const pickedUp = status === 'picked_up' || status === 'delivered' || status === 'returned';
      const issuerReceiptId = issued
        ? addDocument(
            `${key}-issued`,
            `Prescription ${serial} for ${displayName(recipient)}`,
            issuer,
            [issuer],
            [issuer],
            created + 20 * MINUTE,
            'issuer',
          )
        : null;
      const pickupReceiptId = pickedUp
        ? addDocument(
            `${key}-pickup`,
            `Pickup receipt for prescription ${serial}`,
            picker,
            [picker, pharmacist],
            [picker, pharmacist],
            created + 6 * HOUR,
            'picker',
          )
        : null;
      // A ready prescription names its driver only when one was dispatched; otherwise any courier of the shipper may take it.
      const driverAssigned =
        !pickupByNurse && (status !== 'ready' || index % 2 === 0) && status !== 'new' && status !== 'issued';
      prescriptionRows.push({
        id: id('prescription', serial),
        status,
        issuerId: issuer.id,
        issuerReceiptId,
        pickupByNurse,
        nurseId: pickupByNurse ? regionNurse.id : null,
        supplierId: supplier,
        shipperId: pickupByNurse ? null : providerId(region, 'courier'),
        shipperDriverId: driverAssigned ? driver.id : null,
        pickupReceiptId,
        recipientId: recipient.id,
        pickupAddress: providerAddress.get(supplier)!,
        deliveryAddress: recipient.address,
        content: items.map((item) => ({
          name: item.name,
          strength: item.strength,
          form: item.form,
          quantity: item.quantity,
          unit: item.unit,
          dosage: item.dosage,
        })),
        version: versionOf[status],
        createdByUserId: issuer.id,
        createdAt: new Date(created),
        updatedAt: new Date(Math.min(anchor, created + versionOf[status] * 2 * HOUR)),
      });
    }
  }

  // Documents outside prescriptions: consents, care plans, discharge letters; signed, partly signed, unsigned.
  const patientDoc = named('patient');
  addDocument(
    'consent-patient',
    `Consent to remote monitoring – ${displayName(patientDoc)}`,
    nurse,
    [patientDoc, nurse],
    [patientDoc, nurse],
    ago(60 * DAY),
    'patient',
  );
  addDocument(
    'care-plan-patient',
    `Care plan – ${displayName(patientDoc)}`,
    nurse,
    [nurse, patientDoc],
    [nurse],
    ago(2 * DAY),
    'author',
  );
  addDocument(
    'care-plan-tachy',
    `Care plan – ${displayName(tachycardiaPatient)}`,
    named('doctor'),
    [named('doctor'), tachycardiaPatient],
    [named('doctor'), tachycardiaPatient],
    ago(20 * DAY),
    'author',
  );
  for (const [index, patient] of patientsAll
    .filter((candidate) => candidate.status === 'discharged')
    .slice(0, 3)
    .entries()) {
    addDocument(
      `discharge-${patient.key}`,
      `Discharge summary – ${displayName(patient)}`,
      named('doctor'),
      [named('doctor'), patient],
      index === 2 ? [] : [named('doctor')],
      ago((10 + index * 9) * DAY),
      'author',
    );
  }
  addDocument(
    'policy-handbook',
    'Home visit safety handbook 2025 – acknowledgement',
    admin,
    [nurse, named('supervisor')],
    [],
    ago(12 * HOUR),
    'author',
  );

  return {
    seed,
    anchor,
    commandCenters: commandCenterRows,
    serviceProviders: serviceProviderRows,
    staff: staffRows,
    patientProfiles: patientProfileRows,
    patients: patientRows,
    userEmployers: employerRows,
    userAssignedNurses: assignedNurseRows,
    commandCenterUsers: centerUserRows,
    devices: deviceRows,
    deviceStats: statRows,
    workstations: workstationRows,
    workstationDevices: workstationDeviceRows,
    workstationPatients: workstationPatientRows,
    iotDevices: iotRows,
    iotDeviceDevices: iotLinkRows,
    iotDeviceData: [...readingRows, ...alertReadingRows],
    alerts: alertRows,
    deviceRunnerJobs: jobRows,
    documents: documentRows,
    documentSigningParties: signingPartyRows,
    prescriptions: prescriptionRows,
  };
}

/** The sign-in users of the demo, for the identity provider's own demo seed and the start-up message. */
export function demoSignInUsers(seed = DEMO_SEED): DemoSignInUser[] {
  const id = createIdFactory(seed);
  return namedUserPlans.map((plan) => {
    const username = `${plan.key}@${DEMO_DOMAIN}`;
    return {
      username,
      firstName: plan.first,
      lastName: plan.last,
      email: username,
      roles: plan.roles,
      localRoles: plan.localRoles,
      masterId: id('identity', username),
    };
  });
}
