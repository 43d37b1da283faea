import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrescriptionSubmission } from '@careplane/shared/prescriptions/prescriptions.contract';
import type { ServiceProviderCreate } from '@careplane/shared/service-providers/service-providers.contract';
import type { UserCreate } from '@careplane/shared/users/users.contract';
import { documents, prescriptions } from '@/db/schema/index.js';
import {
  createPatient,
  createPrescription as createPrescriptionOf,
  createServiceProvider,
  createUser,
} from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { auditRows as auditRowsOf } from '@/test/records.js';

let context: TestContext;
let admin: ReturnType<typeof api>;

const db = () => context.database.db;

const makeUser = async (firstName: string, overrides: Partial<UserCreate> = {}) =>
  (await createUser(context, { firstName, ...overrides })).id;
const makeProvider = async (title: string, type: ServiceProviderCreate['type'], isEnabled = true) =>
  (await createServiceProvider(context, { title, type, isEnabled })).id;

interface Parties {
  issuer: string;
  recipient: string;
  nurse: string;
  driver: string;
  pharmacy: string;
  courier: string;
  nursingService: string;
}
let parties: Parties;

const item = { name: 'Amoxicillin', strength: '500 mg', form: 'capsule', quantity: 20, unit: 'pcs' };
const submission = (overrides: Record<string, unknown> = {}) => ({
  issuer: parties.issuer,
  supplier: parties.pharmacy,
  recipient: parties.recipient,
  shipper: parties.courier,
  content: [item],
  ...overrides,
});

const createPrescription = (overrides: Partial<PrescriptionSubmission> = {}) =>
  createPrescriptionOf(context, { ...submission(), ...overrides });

const count = async () => (await db().select({ id: prescriptions.id }).from(prescriptions)).length;
const auditRows = (recordId: string) => auditRowsOf(context, 'prescriptions', recordId);
const setStatus = (id: string, status: string) =>
  db().update(prescriptions).set({ status }).where(eq(prescriptions.id, id));

beforeAll(async () => {
  context = await createTestContext();
  admin = api(context);
  parties = {
    issuer: await makeUser('Dora', { localRoles: ['doctor'] }),
    recipient: (await createPatient(context, { firstName: 'Pia' })).id,
    nurse: await makeUser('Nora', { localRoles: ['nurse'] }),
    driver: await makeUser('Dan', { localRoles: ['courier'] }),
    pharmacy: await makeProvider('Riverside Pharmacy', 'pharmacy'),
    courier: await makeProvider('Swift Couriers', 'courier'),
    nursingService: await makeProvider('Home Nursing Co', 'nurse'),
  };
});
afterAll(async () => {
  await context?.close();
});

describe('prescriptions: create, read, update, delete', () => {
  it('submits a prescription that starts at new, reads, patches and deletes it, auditing each write', async () => {
    const created = await admin.post(
      '/api/prescriptions',
      submission({
        shipperDriver: parties.driver,
        nurse: parties.nurse,
        pickupAddress: { title: 'Riverside Pharmacy', city: 'Chiang Mai', geo: { lat: 18.79, lng: 98.98 } },
        deliveryAddress: { street: 'Nimman Rd', houseNumber: '7', city: 'Chiang Mai', country: 'TH' },
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const prescription = created.json();
    expect(prescription).toMatchObject({
      status: 'new',
      version: 1,
      issuerId: parties.issuer,
      supplierId: parties.pharmacy,
      recipientId: parties.recipient,
      shipperId: parties.courier,
      shipperDriverId: parties.driver,
      nurseId: parties.nurse,
      pickupByNurse: null,
      issuerReceiptId: null,
      pickupReceiptId: null,
      createdByUserId: context.adminUserId,
      content: [item],
      deliveryAddress: { street: 'Nimman Rd', houseNumber: '7', city: 'Chiang Mai', country: 'TH' },
    });
    expect(prescription).not.toHaveProperty('issuer');

    const read = await admin.get(`/api/prescriptions/${prescription.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(prescription);

    const patched = await admin.patch(`/api/prescriptions/${prescription.id}`, {
      content: [item, { name: 'Paracetamol', quantity: 10, dosage: '1 tablet every 6 hours' }],
      deliveryAddress: null,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ deliveryAddress: null, shipperId: parties.courier });
    expect(patched.json().content).toHaveLength(2);

    expect((await admin.delete(`/api/prescriptions/${prescription.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/prescriptions/${prescription.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/prescriptions/${prescription.id}`)).statusCode).toBe(404);

    const rows = await auditRows(prescription.id);
    expect(rows.map((row) => row.action)).toEqual(['create', 'update', 'delete']);
    expect(rows.every((row) => row.actorUserId === context.adminUserId)).toBe(true);
    expect(rows[0]!.changes).toMatchObject({ issuer: parties.issuer, content: [item] });
    expect(rows[1]!.changes).toMatchObject({ deliveryAddress: null });
  });

  it('embeds relations, nested ones too', async () => {
    const document = (await db().insert(documents).values({ title: 'Receipt' }).returning())[0]!;
    const { id } = await createPrescription({ nurse: parties.nurse, shipperDriver: parties.driver });
    await db().update(prescriptions).set({ issuerReceiptId: document.id }).where(eq(prescriptions.id, id));

    const read = await admin.get(
      `/api/prescriptions/${id}?relations=supplier,recipient.patientProfile,issuerReceipt`,
    );
    expect(read.statusCode, read.body).toBe(200);
    const body = read.json();
    expect(body.supplier).toMatchObject({ id: parties.pharmacy, type: 'pharmacy' });
    expect(body.recipient).toMatchObject({ id: parties.recipient, firstName: 'Pia' });
    expect(body.recipient.patientProfile).toMatchObject({ status: 'enrolled' });
    expect(body.issuerReceipt).toMatchObject({ id: document.id, title: 'Receipt' });
    expect(body).not.toHaveProperty('shipper');

    const all = await admin.get(
      `/api/prescriptions?filters=id~${id}&relations=issuer,nurse,shipper,shipperDriver,pickupReceipt,createdByUser,supplier.employees`,
    );
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().items[0]).toMatchObject({
      issuer: { id: parties.issuer },
      nurse: { id: parties.nurse },
      shipper: { id: parties.courier, type: 'courier' },
      shipperDriver: { id: parties.driver },
      pickupReceipt: null,
      createdByUser: { id: context.adminUserId },
      supplier: { id: parties.pharmacy, employees: [] },
    });
  });

  it('answers 404 for an unknown id and 400 for an id that is not a uuid', async () => {
    const unknown = '0190a0b0-0000-7000-8000-000000000000';
    expect((await admin.get(`/api/prescriptions/${unknown}`)).statusCode).toBe(404);
    expect((await admin.patch(`/api/prescriptions/${unknown}`, { content: [item] })).statusCode).toBe(404);
    const bad = await admin.get('/api/prescriptions/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([{ path: 'params.id', message: 'Must be a uuid' }]);
  });
});

describe('prescriptions: submission rules', () => {
  const refused = async (body: unknown, paths: string[], method: 'post' | 'patch' = 'post', id = '') => {
    const before = await count();
    const response =
      method === 'post'
        ? await admin.post('/api/prescriptions', body)
        : await admin.patch(`/api/prescriptions/${id}`, body);
    expect(response.statusCode, response.body).toBe(400);
    const answer = response.json();
    expect(answer).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(answer.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(paths.sort());
    expect(await count()).toBe(before);
    return answer as { message: string; issues: { path: string; message: string }[] };
  };

  it('requires issuer, supplier, recipient and a non-empty content list', async () => {
    const rest = submission({
      issuer: undefined,
      supplier: undefined,
      recipient: undefined,
      content: undefined,
    });
    await refused(rest, ['body.issuer', 'body.supplier', 'body.recipient', 'body.content']);
    await refused(submission({ content: [] }), ['body.content']);
    await refused(submission({ content: 'Amoxicillin' }), ['body.content']);
    await refused(submission({ content: [{ name: 'Amoxicillin' }] }), ['body.content.0.quantity']);
    await refused(submission({ content: [{ name: '', quantity: -1 }] }), [
      'body.content.0.name',
      'body.content.0.quantity',
    ]);
    await refused(submission({ content: Array.from({ length: 51 }, () => item) }), ['body.content']);
    await refused(submission({ content: [{ ...item, notes: 'x'.repeat(2001) }] }), ['body.content.0.notes']);
    await refused(submission({ content: [{ ...item, name: 'Amoxi\u0000cillin' }] }), ['body.content.0.name']);
    // What a phone is asked to sign and a receipt prints is what the screen shows: a name with nothing visible
    // in it is missing, and one written backwards by a direction override ("Warfarin 5000 mg" on screen) or
    // carrying control characters is refused.
    const invisible = await refused(submission({ content: [{ ...item, name: '\u200b' }] }), [
      'body.content.0.name',
    ]);
    expect(invisible.issues[0]!.message).toBe('Required');
    const reversed = await refused(submission({ content: [{ ...item, name: 'Warfarin\u202e gm 0005' }] }), [
      'body.content.0.name',
    ]);
    expect(reversed.issues[0]!.message).toBe('Must not contain control or text-direction characters');
    await refused(submission({ content: [{ ...item, strength: '5\u0001mg' }] }), ['body.content.0.strength']);
  });

  it('refuses ids that are not uuids, a non-boolean pickupByNurse and unknown fields', async () => {
    await refused(submission({ issuer: 'dora' }), ['body.issuer']);
    await refused(submission({ supplier: 42 }), ['body.supplier']);
    await refused(submission({ pickupByNurse: 'yes' }), ['body.pickupByNurse']);
    await refused(submission({ deliveryAddress: { city: 'Chiang Mai', floor: 3 } }), [
      'body.deliveryAddress',
    ]);
    await refused(submission({ pickupAddress: { geo: { lat: 91, lng: 0 } } }), [
      'body.pickupAddress.geo.lat',
    ]);
    await refused(submission({ createdByUser: parties.issuer }), ['body']);
  });

  it('never takes a status from the body: new prescriptions start at new', async () => {
    await refused(submission({ status: 'ready' }), ['body']);
    const { id } = await createPrescription();
    const patched = await admin.patch(`/api/prescriptions/${id}`, { status: 'delivered' });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().issues).toEqual([
      {
        path: 'body.status',
        message: 'The status changes only through the actions: POST /api/prescriptions/{id}/<action>',
      },
    ]);
    const [row] = await db().select().from(prescriptions).where(eq(prescriptions.id, id));
    expect(row!.status).toBe('new');
  });

  it('requires a nurse only when pickupByNurse is true, and a shipper only when it is not', async () => {
    const noShipper = submission({ shipper: undefined });
    await refused(noShipper, ['body.shipper']);
    await refused({ ...noShipper, pickupByNurse: false }, ['body.shipper']);
    await refused({ ...noShipper, shipper: null }, ['body.shipper']);
    const nurseMissing = await refused({ ...noShipper, pickupByNurse: true }, ['body.nurse']);
    expect(nurseMissing.issues[0]!.message).toBe('Required when a nurse picks it up');

    const byNurse = await createPrescription({
      shipper: undefined,
      pickupByNurse: true,
      nurse: parties.nurse,
    });
    expect(byNurse).toMatchObject({ pickupByNurse: true, nurseId: parties.nurse, shipperId: null });
    const byShipperWithNurse = await createPrescription({ pickupByNurse: false, nurse: parties.nurse });
    expect(byShipperWithNurse).toMatchObject({ pickupByNurse: false, shipperId: parties.courier });
  });

  it('checks that every named party exists, with the path of each unknown one', async () => {
    const unknown = '0190a0b0-0000-7000-8000-00000000dead';
    const unknownToo = (end: string) => `0190a0b0-0000-7000-8000-00000000${end}`;
    const answer = await refused(
      submission({
        issuer: unknownToo('dea1'),
        recipient: unknownToo('dea2'),
        shipperDriver: unknownToo('dea3'),
        nurse: unknownToo('dea4'),
      }),
      ['body.issuer', 'body.recipient', 'body.shipperDriver', 'body.nurse'],
    );
    expect(answer.issues[0]!.message).toBe('No user with this id');
    await refused(submission({ supplier: unknown, shipper: unknown }), ['body.supplier', 'body.shipper']);
  });

  it('takes a pharmacy as supplier and a courier or nursing provider as shipper, enabled ones only', async () => {
    const wrongSupplier = await refused(submission({ supplier: parties.courier }), ['body.supplier']);
    expect(wrongSupplier.issues[0]!.message).toBe('Must be a service provider of type pharmacy, not courier');
    await refused(submission({ supplier: parties.nursingService }), ['body.supplier']);
    const wrongShipper = await refused(submission({ shipper: parties.pharmacy }), ['body.shipper']);
    expect(wrongShipper.issues[0]!.message).toBe(
      'Must be a service provider of type courier or nurse, not pharmacy',
    );
    // A nursing service may deliver as the shipper.
    expect(await createPrescription({ shipper: parties.nursingService })).toMatchObject({
      shipperId: parties.nursingService,
    });

    const closedPharmacy = await makeProvider('Closed Pharmacy', 'pharmacy', false);
    const disabled = await refused(submission({ supplier: closedPharmacy }), ['body.supplier']);
    expect(disabled.issues[0]!.message).toBe('The service provider is disabled');
  });

  it('keeps each step of the custody someone else’s: no prescriber writes for or carries to themselves', async () => {
    const sameAsIssuer = await refused(submission({ recipient: parties.issuer }), ['body.recipient']);
    expect(sameAsIssuer.issues[0]!.message).toBe('Must be someone other than the issuer');
    const carriers = await refused(
      submission({ pickupByNurse: true, nurse: parties.issuer, shipperDriver: parties.recipient }),
      ['body.nurse', 'body.shipperDriver'],
    );
    expect(carriers.issues[0]!.message).toBe('Must be someone other than the issuer and the recipient');

    // A PATCH is checked as it would leave the record.
    const { id } = await createPrescription({ shipperDriver: parties.driver });
    await refused({ shipperDriver: parties.issuer }, ['body.shipperDriver'], 'patch', id);
    await refused({ pickupByNurse: true, nurse: parties.recipient }, ['body.nurse'], 'patch', id);
    const toNurse = await admin.patch(`/api/prescriptions/${id}`, {
      pickupByNurse: true,
      nurse: parties.nurse,
    });
    expect(toNurse.statusCode, toNurse.body).toBe(200);
    // A record written before the rule can still have what does not name people mended.
    await db().update(prescriptions).set({ nurseId: parties.issuer }).where(eq(prescriptions.id, id));
    const mended = await admin.patch(`/api/prescriptions/${id}`, {
      deliveryAddress: {
        street: 'Sukhumvit Road',
        houseNumber: '12',
        city: 'Bangkok',
        postalCode: '10110',
        country: 'TH',
      },
    });
    expect(mended.statusCode, mended.body).toBe(200);
  });

  it('re-checks the pickup rule against the record as a PATCH would leave it', async () => {
    const { id } = await createPrescription();
    await refused({ pickupByNurse: true }, ['body.nurse'], 'patch', id);
    await refused({ shipper: null }, ['body.shipper'], 'patch', id);

    const toNurse = await admin.patch(`/api/prescriptions/${id}`, {
      pickupByNurse: true,
      nurse: parties.nurse,
      shipper: null,
    });
    expect(toNurse.statusCode, toNurse.body).toBe(200);
    expect(toNurse.json()).toMatchObject({ pickupByNurse: true, nurseId: parties.nurse, shipperId: null });

    await refused({ nurse: null }, ['body.nurse'], 'patch', id);
    await refused({ pickupByNurse: false }, ['body.shipper'], 'patch', id);
    const back = await admin.patch(`/api/prescriptions/${id}`, {
      pickupByNurse: false,
      shipper: parties.nursingService,
    });
    expect(back.statusCode, back.body).toBe(200);
    // The nurse may stay attached when a shipper picks up.
    expect(back.json()).toMatchObject({ pickupByNurse: false, nurseId: parties.nurse });

    await refused({ supplier: parties.courier }, ['body.supplier'], 'patch', id);
    await refused({ shipper: parties.pharmacy }, ['body.shipper'], 'patch', id);
    await refused({ recipient: '0190a0b0-0000-7000-8000-00000000dead' }, ['body.recipient'], 'patch', id);
    await refused({ content: [] }, ['body.content'], 'patch', id);
    await refused({ issuer: null }, ['body.issuer'], 'patch', id);
  });

  it('fixes signed fields once issued and everything once picked up', async () => {
    const { id } = await createPrescription();
    await setStatus(id, 'issued');
    const signed = await admin.patch(`/api/prescriptions/${id}`, {
      content: [item],
      recipient: parties.nurse,
    });
    expect(signed.statusCode).toBe(409);
    expect(signed.json()).toMatchObject({
      statusCode: 409,
      message: 'A prescription in status issued can no longer change recipient, content',
    });
    const logistics = await admin.patch(`/api/prescriptions/${id}`, {
      shipperDriver: parties.driver,
      deliveryAddress: { city: 'Lamphun' },
    });
    expect(logistics.statusCode, logistics.body).toBe(200);

    await setStatus(id, 'picked_up');
    expect((await admin.patch(`/api/prescriptions/${id}`, { shipperDriver: null })).statusCode).toBe(409);
    const [row] = await db().select().from(prescriptions).where(eq(prescriptions.id, id));
    expect(row!.shipperDriverId).toBe(parties.driver);
  });

  it('keeps a prescription once picked up or delivered: an admin cannot delete it (decision 012)', async () => {
    for (const status of ['picked_up', 'delivered'] as const) {
      const { id } = await createPrescription();
      await setStatus(id, status);
      const refusal = await admin.delete(`/api/prescriptions/${id}`);
      expect(refusal.statusCode, refusal.body).toBe(409);
      expect(refusal.json().message).toBe(
        `A prescription in status ${status} is kept as it is: it cannot be deleted`,
      );
      expect(await db().select().from(prescriptions).where(eq(prescriptions.id, id))).toHaveLength(1);
      expect((await auditRows(id)).map((row) => row.action)).toEqual(['create']);
    }
    // Before pickup it still goes.
    const { id } = await createPrescription();
    await setStatus(id, 'ready');
    expect((await admin.delete(`/api/prescriptions/${id}`)).statusCode).toBe(204);
  });

  it('counts every edit as a new version, as every status change is', async () => {
    const { id } = await createPrescription();
    const versionOf = async () =>
      (await db().select().from(prescriptions).where(eq(prescriptions.id, id)))[0]!.version;
    const before = await versionOf();
    expect((await admin.patch(`/api/prescriptions/${id}`, { content: [item] })).statusCode).toBe(200);
    expect(await versionOf()).toBe(before + 1);
  });

  it('writes no audit row for a refused write', async () => {
    const { id } = await createPrescription();
    await admin.patch(`/api/prescriptions/${id}`, { supplier: parties.courier });
    await admin.patch(`/api/prescriptions/${id}`, { status: 'ready' });
    expect((await auditRows(id)).map((row) => row.action)).toEqual(['create']);
  });
});

describe('prescriptions: lists', () => {
  // A world of its own: a fresh pharmacy keeps these prescriptions apart from the other tests'.
  let pharmacy: string;
  let ids: { a: string; b: string; c: string };
  const list = (query: string) => admin.get(`/api/prescriptions?filters=supplier.id~${pharmacy}&${query}`);
  const listIds = async (query: string) => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().items as { id: string }[]).map((row) => row.id);
  };

  beforeAll(async () => {
    pharmacy = await makeProvider('Hilltop Pharmacy', 'pharmacy');
    const a = await createPrescription({
      supplier: pharmacy,
      content: [{ name: 'Metformin', quantity: 60 }],
      deliveryAddress: { city: 'Lampang' },
    });
    const b = await createPrescription({
      supplier: pharmacy,
      shipper: undefined,
      pickupByNurse: true,
      nurse: parties.nurse,
      content: [{ name: 'Insulin glargine', quantity: 5, unit: 'pens' }],
    });
    const otherRecipient = await makeUser('Rita');
    const c = await createPrescription({
      supplier: pharmacy,
      recipient: otherRecipient,
      shipperDriver: parties.driver,
      content: [{ name: 'Atorvastatin', quantity: 30 }],
      deliveryAddress: { city: 'Chiang Rai' },
    });
    ids = { a: a.id, b: b.id, c: c.id };
    await setStatus(ids.b, 'waiting');
    await setStatus(ids.c, 'ready');
  });

  it('pages with totals, newest first by default', async () => {
    const page = await list('limit=2');
    expect(page.json()).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.json().items.map((row: { id: string }) => row.id)).toEqual([ids.c, ids.b]);
    const next = await list('limit=2&offset=2');
    expect(next.json()).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect(next.json().items.map((row: { id: string }) => row.id)).toEqual([ids.a]);
    expect((await list('offset=5')).json()).toMatchObject({ total: 3, items: [] });
  });

  it('filters by status, relation ids, booleans, any-of lists and null', async () => {
    expect(await listIds('filters=status~new')).toEqual([ids.a]);
    expect((await listIds('filters=status~waiting,ready')).sort()).toEqual([ids.b, ids.c].sort());
    expect(await listIds('filters=pickupByNurse~true')).toEqual([ids.b]);
    expect(await listIds('filters=nurse.id~' + parties.nurse)).toEqual([ids.b]);
    expect((await listIds('filters=nurse.id~null')).sort()).toEqual([ids.a, ids.c].sort());
    expect((await listIds('filters=shipper.id~' + parties.courier)).sort()).toEqual([ids.a, ids.c].sort());
    expect(await listIds('filters=shipper.id~null')).toEqual([ids.b]);
    expect(await listIds('filters=shipperDriver.id~' + parties.driver)).toEqual([ids.c]);
    expect((await listIds('filters=recipient.id~' + parties.recipient)).sort()).toEqual(
      [ids.a, ids.b].sort(),
    );
    expect((await listIds('filters=issuer.id~' + parties.issuer)).length).toBe(3);
    expect((await listIds('filters=createdByUser.id~' + context.adminUserId)).length).toBe(3);
    expect(await listIds(`filters=id~${ids.a}`)).toEqual([ids.a]);
    expect((await listIds('filters=issuerReceipt.id~null&filters=pickupReceipt.id~null')).length).toBe(3);
    // Filters combine with AND.
    expect(await listIds(`filters=status~ready&filters=shipperDriver.id~${parties.driver}`)).toEqual([ids.c]);
    expect(await listIds(`filters=status~new&filters=shipperDriver.id~${parties.driver}`)).toEqual([]);
  });

  it('searches ids, item names and delivery cities case-insensitively', async () => {
    expect(await listIds(`filtersLike=id~${ids.a.slice(-8).toUpperCase()}`)).toEqual([ids.a]);
    expect(await listIds('filtersLike=content.name~INSULIN')).toEqual([ids.b]);
    expect(await listIds('filtersLike=deliveryAddress.city~chiang')).toEqual([ids.c]);
    expect(await listIds('filtersLike=pickupAddress.city~x')).toEqual([]);
    expect(await listIds('filtersLike=content.name~100%')).toEqual([]);
  });

  it('sorts by whitelisted paths', async () => {
    // Status text order: new < ready < waiting.
    expect(await listIds('sort=status:asc')).toEqual([ids.a, ids.c, ids.b]);
    expect(await listIds('sort=status:desc')).toEqual([ids.b, ids.c, ids.a]);
    expect(await listIds('sort=createdAt:asc')).toEqual([ids.a, ids.b, ids.c]);
  });

  it('refuses unknown paths and mistyped values with 400', async () => {
    const cases = [
      'filters=content~x',
      'filters=status~cancelled',
      'filters=issuer.id~dora',
      'filters=supplier.type~pharmacy',
      'filters=pickupByNurse~yes',
      'filtersLike=notes~x',
      'sort=issuerId:asc',
      'sort=status:up',
      'relations=pharmacist',
      'relations=recipient.password',
      'relations=supplier.employees.employers.employees',
      'from=1',
      'limit=201',
      'limit=0',
      'offset=-1',
    ];
    for (const query of cases) {
      const response = await admin.get(`/api/prescriptions?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });
});

describe('prescriptions: deleting what a prescription names', () => {
  it('sets every relation to null and keeps the prescription', async () => {
    const issuer = await makeUser('Ivan');
    const nurse = await makeUser('Nell');
    const driver = await makeUser('Dirk');
    const recipient = await makeUser('Rosa');
    const supplier = await makeProvider('Corner Pharmacy', 'pharmacy');
    const shipper = await makeProvider('Quick Couriers', 'courier');
    const [issuerReceipt, pickupReceipt] = await db()
      .insert(documents)
      .values([{ title: 'Issued' }, { title: 'Picked up' }])
      .returning({ id: documents.id });
    const { id } = await createPrescription({
      issuer,
      nurse,
      shipperDriver: driver,
      recipient,
      supplier,
      shipper,
    });
    await db()
      .update(prescriptions)
      .set({ issuerReceiptId: issuerReceipt!.id, pickupReceiptId: pickupReceipt!.id, createdByUserId: nurse })
      .where(eq(prescriptions.id, id));

    for (const userId of [issuer, nurse, driver, recipient]) {
      expect((await admin.delete(`/api/users/${userId}`)).statusCode).toBe(204);
    }
    for (const providerId of [supplier, shipper]) {
      expect((await admin.delete(`/api/service-providers/${providerId}`)).statusCode).toBe(204);
    }
    await db().delete(documents).where(eq(documents.id, issuerReceipt!.id));
    await db().delete(documents).where(eq(documents.id, pickupReceipt!.id));

    const read = await admin.get(
      `/api/prescriptions/${id}?relations=issuer,nurse,shipperDriver,recipient,supplier,shipper,issuerReceipt,pickupReceipt,createdByUser`,
    );
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      issuerId: null,
      nurseId: null,
      shipperDriverId: null,
      recipientId: null,
      supplierId: null,
      shipperId: null,
      issuerReceiptId: null,
      pickupReceiptId: null,
      createdByUserId: null,
      issuer: null,
      nurse: null,
      shipperDriver: null,
      recipient: null,
      supplier: null,
      shipper: null,
      issuerReceipt: null,
      pickupReceipt: null,
      createdByUser: null,
      content: [item],
    });
  });
});

describe('prescriptions: access', () => {
  it('answers 401 without a token; a user outside the prescription sees none and gets 404 or 403', async () => {
    const { id } = await createPrescription();
    const before = await count();
    const user = api(context, context.userToken);
    const list = await user.get('/api/prescriptions');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ items: [], total: 0 });
    expect((await user.get(`/api/prescriptions/${id}`)).statusCode).toBe(404);
    const calls = [
      user.post('/api/prescriptions', submission()),
      user.patch(`/api/prescriptions/${id}`, { content: [item] }),
      user.delete(`/api/prescriptions/${id}`),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
    expect((await context.app.inject({ url: '/api/prescriptions' })).statusCode).toBe(401);
    expect(
      (await context.app.inject({ method: 'POST', url: '/api/prescriptions', payload: submission() }))
        .statusCode,
    ).toBe(401);
    expect(await count()).toBe(before);
    expect((await auditRows(id)).map((row) => row.action)).toEqual(['create']);
  });
});

describe('prescriptions: what they tell about the people they name (decision 062)', () => {
  const card = ['email', 'firstName', 'id', 'lastName', 'phoneNumber', 'title', 'username'];
  const people = 'issuer,recipient,nurse,shipperDriver,createdByUser';

  it('embeds each person as a card: who they are and how to reach them, for participants and admins', async () => {
    const patient = await createPatient(context, {
      firstName: 'Pim',
      lastName: 'Srisuk',
      phoneNumber: '+66 81 234 5678',
      additionalInfo: {
        identityDocumentType: 'national_id',
        identityDocumentNumber: '5319097252754',
        identityDocumentIsValidIndefinitely: true,
        dateOfBirth: '1950-05-09',
      },
    });
    const { id } = await createPrescription({ recipient: patient.id, shipperDriver: parties.driver });
    const participant = api(context, patient.token);
    for (const who of [participant, admin]) {
      const answers = [
        await who.get(`/api/prescriptions?filters=id~${id}&relations=${people}`),
        await who.get(`/api/prescriptions?filters=id~${id}&relations=${people}&count=false`),
        await who.get(`/api/prescriptions/${id}?relations=${people}`),
      ];
      for (const answer of answers) {
        expect(answer.statusCode, answer.body).toBe(200);
        expect(answer.body).not.toContain('5319097252754');
        expect(answer.body).not.toContain('1950-05-09');
        const record = answer.json().items?.[0] ?? answer.json();
        for (const name of ['issuer', 'recipient', 'shipperDriver', 'createdByUser'])
          expect(Object.keys(record[name]).sort(), name).toEqual(card);
        expect(record.recipient).toMatchObject({
          id: patient.id,
          firstName: 'Pim',
          lastName: 'Srisuk',
          phoneNumber: '+66 81 234 5678',
        });
        expect(record.nurse).toBeNull();
      }
    }
    // The whole record stays where it was: the person's own, and the admin area's.
    const own = await participant.get('/api/users/me');
    expect(own.json().additionalInfo).toMatchObject({ identityDocumentNumber: '5319097252754' });
    const full = await admin.get(`/api/users/${patient.id}`);
    expect(full.json().additionalInfo).toMatchObject({ dateOfBirth: '1950-05-09' });
  });

  it('refuses a participant what the people and providers lead to, and lets admins embed it', async () => {
    const patient = await createPatient(context, { firstName: 'Porn' });
    const { id } = await createPrescription({ recipient: patient.id });
    const participant = api(context, patient.token);
    const before = await auditRowsOf(context, 'prescriptions', id);
    for (const nested of [
      'recipient.patientProfile',
      'recipient.assignedIotDevices',
      'supplier.employees',
      'shipper.employees',
      'issuer.createdByUser',
    ]) {
      for (const url of [
        `/api/prescriptions?relations=supplier,${nested}`,
        `/api/prescriptions?relations=${nested}&count=false`,
        `/api/prescriptions/${id}?relations=${nested}`,
      ]) {
        const refused = await participant.get(url);
        expect(refused.statusCode, url).toBe(400);
        expect(refused.json()).toMatchObject({
          statusCode: 400,
          message: `Relations not available here: ${nested}`,
          issues: [{ path: 'relations', message: 'Only relations of the record itself' }],
        });
      }
      expect((await admin.get(`/api/prescriptions/${id}?relations=${nested}`)).statusCode, nested).toBe(200);
    }
    const direct = await participant.get(`/api/prescriptions/${id}?relations=supplier,shipper,issuerReceipt`);
    expect(direct.statusCode, direct.body).toBe(200);
    expect(direct.json().supplier).toMatchObject({ id: parties.pharmacy, title: 'Riverside Pharmacy' });
    expect(await auditRowsOf(context, 'prescriptions', id)).toEqual(before);
  });
});
