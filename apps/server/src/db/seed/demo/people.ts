// People: the named sign-in users and generated ones, their user rows, patient profiles, employers,
// assigned nurses and command center memberships.
import type { LocalUserRole, PatientStatus } from '@careplane/shared/common/enums';
import type { commandCenterUsers, userAssignedNurses, userEmployers, users } from '@/db/schema/index.js';
import { DAY, HOUR } from '../demo-series.js';
import { createIdFactory, type Random } from '../random.js';
import {
  firstNames,
  lastNames,
  regions,
  relationships,
  type FirstName,
  type PersonName,
  type Place,
  type Region,
} from '../reference-data.js';
import { DEMO_DOMAIN, DEMO_SEED, bangkok, iso, streetAddress, type SeedContext } from './context.js';
import type { Organisations, ProviderType } from './organisations.js';

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

const dateOnly = (timestamp: number) => iso(timestamp).slice(0, 10);

export interface Person {
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

export const displayName = (person: Person) => `${person.first.name} ${person.last.name}`;

const phoneNumber = (random: Random) =>
  `+66 ${random.pick(['6', '8', '9'])}${random.digits(1)} ${random.digits(3)} ${random.digits(4)}`;

/** Everyone in the demo, and the ways the other builders look people up. */
function createPopulation({ random, id }: SeedContext) {
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
  return { people, named, withRole, patientsAll, nursesIn };
}

export type Population = ReturnType<typeof createPopulation>;

function userRow(
  { random, id, ago, date, adminId }: SeedContext,
  { people }: Population,
  person: Person,
): typeof users.$inferInsert {
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
}

/** Patient profiles: location and emergency contacts. */
function buildPatientProfiles(
  { random, id }: SeedContext,
  { patientsAll, nursesIn, named }: Population,
  userRows: (typeof users.$inferInsert)[],
) {
  return patientsAll.map((patient) => {
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
}

function assignNurses({ random }: SeedContext, { patientsAll, named, nursesIn }: Population) {
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
  return assignedNurseRows;
}

function employ({ people, named }: Population, { providerId }: Organisations) {
  const employerRows: (typeof userEmployers.$inferInsert)[] = [];
  const providerTypeFor: Partial<Record<LocalUserRole, ProviderType>> = {
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
  return employerRows;
}

function joinCommandCenters({ people, named }: Population, { centerOf }: Organisations) {
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
  return centerUserRows;
}

export function buildPeople(context: SeedContext, organisations: Organisations) {
  const population = createPopulation(context);
  // In this order: each of these draws from the seed's random sequence.
  const userRows = population.people.map((person) => userRow(context, population, person));
  const patientProfiles = buildPatientProfiles(context, population, userRows);
  const userAssignedNurses = assignNurses(context, population);
  return {
    population,
    staff: userRows.filter((row) => !row.patientProfileId),
    patients: userRows.filter((row) => row.patientProfileId),
    patientProfiles,
    userEmployers: employ(population, organisations),
    userAssignedNurses,
    commandCenterUsers: joinCommandCenters(population, organisations),
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
