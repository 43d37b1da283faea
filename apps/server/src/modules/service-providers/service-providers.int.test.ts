import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceProviderCreate } from '@careplane/shared/service-providers/service-providers.contract';
import { prescriptions, serviceProviders, userEmployers } from '@/db/schema/index.js';
import { createPrescription, createServiceProvider, createUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { auditRows as auditRowsOf } from '@/test/records.js';

let context: TestContext;
let admin: ReturnType<typeof api>;
const db = () => context.database.db;

const makeUser = async (firstName: string) =>
  (await createUser(context, { firstName, localRoles: ['pharmacist'] })).id;

const address = { street: 'Tha Phae Rd', houseNumber: '12', city: 'Chiang Mai', country: 'TH' };
const provider = (overrides: Record<string, unknown> = {}) => ({
  title: 'Riverside Pharmacy',
  type: 'pharmacy' as const,
  address,
  ...overrides,
});

const createProvider = (overrides: Partial<ServiceProviderCreate> = {}) =>
  createServiceProvider(context, { ...provider(), ...overrides });

const count = async () => (await db().select({ id: serviceProviders.id }).from(serviceProviders)).length;
const auditRows = (recordId: string) => auditRowsOf(context, 'service-providers', recordId);

beforeAll(async () => {
  context = await createTestContext();
  admin = api(context);
});
afterAll(async () => {
  await context?.close();
});

describe('service providers: create, read, update, delete', () => {
  it('creates an enabled provider with employees, reads, patches and deletes it, auditing each write', async () => {
    const [anna, ben] = [await makeUser('Anna'), await makeUser('Ben')];
    const created = await admin.post('/api/service-providers', provider({ employees: [anna, ben, anna] }));
    expect(created.statusCode, created.body).toBe(201);
    const record = created.json();
    expect(record).toMatchObject({
      title: 'Riverside Pharmacy',
      type: 'pharmacy',
      address,
      isEnabled: true,
      createdByUserId: context.adminUserId,
    });
    expect(record).not.toHaveProperty('employees');

    const read = await admin.get(
      `/api/service-providers/${record.id}?relations=employees.employers,createdByUser`,
    );
    expect(read.statusCode, read.body).toBe(200);
    const body = read.json();
    expect(body.employees.map((user: { id: string }) => user.id).sort()).toEqual([anna, ben].sort());
    expect(body.employees[0].employers).toEqual([expect.objectContaining({ id: record.id })]);
    expect(body.createdByUser).toMatchObject({ id: context.adminUserId });

    const patched = await admin.patch(`/api/service-providers/${record.id}`, {
      title: 'Riverside Pharmacy & Clinic',
      isEnabled: false,
      employees: [ben],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ title: 'Riverside Pharmacy & Clinic', isEnabled: false, address });
    const links = await db()
      .select()
      .from(userEmployers)
      .where(eq(userEmployers.serviceProviderId, record.id));
    expect(links.map((link) => link.userId)).toEqual([ben]);

    // Leaving employees out keeps them; an empty list clears them.
    await admin.patch(`/api/service-providers/${record.id}`, { title: 'Riverside' });
    expect(
      (await admin.get(`/api/service-providers/${record.id}?relations=employees`)).json().employees,
    ).toHaveLength(1);
    await admin.patch(`/api/service-providers/${record.id}`, { employees: [] });
    expect(
      (await admin.get(`/api/service-providers/${record.id}?relations=employees`)).json().employees,
    ).toEqual([]);

    expect((await admin.delete(`/api/service-providers/${record.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/service-providers/${record.id}`)).statusCode).toBe(404);

    const rows = await auditRows(record.id);
    expect(rows.map((row) => row.action)).toEqual(['create', 'update', 'update', 'update', 'delete']);
    expect(rows.every((row) => row.actorUserId === context.adminUserId)).toBe(true);
    expect(rows[0]!.changes).toMatchObject({ title: 'Riverside Pharmacy', type: 'pharmacy' });
    expect(rows[1]!.changes).toMatchObject({ isEnabled: false, employees: [ben] });
  });

  it('keeps an explicit isEnabled false on create', async () => {
    expect(await createProvider({ isEnabled: false, type: 'courier' })).toMatchObject({
      isEnabled: false,
      type: 'courier',
    });
  });
});

describe('service providers: validation', () => {
  const refused = async (body: unknown, paths: string[], id?: string) => {
    const before = await count();
    const response = id
      ? await admin.patch(`/api/service-providers/${id}`, body)
      : await admin.post('/api/service-providers', body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(
      response
        .json()
        .issues.map((issue: { path: string }) => issue.path)
        .sort(),
    ).toEqual(paths.sort());
    expect(await count()).toBe(before);
  };

  it('requires title, type and address', async () => {
    await refused({}, ['body.title', 'body.type', 'body.address']);
    await refused(provider({ title: '   ' }), ['body.title']);
    await refused(provider({ title: 'x'.repeat(256) }), ['body.title']);
    await refused(provider({ title: 'Bad\u0000Name' }), ['body.title']);
    await refused(provider({ address: undefined }), ['body.address']);
    await refused(provider({ address: 'Chiang Mai' }), ['body.address']);
    await refused(provider({ address: { ...address, planet: 'Earth' } }), ['body.address']);
    await refused(provider({ address: { geo: { lat: 10, lng: 200 } } }), ['body.address.geo.lng']);
    // An address that says nowhere: couriers could not find the pharmacy.
    await refused(provider({ address: {} }), ['body.address']);
    await refused(provider({ address: { title: 'Main branch', country: 'TH' } }), ['body.address']);
    await refused(provider({ address: { street: '  ', city: '' } }), ['body.address']);
    const nowhere = await context.app.inject({
      method: 'POST',
      url: '/api/service-providers',
      headers: { authorization: `Bearer ${context.adminToken}`, 'accept-language': 'th' },
      payload: provider({ address: {} }),
    });
    expect(nowhere.json().issues).toEqual([
      { path: 'body.address', message: 'ที่อยู่ ต้องมีถนน เขต/อำเภอ หรือตำแหน่งบนแผนที่อย่างน้อยหนึ่งอย่าง' },
    ]);
    const created = await createProvider({ address: { geo: { lat: 18.79, lng: 98.98 } } });
    await refused({ address: { title: 'Moved' } }, ['body.address'], created.id);
  });

  it('takes only the three provider types, a boolean isEnabled and known user ids as employees', async () => {
    await refused(provider({ type: 'hospital' }), ['body.type']);
    await refused(provider({ type: 'PHARMACY' }), ['body.type']);
    await refused(provider({ isEnabled: 'yes' }), ['body.isEnabled']);
    await refused(provider({ employees: ['not-a-uuid'] }), ['body.employees.0']);
    await refused(provider({ employees: context.userId }), ['body.employees']);
    await refused(provider({ employees: ['0190a0b0-0000-7000-8000-00000000dead'] }), ['body.employees']);
    await refused(provider({ createdByUserId: context.userId }), ['body']);
    const { id } = await createProvider();
    await refused({ type: 'hospital' }, ['body.type'], id);
    await refused({ title: '' }, ['body.title'], id);
    await refused({ employees: ['0190a0b0-0000-7000-8000-00000000dead'] }, ['body.employees'], id);
    expect((await auditRows(id)).map((row) => row.action)).toEqual(['create']);
  });

  it('refuses a type change that would break the prescriptions the provider serves', async () => {
    const pharmacy = await createProvider({ title: 'Supplier Pharmacy' });
    const courier = await createProvider({ title: 'Shipper Courier', type: 'courier' });
    await createPrescription(context, { supplier: pharmacy.id, shipper: courier.id });

    const asSupplier = await admin.patch(`/api/service-providers/${pharmacy.id}`, { type: 'courier' });
    expect(asSupplier.statusCode).toBe(409);
    expect(asSupplier.json()).toMatchObject({
      message: 'The service provider is the supplier of prescriptions',
      issues: [{ path: 'body.type' }],
    });
    expect((await admin.patch(`/api/service-providers/${courier.id}`, { type: 'pharmacy' })).statusCode).toBe(
      409,
    );
    // courier → nurse keeps it a valid shipper.
    const toNurse = await admin.patch(`/api/service-providers/${courier.id}`, { type: 'nurse' });
    expect(toNurse.statusCode, toNurse.body).toBe(200);
    // A provider no prescription names may change type freely.
    const unused = await createProvider({ title: 'Unused' });
    expect(
      (await admin.patch(`/api/service-providers/${unused.id}`, { type: 'courier' })).json(),
    ).toMatchObject({
      type: 'courier',
    });
  });
});

describe('service providers: lists', () => {
  let ids: { pharmacy: string; courier: string; nursing: string };
  let employee: string;
  const list = (query: string) => admin.get(`/api/service-providers?filtersLike=title~[list]&${query}`);
  const listIds = async (query: string) => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().items as { id: string }[]).map((row) => row.id);
  };

  beforeAll(async () => {
    employee = await makeUser('Clara');
    ids = {
      pharmacy: (await createProvider({ title: '[list] Lotus Pharmacy', employees: [employee] })).id,
      courier: (
        await createProvider({
          title: '[list] Bee Couriers',
          type: 'courier',
          address: { city: 'Bangkok' },
          isEnabled: false,
        })
      ).id,
      nursing: (
        await createProvider({ title: '[list] Care Nurses', type: 'nurse', address: { city: 'Phuket' } })
      ).id,
    };
  });

  it('pages with totals, newest first by default', async () => {
    const page = await list('limit=2');
    expect(page.json()).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.json().items.map((row: { id: string }) => row.id)).toEqual([ids.nursing, ids.courier]);
    expect((await list('limit=2&offset=2')).json().items.map((row: { id: string }) => row.id)).toEqual([
      ids.pharmacy,
    ]);
  });

  it('filters by type, isEnabled, employees and ids', async () => {
    expect(await listIds('filters=type~courier')).toEqual([ids.courier]);
    expect((await listIds('filters=type~pharmacy,nurse')).sort()).toEqual([ids.pharmacy, ids.nursing].sort());
    expect(await listIds('filters=isEnabled~false')).toEqual([ids.courier]);
    expect((await listIds('filters=isEnabled~true')).sort()).toEqual([ids.pharmacy, ids.nursing].sort());
    expect(await listIds(`filters=employees.id~${employee}`)).toEqual([ids.pharmacy]);
    expect((await listIds('filters=employees.id~null')).sort()).toEqual([ids.courier, ids.nursing].sort());
    expect(await listIds(`filters=id~${ids.nursing}`)).toEqual([ids.nursing]);
    expect((await listIds(`filters=createdByUser.id~${context.adminUserId}`)).length).toBe(3);
    expect(await listIds('filters=type~nurse&filters=isEnabled~false')).toEqual([]);
  });

  it('searches titles, address cities and ids case-insensitively', async () => {
    expect(await listIds('filtersLike=title~LOTUS')).toEqual([ids.pharmacy]);
    expect(await listIds('filtersLike=address.city~bang')).toEqual([ids.courier]);
    expect(await listIds('filtersLike=address.city~chiang')).toEqual([ids.pharmacy]);
    expect(await listIds(`filtersLike=id~${ids.courier.slice(-10)}`)).toEqual([ids.courier]);
    expect(await listIds('filtersLike=title~_')).toEqual([]);
  });

  it('sorts by title and type', async () => {
    expect(await listIds('sort=title:asc')).toEqual([ids.courier, ids.nursing, ids.pharmacy]);
    expect(await listIds('sort=title:desc')).toEqual([ids.pharmacy, ids.nursing, ids.courier]);
    expect(await listIds('sort=type:asc')).toEqual([ids.courier, ids.nursing, ids.pharmacy]);
    expect(await listIds('sort=isEnabled:asc&sort=title:desc')).toEqual([
      ids.courier,
      ids.pharmacy,
      ids.nursing,
    ]);
  });

  it('refuses unknown paths and mistyped values with 400', async () => {
    for (const query of [
      'filters=title~x',
      'filters=type~hospital',
      'filters=isEnabled~1',
      'filters=employees.id~clara',
      'filters=id~123',
      'filtersLike=type~x',
      'sort=address:asc',
      'relations=prescriptions',
      'relations=employees.password',
      'to=5',
    ]) {
      const response = await admin.get(`/api/service-providers?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });
});

describe('service providers: delete', () => {
  it('removes the employee links but keeps the users, and clears prescriptions that name it', async () => {
    const employee = await makeUser('Dara');
    const { id } = await createProvider({ employees: [employee] });
    const prescription = await createPrescription(context, { supplier: id });

    expect((await admin.delete(`/api/service-providers/${id}`)).statusCode).toBe(204);
    expect(await db().select().from(userEmployers).where(eq(userEmployers.serviceProviderId, id))).toEqual(
      [],
    );
    const user = await admin.get(`/api/users/${employee}?relations=employers`);
    expect(user.statusCode).toBe(200);
    expect(user.json().employers).toEqual([]);
    const [row] = await db().select().from(prescriptions).where(eq(prescriptions.id, prescription.id));
    expect(row!.supplierId).toBeNull();
    expect((await auditRows(id)).at(-1)!.action).toBe('delete');
  });
});

describe('service providers: access', () => {
  it('answers 401 without a token and 403 to a non-admin on every route', async () => {
    const { id } = await createProvider();
    const user = api(context, context.userToken);
    for (const response of await Promise.all([
      user.get('/api/service-providers'),
      user.get(`/api/service-providers/${id}`),
      user.post('/api/service-providers', provider()),
      user.patch(`/api/service-providers/${id}`, { title: 'Taken over' }),
      user.delete(`/api/service-providers/${id}`),
    ])) {
      expect(response.statusCode).toBe(403);
    }
    expect((await context.app.inject({ url: `/api/service-providers/${id}` })).statusCode).toBe(401);
    expect((await admin.get(`/api/service-providers/${id}`)).json().title).toBe('Riverside Pharmacy');
    expect((await auditRows(id)).map((row) => row.action)).toEqual(['create']);
  });
});
