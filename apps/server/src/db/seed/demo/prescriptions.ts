// Prescriptions in every status, with the documents that travel with them, and documents outside
// prescriptions: consents, care plans, discharge letters; signed, partly signed, unsigned.
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import {
  prescriptionTransitions,
  type PrescriptionAction,
} from '@careplane/shared/prescriptions/prescription-transitions';
import { receiptTitle } from '@careplane/shared/prescriptions/receipt-titles';
import type { auditLog, documentSigningParties, documents, prescriptions } from '@/db/schema/index.js';
import { DAY, HOUR, MINUTE } from '../demo-series.js';
import { medicines, type Region } from '../reference-data.js';
import { bangkok, iso, type SeedContext } from './context.js';
import type { IotDevices } from './iot.js';
import type { Organisations } from './organisations.js';
import { displayName, type Person, type Population } from './people.js';

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
/**
 * The actions that brought a prescription to its status, in order: what its history tells (the audit rows the
 * service writes for each), and its version (one for the creation, one per action).
 */
const pathTo: Record<PrescriptionStatus, readonly PrescriptionAction[]> = {
  new: [],
  issued: ['issue'],
  waiting: ['issue', 'accept'],
  ready: ['issue', 'accept', 'mark-ready'],
  picked_up: ['issue', 'accept', 'mark-ready', 'pickup'],
  delivered: ['issue', 'accept', 'mark-ready', 'pickup', 'delivered'],
  on_hold: ['issue', 'accept', 'hold'],
  returned: ['issue', 'accept', 'mark-ready', 'pickup', 'return'],
};
/** When each action happened after the prescription was written (the receipts are signed at these times). */
const ISSUE_SIGNED = 20 * MINUTE;
const PICKUP_SIGNED = 6 * HOUR;
const CO_SIGNED = 7 * MINUTE;
const actionAfter: Record<PrescriptionAction, number> = {
  issue: ISSUE_SIGNED,
  accept: HOUR,
  hold: 2 * HOUR,
  resume: 2 * HOUR + 30 * MINUTE,
  'mark-ready': 3 * HOUR,
  // Recorded once the pharmacist has co-signed the picker's receipt.
  pickup: PICKUP_SIGNED + CO_SIGNED,
  delivered: 8 * HOUR,
  return: 8 * HOUR,
  restock: 9 * HOUR,
};
/** Why the demo's holds and returns happened (the reason an action may carry). */
const reasonOf: Partial<Record<PrescriptionAction, string>> = {
  hold: 'Waiting for the doctor to confirm the dose',
  return: 'Nobody at home; the neighbour could not take it',
};
/** A signed action's signature is asked this long before it is signed. */
const ASKED_BEFORE = 2 * MINUTE;

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

/** Documents and their signing parties; a document is signed when every party has signed it. */
function createDocumentBook(id: SeedContext['id']) {
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
  return { documentRows, signingPartyRows, addDocument };
}

type DocumentBook = ReturnType<typeof createDocumentBook>;

function prescribe(
  { random, id, ago, anchor }: SeedContext,
  { providerId, providerAddress }: Organisations,
  { named, withRole, nursesIn, patientsAll }: Population,
  { addDocument }: DocumentBook,
) {
  const nurse = named('nurse');

  const recipients = patientsAll.filter((patient) => patient.status !== 'discharged');
  const doctorsIn = (region: Region) =>
    region === bangkok ? [named('doctor')] : [...withRole('doctor', region), named('doctor')];
  const prescriptionRows: (typeof prescriptions.$inferInsert)[] = [];
  const historyRows: (typeof auditLog.$inferInsert)[] = [];
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
      // The named patient's ready and picked-up prescriptions go with the named nurse: her area is never empty.
      const namedNurseRound = index === 0 && (status === 'ready' || status === 'picked_up');
      const pickupByNurse = region.key === 'phuket' || serial % 3 === 0 || namedNurseRound;
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
            receiptTitle('en', 'issue', displayName(recipient), id('prescription', serial)),
            issuer,
            [issuer],
            [issuer],
            created + ISSUE_SIGNED,
            'issuer',
          )
        : null;
      const pickupReceiptId = pickedUp
        ? addDocument(
            `${key}-pickup`,
            receiptTitle('en', 'pickup', displayName(recipient), id('prescription', serial)),
            picker,
            [picker, pharmacist],
            [picker, pharmacist],
            created + PICKUP_SIGNED,
            'picker',
          )
        : null;
      // A ready prescription names its driver only when one was dispatched; otherwise any courier of the shipper may take it.
      const driverAssigned =
        !pickupByNurse && (status !== 'ready' || index % 2 === 0) && status !== 'new' && status !== 'issued';
      const prescriptionId = id('prescription', serial);
      const receiptOf: Partial<Record<PrescriptionAction, string | null>> = {
        issue: issuerReceiptId,
        pickup: pickupReceiptId,
      };
      // Its history: written by the issuer, then each action by whoever the transition table says does it.
      const actorOf = (action: PrescriptionAction) => {
        const actor = prescriptionTransitions[action].actor;
        return actor === 'issuer' ? issuer : actor === 'supplierPharmacist' ? pharmacist : picker;
      };
      const record = (action: string, actor: Person, at: number, changes: Record<string, unknown>) =>
        historyRows.push({
          at: new Date(at),
          actorUserId: actor.id,
          action,
          resource: 'prescriptions',
          recordId: prescriptionId,
          changes,
        });
      record('create', issuer, created, {
        issuer: issuer.id,
        supplier,
        recipient: recipient.id,
        pickupByNurse,
        ...(pickupByNurse ? { nurse: regionNurse.id } : { shipper: providerId(region, 'courier') }),
      });
      let last = created;
      for (const action of pathTo[status]) {
        last = created + actionAfter[action];
        const actor = actorOf(action);
        const documentId = receiptOf[action];
        if (documentId) {
          record(`${action}-requested`, actor, last - ASKED_BEFORE - (action === 'pickup' ? CO_SIGNED : 0), {
            documentId,
            signer: actor.id,
          });
        }
        const reason = reasonOf[action];
        record(action, actor, last, {
          status: prescriptionTransitions[action].to,
          ...(reason ? { reason } : {}),
        });
      }
      prescriptionRows.push({
        id: prescriptionId,
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
        version: pathTo[status].length + 1,
        createdByUserId: issuer.id,
        createdAt: new Date(created),
        updatedAt: new Date(Math.min(anchor, last)),
      });
    }
  }

  return { prescriptionRows, historyRows };
}

/** Documents outside prescriptions: consents, care plans, discharge letters; signed, partly signed, unsigned. */
function fileCareDocuments(
  { ago }: SeedContext,
  { named, patientsAll }: Population,
  { tachycardiaPatient }: IotDevices,
  { addDocument }: DocumentBook,
) {
  const admin = named('admin');
  const nurse = named('nurse');
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
}

export function buildPrescriptions(
  context: SeedContext,
  organisations: Organisations,
  population: Population,
  iot: IotDevices,
) {
  const book = createDocumentBook(context.id);
  const { prescriptionRows, historyRows } = prescribe(context, organisations, population, book);
  fileCareDocuments(context, population, iot, book);
  return {
    prescriptions: prescriptionRows,
    prescriptionHistory: historyRows,
    documents: book.documentRows,
    documentSigningParties: book.signingPartyRows,
  };
}
