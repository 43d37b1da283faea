// Prescriptions in every status, with the documents that travel with them, and documents outside
// prescriptions: consents, care plans, discharge letters; signed, partly signed, unsigned.
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import { receiptTitle } from '@careplane/shared/prescriptions/receipt-titles';
import type { documentSigningParties, documents, prescriptions } from '@/db/schema/index.js';
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
            created + 20 * MINUTE,
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

  return prescriptionRows;
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
  const prescriptionRows = prescribe(context, organisations, population, book);
  fileCareDocuments(context, population, iot, book);
  return {
    prescriptions: prescriptionRows,
    documents: book.documentRows,
    documentSigningParties: book.signingPartyRows,
  };
}
