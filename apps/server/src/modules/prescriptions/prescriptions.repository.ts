// The SQL of the prescription workflow the resource engine does not write: who takes part, the atomic status
// change, the actions waiting for a signature, and the names a generated PDF prints.
import { and, asc, desc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder, alias } from 'drizzle-orm/pg-core';
import type { PatientStatus, PrescriptionStatus } from '@careplane/shared/common/enums';
import type { PrescriptionViewer } from '@careplane/shared/prescriptions/prescription-actors';
import {
  MAX_CHOICES,
  type PrescriptionChoices,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import type { Executor } from '@/db/client.js';
import { actionKeys } from '@/lib/action-keys.js';
import {
  auditLog,
  commandCenterUsers,
  patientProfiles,
  prescriptionActionKeys,
  prescriptionSignings,
  prescriptions,
  serviceProviders,
  userAssignedNurses,
  userEmployers,
  users,
} from '@/db/schema/index.js';

export type PrescriptionRow = typeof prescriptions.$inferSelect;
export type PrescriptionSigningRow = typeof prescriptionSignings.$inferSelect;

export async function employerIdsOf(executor: Executor, userId: string | null): Promise<string[]> {
  if (!userId) return [];
  const rows = await executor
    .select({ id: userEmployers.serviceProviderId })
    .from(userEmployers)
    .where(eq(userEmployers.userId, userId));
  return rows.map((row) => row.id);
}

/** The ids of the providers employing the user, as a subquery (no executor: scopes are built before a query). */
/** The providers employing the user, for the console's area picker. */
export async function employersWithTitles(executor: Executor, userId: string | null) {
  if (!userId) return [];
  return executor
    .select({ id: serviceProviders.id, title: serviceProviders.title, type: serviceProviders.type })
    .from(userEmployers)
    .innerJoin(serviceProviders, eq(serviceProviders.id, userEmployers.serviceProviderId))
    .where(eq(userEmployers.userId, userId))
    .orderBy(serviceProviders.title);
}

const cityOf = (address: Record<string, unknown> | undefined): string | null =>
  typeof address?.city === 'string' && address.city ? address.city : null;

/**
 * What a doctor's prescription form offers (decision 084): the patients of the command centers the doctor is
 * assigned to, each with the first nurse assigned to them, and the enabled pharmacies and courier companies.
 */
export async function prescriptionChoices(
  executor: Executor,
  doctorId: string,
): Promise<PrescriptionChoices> {
  const doctorsCenters = new QueryBuilder()
    .select({ id: commandCenterUsers.commandCenterId })
    .from(commandCenterUsers)
    .where(eq(commandCenterUsers.userId, doctorId));
  const inTheirCenters = new QueryBuilder()
    .select({ id: commandCenterUsers.userId })
    .from(commandCenterUsers)
    .where(inArray(commandCenterUsers.commandCenterId, doctorsCenters));
  const patients = await executor
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      address: users.address,
      localizedName: sql<
        string | null
      >`nullif(trim(coalesce(${users.additionalInfo} ->> 'localizedFirstName', '') || ' ' || coalesce(${users.additionalInfo} ->> 'localizedLastName', '')), '')`,
      status: sql<PatientStatus | null>`${patientProfiles.status}`,
    })
    .from(users)
    .leftJoin(patientProfiles, eq(patientProfiles.id, users.patientProfileId))
    .where(
      and(
        sql`${users.localRoles} @> array['patient']::text[]`,
        eq(users.isBlocked, false),
        inArray(users.id, inTheirCenters),
      ),
    )
    // Those in care first: past the limit, a discharged patient is the one left out.
    .orderBy(
      sql`${patientProfiles.status} is not distinct from 'discharged'`,
      asc(users.lastName),
      asc(users.firstName),
      asc(users.id),
    )
    .limit(MAX_CHOICES);
  const nurse = alias(users, 'nurse');
  const nurses = patients.length
    ? await executor
        .select({
          patientId: userAssignedNurses.userId,
          id: nurse.id,
          firstName: nurse.firstName,
          lastName: nurse.lastName,
        })
        .from(userAssignedNurses)
        .innerJoin(nurse, eq(nurse.id, userAssignedNurses.nurseId))
        .where(
          inArray(
            userAssignedNurses.userId,
            patients.map((patient) => patient.id),
          ),
        )
        .orderBy(asc(nurse.lastName), asc(nurse.firstName), asc(nurse.id))
    : [];
  const nurseOf = new Map<string, PrescriptionChoices['patients'][number]['nurse']>();
  for (const { patientId, ...person } of nurses) if (!nurseOf.has(patientId)) nurseOf.set(patientId, person);
  const providers = await executor
    .select({
      id: serviceProviders.id,
      title: serviceProviders.title,
      type: serviceProviders.type,
      address: serviceProviders.address,
    })
    .from(serviceProviders)
    .where(and(inArray(serviceProviders.type, ['pharmacy', 'courier']), eq(serviceProviders.isEnabled, true)))
    .orderBy(asc(serviceProviders.title), asc(serviceProviders.id))
    .limit(2 * MAX_CHOICES);
  return {
    patients: patients.map(({ address, ...person }) => ({
      ...person,
      city: cityOf(address[0]),
      nurse: nurseOf.get(person.id) ?? null,
    })),
    pharmacies: providers
      .filter((provider) => provider.type === 'pharmacy')
      .map(({ id, title, address }) => ({ id, title, city: cityOf(address) })),
    couriers: providers
      .filter((provider) => provider.type === 'courier')
      .map(({ id, title }) => ({ id, title })),
  };
}

const employersOf = (userId: string) =>
  new QueryBuilder()
    .select({ id: userEmployers.serviceProviderId })
    .from(userEmployers)
    .where(eq(userEmployers.userId, userId));

/**
 * The prescriptions a viewer takes part in (the same rule as `takesPart` of the contract): issuer, recipient,
 * nurse, driver; a pharmacist employed by the supplier; a courier employed by the shipper unless a nurse picks
 * up. Admins: everything (no condition).
 */
export function participantScope(
  viewer: Pick<PrescriptionViewer, 'userId' | 'localRoles' | 'isAdmin'>,
): SQL | undefined {
  if (viewer.isAdmin) return undefined;
  const me = viewer.userId;
  if (!me) return sql`false`;
  return or(
    eq(prescriptions.issuerId, me),
    eq(prescriptions.recipientId, me),
    eq(prescriptions.nurseId, me),
    eq(prescriptions.shipperDriverId, me),
    viewer.localRoles.includes('pharmacist')
      ? sql`${prescriptions.supplierId} in ${employersOf(me)}`
      : undefined,
    viewer.localRoles.includes('courier')
      ? and(
          or(isNull(prescriptions.pickupByNurse), eq(prescriptions.pickupByNurse, false)),
          inArray(prescriptions.shipperId, employersOf(me)),
        )
      : undefined,
  );
}

export async function findPrescription(
  executor: Executor,
  id: string,
  scope?: SQL,
): Promise<PrescriptionRow | undefined> {
  const [row] = await executor
    .select()
    .from(prescriptions)
    .where(and(eq(prescriptions.id, id), scope));
  return row;
}

/**
 * The status change as one conditional statement: it changes the row only while the status is one of `from`,
 * so of concurrent requests exactly one sees a row back. `set` adds the columns the action fills.
 */
export async function transitionStatus(
  executor: Executor,
  id: string,
  from: readonly PrescriptionStatus[],
  to: PrescriptionStatus,
  set: Partial<Pick<PrescriptionRow, 'issuerReceiptId' | 'pickupReceiptId' | 'shipperDriverId'>> = {},
  version?: number,
): Promise<PrescriptionRow | undefined> {
  const [row] = await executor
    .update(prescriptions)
    .set({ ...set, status: to, version: sql`${prescriptions.version} + 1`, updatedAt: new Date() })
    .where(
      and(
        eq(prescriptions.id, id),
        inArray(prescriptions.status, [...from]),
        // A signed action: only the version its receipt was made from (not one edited since).
        version === undefined ? undefined : eq(prescriptions.version, version),
      ),
    )
    .returning();
  return row;
}

export async function statusOf(executor: Executor, id: string): Promise<PrescriptionStatus | undefined> {
  const [row] = await executor
    .select({ status: prescriptions.status })
    .from(prescriptions)
    .where(eq(prescriptions.id, id));
  return row?.status as PrescriptionStatus | undefined;
}

export async function insertSigning(executor: Executor, values: typeof prescriptionSignings.$inferInsert) {
  await executor.insert(prescriptionSignings).values(values);
}

export async function findSigning(
  executor: Executor,
  by: { id: string; prescriptionId: string },
): Promise<PrescriptionSigningRow | undefined> {
  const [row] = await executor
    .select()
    .from(prescriptionSignings)
    .where(
      and(eq(prescriptionSignings.id, by.id), eq(prescriptionSignings.prescriptionId, by.prescriptionId)),
    );
  return row;
}

/** A signing action, locked until its transaction ends (settling it happens once). */
export async function lockSigning(
  executor: Executor,
  id: string,
): Promise<PrescriptionSigningRow | undefined> {
  const [row] = await executor
    .select()
    .from(prescriptionSignings)
    .where(eq(prescriptionSignings.id, id))
    .for('update');
  return row;
}

export async function updateSigning(
  executor: Executor,
  id: string,
  values: Pick<typeof prescriptionSignings.$inferInsert, 'status' | 'failure' | 'completedAt'>,
) {
  await executor.update(prescriptionSignings).set(values).where(eq(prescriptionSignings.id, id));
}

/** Signing actions not settled yet, oldest first. */
/** The actions of `prescriptionId` waiting for `signerUserId`'s phone to sign, newest first. */
export async function waitingSigningsOf(
  executor: Executor,
  by: { prescriptionId: string; action: string; signerUserId: string },
) {
  return executor
    .select({ id: prescriptionSignings.id })
    .from(prescriptionSignings)
    .where(
      and(
        eq(prescriptionSignings.prescriptionId, by.prescriptionId),
        eq(prescriptionSignings.action, by.action),
        eq(prescriptionSignings.signerUserId, by.signerUserId),
        eq(prescriptionSignings.status, 'pending'),
      ),
    )
    .orderBy(desc(prescriptionSignings.createdAt));
}

/**
 * The prescription's other actions still waiting for a phone, locked; those another settlement holds are
 * skipped (that one ends them itself, finding the prescription moved on).
 */
export async function otherWaitingSignings(executor: Executor, prescriptionId: string, exceptId: string) {
  return executor
    .select()
    .from(prescriptionSignings)
    .where(
      and(
        eq(prescriptionSignings.prescriptionId, prescriptionId),
        eq(prescriptionSignings.status, 'pending'),
        ne(prescriptionSignings.id, exceptId),
      ),
    )
    .for('update', { skipLocked: true });
}

/** The signing actions still waiting, oldest first: what settling one needs. */
export async function waitingSignings(executor: Executor, limit: number) {
  return executor
    .select({
      id: prescriptionSignings.id,
      documentId: prescriptionSignings.documentId,
      signerUserId: prescriptionSignings.signerUserId,
    })
    .from(prescriptionSignings)
    .where(eq(prescriptionSignings.status, 'pending'))
    .orderBy(asc(prescriptionSignings.createdAt))
    .limit(limit);
}

export interface PersonRow {
  id: string;
  firstName: string | null;
  lastName: string | null;
  username: string;
  masterId: string | null;
  address: Record<string, unknown>[];
  /** The language they chose (en, th); null follows their browser. */
  language: string | null;
}

export async function peopleByIds(executor: Executor, ids: readonly string[]): Promise<PersonRow[]> {
  if (!ids.length) return [];
  return executor
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      masterId: users.masterId,
      address: users.address,
      language: users.language,
    })
    .from(users)
    .where(inArray(users.id, [...ids]));
}

export async function providersByIds(executor: Executor, ids: readonly string[]) {
  if (!ids.length) return [];
  return executor
    .select({ id: serviceProviders.id, title: serviceProviders.title, address: serviceProviders.address })
    .from(serviceProviders)
    .where(inArray(serviceProviders.id, [...ids]));
}

/** The prescription's audit rows, oldest first: its history. */
export async function historyOf(executor: Executor, id: string) {
  return executor
    .select({
      at: auditLog.at,
      action: auditLog.action,
      actorUserId: auditLog.actorUserId,
      changes: auditLog.changes,
    })
    .from(auditLog)
    .where(and(eq(auditLog.resource, 'prescriptions'), eq(auditLog.recordId, id)))
    .orderBy(desc(auditLog.at))
    .limit(200);
}

/**
 * When the prescription reached the status it has: its newest audited status change, or its creation (`new`).
 * Nobody saw that status, and so took an action on it, earlier.
 */
export async function statusReachedAt(executor: Executor, row: Pick<PrescriptionRow, 'id' | 'createdAt'>) {
  const [latest] = await executor
    .select({ at: sql<Date | null>`max(${auditLog.at})` })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.resource, 'prescriptions'),
        eq(auditLog.recordId, row.id),
        sql`${auditLog.changes} ? 'status'`,
      ),
    );
  const at = latest?.at ? new Date(latest.at) : null;
  return at && at > row.createdAt ? at : row.createdAt;
}

export type PrescriptionActionKeyRow = typeof prescriptionActionKeys.$inferSelect;

/** The keys of the plain status actions (decision 046), kept as every action's key is (lib/action-keys.ts). */
const prescriptionKeys = actionKeys(prescriptionActionKeys);
export const findActionKey = prescriptionKeys.find;
export const claimActionKey = prescriptionKeys.claim;
export const saveActionAnswer = prescriptionKeys.saveAnswer;
