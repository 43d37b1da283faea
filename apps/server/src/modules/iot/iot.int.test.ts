import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, auditLog, devices, iotDeviceData, iotDevices, users } from '../../db/schema/index.js';
import { api, createTestContext, type TestContext } from '../../test/harness.js';
import { verifyConnectionSecret } from './iot.secrets.js';

let context: TestContext;
let admin: ReturnType<typeof api>;
beforeAll(async () => {
  context = await createTestContext();
  admin = api(context);
});
afterAll(async () => {
  await context?.close();
});

const SECRET = 'very-secret-connection-key';
const T0 = 1_720_000_000_000;
let sequence = 0;
const hw = (prefix = 'HW') => `${prefix}-${++sequence}-${randomUUID().slice(0, 8)}`;

async function createClientDevice(title = 'Workstation') {
  const [row] = await context.database.db.insert(devices).values({ title }).returning({ id: devices.id });
  return row!.id;
}

async function createUser(options: { admin?: boolean } = {}) {
  const subject = randomUUID();
  const name = `u${randomUUID().slice(0, 8)}`;
  const [row] = await context.database.db
    .insert(users)
    .values({
      username: `${name}@careplane.test`,
      usernameWithoutDomain: name,
      primaryDomain: 'careplane.test',
      masterId: subject,
      roles: options.admin ? ['admin'] : ['public'],
      localRoles: ['patient'],
    })
    .returning({ id: users.id });
  const token = await context.signer.sign({ roles: options.admin ? ['admin'] : ['public'] }, { subject });
  return { id: row!.id, token };
}

async function createIotDevice(body: Record<string, unknown> = {}) {
  const response = await admin.post('/api/iot-devices', {
    hardwareIdentifier: hw(),
    model: 'Pulse 2',
    connectionType: 'ble',
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string; hardwareIdentifier: string } & Record<string, unknown>>();
}

const readingsOf = (iotDeviceId: string) =>
  context.database.db.select().from(iotDeviceData).where(eq(iotDeviceData.iotDeviceId, iotDeviceId));
const alertsOf = (iotDeviceId: string) =>
  context.database.db.select().from(alerts).where(eq(alerts.iotDeviceId, iotDeviceId));
const countReadings = async () =>
  (await context.database.db.select({ n: sql<number>`count(*)::int` }).from(iotDeviceData))[0]!.n;

const expectNoSecret = (body: string) => {
  expect(body).not.toContain('connectionSecret');
  expect(body).not.toContain(SECRET);
  expect(body).not.toContain('scrypt$');
};

describe('IoT devices resource', () => {
  it('creates, reads, updates and deletes an IoT device; the secret is stored as a hash only', async () => {
    const clientDevice = await createClientDevice();
    const patient = await createUser();
    const created = await admin.post('/api/iot-devices', {
      hardwareIdentifier: '  PULSE-0001  ',
      deviceIdentifier: 'serial-77',
      model: 'Pulse 2',
      connectionType: 'ble',
      connectionMeta: { mac: 'aa:bb:cc:dd:ee:ff' },
      trustLevel: 'trusted',
      connectionSecret: SECRET,
      supportedDataTypes: ['heart_rate', 'battery'],
      devices: [clientDevice],
      assignedUser: patient.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    expectNoSecret(created.body);
    const device = created.json();
    expect(device).toMatchObject({
      hardwareIdentifier: 'PULSE-0001',
      deviceIdentifier: 'serial-77',
      model: 'Pulse 2',
      connectionType: 'ble',
      connectionMeta: { mac: 'aa:bb:cc:dd:ee:ff' },
      trustLevel: 'trusted',
      supportedDataTypes: ['heart_rate', 'battery'],
      allowMultipleDeviceRelationships: false,
      assignedUserId: patient.id,
      createdByDeviceId: null,
    });

    const [stored] = await context.database.db.select().from(iotDevices).where(eq(iotDevices.id, device.id));
    expect(stored!.connectionSecret).toMatch(/^scrypt\$/);
    expect(stored!.connectionSecret).not.toContain(SECRET);
    expect(await verifyConnectionSecret(SECRET, stored!.connectionSecret)).toBe(true);
    expect(await verifyConnectionSecret('wrong-secret-value', stored!.connectionSecret)).toBe(false);

    const read = await admin.get(
      `/api/iot-devices/${device.id}?relations=devices,assignedUser,createdByDevice`,
    );
    expect(read.statusCode).toBe(200);
    expectNoSecret(read.body);
    expect(read.json().devices.map((d: { id: string }) => d.id)).toEqual([clientDevice]);
    expect(read.json().assignedUser.id).toBe(patient.id);
    expect(read.json().createdByDevice).toBeNull();

    const changed = await admin.patch(`/api/iot-devices/${device.id}`, { model: 'Pulse 3', devices: [] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ model: 'Pulse 3', trustLevel: 'trusted', connectionType: 'ble' });
    expectNoSecret(changed.body);
    const relinked = await admin.get(`/api/iot-devices/${device.id}?relations=devices`);
    expect(relinked.json().devices).toEqual([]);

    expect((await admin.delete(`/api/iot-devices/${device.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/iot-devices/${device.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/iot-devices/${device.id}`)).statusCode).toBe(404);
  });

  it('validates the IoT device submit', async () => {
    const valid = { hardwareIdentifier: hw(), model: 'Pulse 2', connectionType: 'wifi' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, hardwareIdentifier: undefined }, 'body.hardwareIdentifier'],
      [{ ...valid, hardwareIdentifier: ' ' }, 'body.hardwareIdentifier'],
      [{ ...valid, model: '' }, 'body.model'],
      [{ ...valid, connectionType: undefined }, 'body.connectionType'],
      [{ ...valid, connectionType: 'fax' }, 'body.connectionType'],
      [{ ...valid, trustLevel: 'trusted' }, 'body.connectionSecret'],
      [{ ...valid, connectionSecret: SECRET }, 'body.trustLevel'],
      [{ ...valid, trustLevel: 'godlike' }, 'body.trustLevel'],
      [{ ...valid, connectionMeta: 'mac' }, 'body.connectionMeta'],
      [{ ...valid, supportedDataTypes: ['glucose'] }, 'body.supportedDataTypes.0'],
      [{ ...valid, devices: ['not-a-uuid'] }, 'body.devices.0'],
      [{ ...valid, assignedUser: 'nobody' }, 'body.assignedUser'],
      [{ ...valid, model: 'x'.repeat(300) }, 'body.model'],
      [{ ...valid, model: 'a\u0000b' }, 'body.model'],
      [{ ...valid, createdByDevice: randomUUID() }, 'body'],
    ];
    for (const [body, path] of cases) {
      const response = await admin.post('/api/iot-devices', body);
      expect(response.statusCode, `${path}: ${response.body}`).toBe(400);
      expect(response.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    // References to records that do not exist.
    expect((await admin.post('/api/iot-devices', { ...valid, assignedUser: randomUUID() })).statusCode).toBe(
      400,
    );
    expect((await admin.post('/api/iot-devices', { ...valid, devices: [randomUUID()] })).statusCode).toBe(
      400,
    );
    expect(
      (
        await context.database.db
          .select()
          .from(iotDevices)
          .where(eq(iotDevices.hardwareIdentifier, valid.hardwareIdentifier))
      ).length,
    ).toBe(0);
    // Wrong content type and a body that is not JSON.
    const text = await context.app.inject({
      method: 'POST',
      url: '/api/iot-devices',
      headers: { authorization: `Bearer ${context.adminToken}`, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBeGreaterThanOrEqual(400);
    expect(text.statusCode).toBeLessThan(500);
  });

  it('answers 409 for a hardwareIdentifier that is taken, on create and on update', async () => {
    const first = await createIotDevice();
    const second = await createIotDevice();
    const duplicate = await admin.post('/api/iot-devices', {
      hardwareIdentifier: first.hardwareIdentifier,
      model: 'Other',
      connectionType: 'usb',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ statusCode: 409, error: 'Conflict' });
    const renamed = await admin.patch(`/api/iot-devices/${second.id}`, {
      hardwareIdentifier: first.hardwareIdentifier,
    });
    expect(renamed.statusCode).toBe(409);
  });

  it('checks the trust level and secret rule against the stored record on update', async () => {
    const device = await createIotDevice({ trustLevel: 'untrusted' });
    const url = `/api/iot-devices/${device.id}`;
    const trustedWithoutSecret = await admin.patch(url, { trustLevel: 'trusted' });
    expect(trustedWithoutSecret.statusCode).toBe(400);
    expect(trustedWithoutSecret.json().issues[0].path).toBe('connectionSecret');

    expect((await admin.patch(url, { trustLevel: 'trusted', connectionSecret: SECRET })).statusCode).toBe(
      200,
    );
    const removeSecret = await admin.patch(url, { connectionSecret: null });
    expect(removeSecret.statusCode).toBe(400);
    expect(removeSecret.json().issues[0].path).toBe('connectionSecret');
    const dropTrust = await admin.patch(url, { trustLevel: null });
    expect(dropTrust.statusCode).toBe(400);
    expect(dropTrust.json().issues[0].path).toBe('trustLevel');
    expect((await admin.patch(url, { trustLevel: 'verified' })).statusCode).toBe(200);
    expect((await admin.patch(url, { trustLevel: 'trusted' })).statusCode).toBe(200);

    const untrusted = await createIotDevice();
    const secretOnly = await admin.patch(`/api/iot-devices/${untrusted.id}`, { connectionSecret: SECRET });
    expect(secretOnly.statusCode).toBe(400);
    expect(secretOnly.json().issues[0].path).toBe('trustLevel');

    // A rotated secret replaces the stored hash.
    const [before] = await context.database.db.select().from(iotDevices).where(eq(iotDevices.id, device.id));
    expect((await admin.patch(url, { connectionSecret: 'another-secret-value' })).statusCode).toBe(200);
    const [after] = await context.database.db.select().from(iotDevices).where(eq(iotDevices.id, device.id));
    expect(after!.connectionSecret).not.toBe(before!.connectionSecret);
    expect(await verifyConnectionSecret('another-secret-value', after!.connectionSecret)).toBe(true);
  });

  it('links one client device unless several are allowed', async () => {
    const [a, b] = [await createClientDevice('A'), await createClientDevice('B')];
    const refused = await admin.post('/api/iot-devices', {
      hardwareIdentifier: hw(),
      model: 'Hub',
      connectionType: 'wifi',
      devices: [a, b],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues[0].path).toBe('devices');
    const shared = await createIotDevice({ devices: [a, b], allowMultipleDeviceRelationships: true });
    const narrowing = await admin.patch(`/api/iot-devices/${shared.id}`, {
      allowMultipleDeviceRelationships: false,
    });
    expect(narrowing.statusCode).toBe(400);
    expect(
      (
        await admin.patch(`/api/iot-devices/${shared.id}`, {
          allowMultipleDeviceRelationships: false,
          devices: [a],
        })
      ).statusCode,
    ).toBe(200);
  });

  it('lists with every filter kind, sorts, pages and counts', async () => {
    const tag = `LIST-${randomUUID().slice(0, 6)}`;
    const clientDevice = await createClientDevice();
    const patient = await createUser();
    const a = await createIotDevice({
      hardwareIdentifier: `${tag}-A`,
      model: 'Thermo',
      connectionType: 'wifi',
      supportedDataTypes: ['temperature'],
      trustLevel: 'verified',
      assignedUser: patient.id,
    });
    const b = await createIotDevice({
      hardwareIdentifier: `${tag}-B`,
      connectionType: 'ble',
      supportedDataTypes: ['heart_rate', 'battery'],
      devices: [clientDevice],
    });
    const c = await createIotDevice({
      hardwareIdentifier: `${tag}-C`,
      connectionType: 'cellular',
      supportedDataTypes: ['battery'],
      trustLevel: 'trusted',
      connectionSecret: SECRET,
    });
    const ids = async (query: string) => {
      const response = await admin.get(`/api/iot-devices?filtersLike=hardwareIdentifier~${tag}&${query}`);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
      expectNoSecret(response.body);
      return (response.json().items as { id: string }[]).map((item) => item.id);
    };
    expect(await ids('sort=hardwareIdentifier:asc')).toEqual([a.id, b.id, c.id]);
    expect(await ids('sort=hardwareIdentifier:desc')).toEqual([c.id, b.id, a.id]);
    expect(await ids(`filters=id~${b.id}`)).toEqual([b.id]);
    expect(await ids(`filtersLike=id~${b.id.slice(-12).toUpperCase()}`)).toEqual([b.id]);
    expect(await ids(`filters=hardwareIdentifier~${tag}-C`)).toEqual([c.id]);
    expect(await ids('filters=connectionType~wifi,ble&sort=hardwareIdentifier:asc')).toEqual([a.id, b.id]);
    expect(await ids('filters=supportedDataTypes~battery&sort=hardwareIdentifier:asc')).toEqual([b.id, c.id]);
    expect(await ids('filters=supportedDataTypes~battery&filters=supportedDataTypes~heart_rate')).toEqual([
      b.id,
    ]);
    expect(await ids('filters=trustLevel~trusted')).toEqual([c.id]);
    expect(await ids('filters=trustLevel~null')).toEqual([b.id]);
    expect(await ids(`filters=assignedUser.id~${patient.id}`)).toEqual([a.id]);
    expect(await ids(`filters=devices.id~${clientDevice}`)).toEqual([b.id]);
    expect(await ids('filters=allowMultipleDeviceRelationships~false&filters=model~Thermo')).toEqual([a.id]);

    const page = await admin.get(
      `/api/iot-devices?filtersLike=hardwareIdentifier~${tag}&sort=hardwareIdentifier:asc&limit=2&offset=1&relations=devices,assignedUser`,
    );
    expect(page.json()).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(page.json().items.map((item: { id: string }) => item.id)).toEqual([b.id, c.id]);
    expect(page.json().items[0].devices[0].id).toBe(clientDevice);
    expectNoSecret(page.body);
  });

  it('refuses unknown filters, sorts and relations and mistyped values with 400', async () => {
    for (const query of [
      'filters=connectionSecret~x',
      'filtersLike=connectionSecret~x',
      'filters=id~not-a-uuid',
      'filters=assignedUser.id~42',
      'filters=connectionType~fax',
      'filters=supportedDataTypes~glucose',
      'filters=trustLevel~godlike',
      'filters=allowMultipleDeviceRelationships~maybe',
      'sort=connectionSecret:asc',
      'sort=model:sideways',
      'relations=owner',
      'relations=assignedUser.password',
      'from=1',
      'limit=0',
      'limit=201',
    ]) {
      const response = await admin.get(`/api/iot-devices?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect((await admin.get('/api/iot-devices/not-a-uuid')).statusCode).toBe(400);
    expect((await admin.get(`/api/iot-devices/${randomUUID()}`)).statusCode).toBe(404);
  });

  it('never answers the connection secret, also through relations of other resources', async () => {
    const patient = await createUser();
    const device = await createIotDevice({
      trustLevel: 'trusted',
      connectionSecret: SECRET,
      assignedUser: patient.id,
      supportedDataTypes: ['heart_rate'],
    });
    const submitted = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data: [{ timestamp: T0, rate: 150 }],
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const readingId = submitted.json().ids[0];
    const alertId = submitted.json().alertIds[0];
    for (const url of [
      '/api/iot-devices',
      `/api/iot-devices/${device.id}?relations=devices,assignedUser`,
      `/api/users/${patient.id}?relations=assignedIotDevices`,
      `/api/users?filters=id~${patient.id}&relations=assignedIotDevices`,
      `/api/iot-devices/data/${readingId}?relations=iotDevice.assignedUser.assignedIotDevices`,
      `/api/iot-devices/data?relations=iotDevice`,
      `/api/iot-devices/${device.id}/last-data-submission`,
      `/api/alerts/${alertId}?relations=iotDevice,user.assignedIotDevices`,
      `/api/alerts?relations=iotDevice`,
      `/api/iot-devices/exists?hardwareIdentifier=${device.hardwareIdentifier}`,
    ]) {
      const response = await admin.get(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      expectNoSecret(response.body);
    }
    const viaUser = await admin.get(`/api/users/${patient.id}?relations=assignedIotDevices`);
    expect(viaUser.json().assignedIotDevices[0]).toMatchObject({ id: device.id, trustLevel: 'trusted' });
    const viaAlert = await admin.get(`/api/alerts/${alertId}?relations=iotDevice`);
    expect(viaAlert.json().iotDevice.id).toBe(device.id);
  });

  it('tells whether a hardware identifier exists', async () => {
    const device = await createIotDevice();
    const found = await admin.get(`/api/iot-devices/exists?hardwareIdentifier=${device.hardwareIdentifier}`);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({ exists: true, id: device.id });
    const missing = await admin.get('/api/iot-devices/exists?hardwareIdentifier=NO-SUCH-DEVICE');
    expect(missing.json()).toEqual({ exists: false });
    expect((await admin.get('/api/iot-devices/exists')).statusCode).toBe(400);
    expect((await admin.get('/api/iot-devices/exists?hardwareIdentifier=')).statusCode).toBe(400);
    expect((await admin.get('/api/iot-devices/exists?hardwareIdentifier=a&extra=1')).statusCode).toBe(400);
  });

  it('writes audit rows without the secret', async () => {
    const device = await createIotDevice({ trustLevel: 'trusted', connectionSecret: SECRET });
    await admin.patch(`/api/iot-devices/${device.id}`, { connectionSecret: 'rotated-secret-value' });
    await admin.delete(`/api/iot-devices/${device.id}`);
    const rows = await context.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'iot-devices'), eq(auditLog.recordId, device.id)))
      .orderBy(auditLog.id);
    expect(rows.map((row) => row.action)).toEqual(['create', 'update', 'delete']);
    expect(rows.every((row) => row.actorUserId === context.adminUserId)).toBe(true);
    expect(rows[0]!.changes).toMatchObject({ connectionSecret: '[redacted]', trustLevel: 'trusted' });
    const text = JSON.stringify(rows);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('rotated-secret-value');
    expect(text).not.toContain('scrypt$');
  });

  it('answers 401 without a token and 403 to a non-admin on every IoT call', async () => {
    const device = await createIotDevice();
    const user = api(context, context.userToken);
    const submission = {
      iotDeviceId: device.id,
      dataType: 'battery',
      data: [{ timestamp: T0, level: 50 }],
    };
    const calls: [string, () => Promise<{ statusCode: number }>][] = [
      ['list devices', () => user.get('/api/iot-devices')],
      ['read device', () => user.get(`/api/iot-devices/${device.id}`)],
      [
        'create device',
        () => user.post('/api/iot-devices', { hardwareIdentifier: hw(), model: 'm', connectionType: 'usb' }),
      ],
      ['update device', () => user.patch(`/api/iot-devices/${device.id}`, { model: 'x' })],
      ['delete device', () => user.delete(`/api/iot-devices/${device.id}`)],
      ['exists', () => user.get(`/api/iot-devices/exists?hardwareIdentifier=${device.hardwareIdentifier}`)],
      ['last data', () => user.get(`/api/iot-devices/${device.id}/last-data-submission`)],
      ['list data', () => user.get('/api/iot-devices/data')],
      ['read data', () => user.get(`/api/iot-devices/data/${randomUUID()}`)],
      ['create data', () => user.post('/api/iot-devices/data', submission)],
      ['submit data', () => user.post('/api/iot-devices/data/submit', submission)],
      ['delete data', () => user.delete(`/api/iot-devices/data/${randomUUID()}`)],
    ];
    for (const [name, call] of calls) expect((await call()).statusCode, name).toBe(403);
    const anonymous = await context.app.inject({
      method: 'POST',
      url: '/api/iot-devices/data/submit',
      payload: submission,
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await readingsOf(device.id)).length).toBe(0);
    expect((await admin.get(`/api/iot-devices/${device.id}`)).json().model).toBe('Pulse 2');
  });
});

describe('IoT data records', () => {
  it('stores a batch through submit and through the generic create, with the caller as creator', async () => {
    const device = await createIotDevice({ supportedDataTypes: ['blood_pressure', 'battery'] });
    const viaSubmit = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'blood_pressure',
      data: [
        { timestamp: T0, sys: 120, dias: 80 },
        { timestamp: T0 + 1000, sys: 125, dias: 82, id: 'bp-2' },
      ],
    });
    expect(viaSubmit.statusCode, viaSubmit.body).toBe(201);
    expect(viaSubmit.json()).toMatchObject({
      iotDeviceId: device.id,
      dataType: 'blood_pressure',
      count: 2,
      duplicates: 0,
      alertIds: [],
    });
    const viaCreate = await admin.post('/api/iot-devices/data', {
      iotDeviceId: device.id,
      dataType: 'battery',
      data: [{ timestamp: T0 + 2000, level: 91 }],
    });
    expect(viaCreate.statusCode, viaCreate.body).toBe(201);
    expect(viaCreate.json().count).toBe(1);

    const [firstId] = viaSubmit.json().ids;
    const read = await admin.get(`/api/iot-devices/data/${firstId}?relations=iotDevice,createdByUser`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      id: firstId,
      timestamp: T0,
      dataType: 'blood_pressure',
      data: { timestamp: T0, sys: 120, dias: 80 },
      iotDeviceId: device.id,
      createdByUserId: context.adminUserId,
      iotDevice: { id: device.id },
      createdByUser: { id: context.adminUserId },
    });
    expect(typeof read.json().createdAt).toBe('string');
    expect((await readingsOf(device.id)).length).toBe(3);
  });

  it('validates every reading type and names the bad reading', async () => {
    const device = await createIotDevice();
    const cases: [string, Record<string, unknown>, string][] = [
      ['battery', { timestamp: T0 }, 'body.data.1.level'],
      ['heart_rate', { timestamp: T0, rate: '80' }, 'body.data.1.rate'],
      ['temperature', { timestamp: T0, value: 37 }, 'body.data.1.unit'],
      ['pressure', { timestamp: T0, unit: 'hPa' }, 'body.data.1.value'],
      ['blood_pressure', { timestamp: T0, sys: 120 }, 'body.data.1.dias'],
      ['blood_pressure', { timestamp: T0, dias: 80 }, 'body.data.1.sys'],
      ['alert', { timestamp: T0 }, 'body.data.1.id'],
      ['alert', { timestamp: T0, id: 5 }, 'body.data.1.id'],
      ['battery', { level: 20 }, 'body.data.1.timestamp'],
      ['battery', { timestamp: 'now', level: 20 }, 'body.data.1.timestamp'],
    ];
    const good: Record<string, Record<string, unknown>> = {
      battery: { timestamp: T0, level: 50 },
      heart_rate: { timestamp: T0, rate: 70 },
      temperature: { timestamp: T0, value: 36.5, unit: 'C' },
      pressure: { timestamp: T0, value: 1000, unit: 'hPa' },
      blood_pressure: { timestamp: T0, sys: 110, dias: 70 },
      alert: { timestamp: T0, id: 'a-1' },
    };
    for (const [dataType, reading, path] of cases) {
      const response = await admin.post('/api/iot-devices/data/submit', {
        iotDeviceId: device.id,
        dataType,
        data: [good[dataType], reading],
      });
      expect(response.statusCode, `${dataType}: ${response.body}`).toBe(400);
      expect(response.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    const shapes: [Record<string, unknown>, string][] = [
      [{ dataType: 'battery', data: [good.battery] }, 'body.iotDeviceId'],
      [{ iotDeviceId: 'device-1', dataType: 'battery', data: [good.battery] }, 'body.iotDeviceId'],
      [{ iotDeviceId: device.id, data: [good.battery] }, 'body.dataType'],
      [{ iotDeviceId: device.id, dataType: 'glucose', data: [good.battery] }, 'body.dataType'],
      [{ iotDeviceId: device.id, dataType: 'battery', data: [] }, 'body.data'],
      [{ iotDeviceId: device.id, dataType: 'battery' }, 'body.data'],
    ];
    for (const [body, path] of shapes) {
      const response = await admin.post('/api/iot-devices/data', body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    expect((await readingsOf(device.id)).length).toBe(0);
  });

  it('stores a batch all or nothing', async () => {
    const device = await createIotDevice();
    const before = await countReadings();
    const data = [70, 71, 72, 'x', 74].map((rate, index) => ({ timestamp: T0 + index, rate }));
    const bad = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([expect.objectContaining({ path: 'body.data.3.rate' })]);

    // NUL inside an alert's free fields: refused for the whole batch.
    const withNul = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'alert',
      data: [
        { timestamp: T0, id: 'fine' },
        { timestamp: T0 + 1, id: 'broken', note: 'a\u0000b' },
      ],
    });
    expect(withNul.statusCode).toBe(400);

    // A failure after the readings are inserted (the database refuses the alert they open) undoes them too.
    await context.database.rawQuery(`
      create function refuse_test_alert() returns trigger language plpgsql as $$
      begin
        if new.data->'reading'->>'id' = 'refused-by-database' then
          raise exception 'alert refused' using errcode = 'check_violation';
        end if;
        return new;
      end $$`);
    await context.database.rawQuery(
      'create trigger refuse_test_alert before insert on alerts for each row execute function refuse_test_alert()',
    );
    try {
      const refused = await admin.post('/api/iot-devices/data/submit', {
        iotDeviceId: device.id,
        dataType: 'alert',
        data: [
          { timestamp: T0, id: 'accepted' },
          { timestamp: T0 + 1, id: 'refused-by-database' },
        ],
      });
      expect(refused.json()).toMatchObject({ statusCode: 400, message: 'Invalid value' });
    } finally {
      await context.database.rawQuery('drop trigger refuse_test_alert on alerts');
      await context.database.rawQuery('drop function refuse_test_alert()');
    }
    expect(await countReadings()).toBe(before);
    expect((await alertsOf(device.id)).length).toBe(0);
  });

  it('answers 404 for an unknown device and 400 for a data type the device does not send', async () => {
    const reading = { timestamp: T0, level: 40 };
    const unknown = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: randomUUID(),
      dataType: 'battery',
      data: [reading],
    });
    expect(unknown.statusCode).toBe(404);
    const thermometer = await createIotDevice({ supportedDataTypes: ['temperature'] });
    const unsupported = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: thermometer.id,
      dataType: 'battery',
      data: [reading],
    });
    expect(unsupported.statusCode).toBe(400);
    expect(unsupported.json().issues[0].path).toBe('dataType');
    expect((await readingsOf(thermometer.id)).length).toBe(0);
    const anyType = await createIotDevice({ supportedDataTypes: [] });
    expect(
      (
        await admin.post('/api/iot-devices/data/submit', {
          iotDeviceId: anyType.id,
          dataType: 'battery',
          data: [reading],
        })
      ).statusCode,
    ).toBe(201);
  });

  it('stores a retried identical submission once', async () => {
    const device = await createIotDevice();
    const body = {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data: [
        { timestamp: T0, rate: 72 },
        { timestamp: T0 + 1000, rate: 150 },
      ],
    };
    const first = await admin.post('/api/iot-devices/data/submit', body);
    expect(first.statusCode).toBe(201);
    expect(first.json().alertIds).toHaveLength(1);
    const retry = await context.app.inject({
      method: 'POST',
      url: '/api/iot-devices/data',
      headers: { authorization: `Bearer ${context.adminToken}`, 'idempotency-key': 'retry-1' },
      // Same readings, keys in another order: still the same readings.
      payload: { ...body, data: [{ rate: 72, timestamp: T0 }, body.data[1]] },
    });
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toMatchObject({ count: 2, duplicates: 2, ids: first.json().ids, alertIds: [] });
    expect((await readingsOf(device.id)).length).toBe(2);
    expect((await alertsOf(device.id)).length).toBe(1);

    // Overlapping batch: only the new reading is stored.
    const overlap = await admin.post('/api/iot-devices/data/submit', {
      ...body,
      data: [...body.data, { timestamp: T0 + 2000, rate: 73 }],
    });
    expect(overlap.json()).toMatchObject({ count: 3, duplicates: 2 });
    expect(overlap.json().ids.slice(0, 2)).toEqual(first.json().ids);
    expect((await readingsOf(device.id)).length).toBe(3);

    // A different reading at the same time is a different record.
    const other = await admin.post('/api/iot-devices/data/submit', {
      ...body,
      data: [{ timestamp: T0, rate: 99 }],
    });
    expect(other.json().duplicates).toBe(0);

    // Concurrent retries of one submission.
    const burst = { ...body, data: [{ timestamp: T0 + 5000, rate: 30 }] };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => admin.post('/api/iot-devices/data/submit', burst)),
    );
    expect(results.map((result) => result.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(results.map((result) => result.json().ids[0])).size).toBe(1);
    expect(results.reduce((sum, result) => sum + result.json().alertIds.length, 0)).toBe(1);
    expect((await readingsOf(device.id)).length).toBe(5);
    expect((await alertsOf(device.id)).length).toBe(2);
  });

  it('opens alerts for alert readings and heart rates outside 40–130', async () => {
    const patient = await createUser();
    const device = await createIotDevice({ assignedUser: patient.id });
    const inRange = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data: [40, 90, 130].map((rate, index) => ({ timestamp: T0 + index, rate })),
    });
    expect(inRange.json().alertIds).toEqual([]);

    const outOfRange = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data: [35, 80, 141].map((rate, index) => ({ timestamp: T0 + 100 + index, rate })),
    });
    expect(outOfRange.json().alertIds).toHaveLength(1);
    const heartAlert = await admin.get(`/api/alerts/${outOfRange.json().alertIds[0]}`);
    expect(heartAlert.json()).toMatchObject({
      isActive: true,
      timestamp: T0 + 100,
      iotDeviceId: device.id,
      userId: patient.id,
      createdByUserId: context.adminUserId,
      closedByUserId: null,
      closingData: null,
      data: {
        reason: 'heart_rate_out_of_bounds',
        bounds: { min: 40, max: 130 },
        count: 2,
        minRate: 35,
        maxRate: 141,
        readingIds: [outOfRange.json().ids[0], outOfRange.json().ids[2]],
      },
    });

    const alertReadings = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'alert',
      data: [
        { timestamp: T0 + 200, id: 'fall-1', kind: 'fall' },
        { timestamp: T0 + 300, id: 'sos-1', kind: 'sos' },
      ],
    });
    expect(alertReadings.json().alertIds).toHaveLength(2);
    const opened = await admin.get(`/api/alerts?filters=iotDevice.id~${device.id}&sort=timestamp:asc`);
    expect(opened.json().total).toBe(3);
    expect(opened.json().items[2].data).toMatchObject({
      reason: 'alert_reading',
      readingId: alertReadings.json().ids[1],
      reading: { id: 'sos-1', kind: 'sos' },
    });

    // A device without an assigned user opens alerts that concern nobody yet.
    const loose = await createIotDevice();
    const unassigned = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: loose.id,
      dataType: 'alert',
      data: [{ timestamp: T0, id: 'x' }],
    });
    expect((await admin.get(`/api/alerts/${unassigned.json().alertIds[0]}`)).json().userId).toBeNull();
  });

  it('lists readings with filters, a time range, sorts, relations and pages', async () => {
    const other = await createUser({ admin: true });
    const device = await createIotDevice();
    const second = await createIotDevice();
    const submit = (token: string, iotDeviceId: string, dataType: string, data: unknown[]) =>
      api(context, token).post('/api/iot-devices/data/submit', { iotDeviceId, dataType, data });
    await submit(context.adminToken, device.id, 'battery', [
      { timestamp: T0 + 10, level: 90 },
      { timestamp: T0 + 20, level: 80 },
    ]);
    await submit(other.token, device.id, 'heart_rate', [{ timestamp: T0 + 30, rate: 60 }]);
    await submit(other.token, second.id, 'battery', [{ timestamp: T0 + 40, level: 70 }]);

    const list = async (query: string) => {
      const response = await admin.get(`/api/iot-devices/data?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ items: { id: string; timestamp: number }[]; total: number }>();
    };
    const times = async (query: string) => (await list(query)).items.map((item) => item.timestamp - T0);
    const both = `filters=iotDevice.id~${device.id},${second.id}`;
    expect(await times(both)).toEqual([40, 30, 20, 10]);
    expect(await times(`${both}&sort=timestamp:asc`)).toEqual([10, 20, 30, 40]);
    expect(await times(`filters=iotDevice.id~${device.id}&sort=timestamp:asc`)).toEqual([10, 20, 30]);
    expect(await times(`${both}&filters=dataType~battery&sort=timestamp:asc`)).toEqual([10, 20, 40]);
    expect(await times(`${both}&filters=dataType~battery,heart_rate&sort=timestamp:asc`)).toEqual([
      10, 20, 30, 40,
    ]);
    expect(await times(`${both}&filters=createdByUser.id~${other.id}&sort=timestamp:asc`)).toEqual([30, 40]);
    expect(
      await times(`${both}&filters=createdByUser.id~${other.id},${context.adminUserId}&sort=timestamp:asc`),
    ).toEqual([10, 20, 30, 40]);
    expect(await times(`${both}&from=${T0 + 20}&to=${T0 + 30}&sort=timestamp:asc`)).toEqual([20, 30]);
    expect(await times(`${both}&from=${T0 + 35}`)).toEqual([40]);
    expect(await times(`${both}&to=${T0 + 10}`)).toEqual([10]);
    expect(await times(`${both}&sort=dataType:desc&sort=timestamp:asc`)).toEqual([30, 10, 20, 40]);

    const all = await list(`${both}&sort=timestamp:asc`);
    const one = await list(`filters=id~${all.items[1]!.id}`);
    expect(one.items.map((item) => item.id)).toEqual([all.items[1]!.id]);
    const like = await list(`filtersLike=id~${all.items[2]!.id.slice(-12)}`);
    expect(like.items.map((item) => item.id)).toContain(all.items[2]!.id);

    const page = await admin.get(
      `/api/iot-devices/data?${both}&sort=timestamp:asc&limit=2&offset=2&relations=iotDevice,createdByUser`,
    );
    expect(page.json()).toMatchObject({ total: 4, limit: 2, offset: 2 });
    expect(page.json().items.map((item: { timestamp: number }) => item.timestamp - T0)).toEqual([30, 40]);
    expect(page.json().items[1]).toMatchObject({
      iotDevice: { id: second.id },
      createdByUser: { id: other.id },
    });
    expectNoSecret(page.body);

    for (const query of [
      'filters=data~x',
      'filters=dataType~glucose',
      'filters=iotDevice.id~abc',
      'filters=createdByUser.id~abc,def',
      'filters=timestamp~1',
      'from=yesterday',
      'sort=data:asc',
      'sort=timestamp:up',
      'relations=device',
      'relations=iotDevice.owner',
    ]) {
      const response = await admin.get(`/api/iot-devices/data?${query}`);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
    }
  });

  it('answers the latest reading of a device, optionally of one type', async () => {
    const device = await createIotDevice();
    const url = `/api/iot-devices/${device.id}/last-data-submission`;
    const none = await admin.get(url);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();

    await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'battery',
      data: [
        { timestamp: T0 + 500, level: 60 },
        { timestamp: T0 + 100, level: 70 },
      ],
    });
    await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data: [{ timestamp: T0 + 300, rate: 66 }],
    });
    const latest = await admin.get(url);
    expect(latest.json()).toMatchObject({
      dataType: 'battery',
      timestamp: T0 + 500,
      data: { level: 60 },
      iotDeviceId: device.id,
    });
    expect((await admin.get(`${url}?dataType=heart_rate`)).json()).toMatchObject({ data: { rate: 66 } });
    expect((await admin.get(`${url}?dataType=temperature`)).json()).toBeNull();
    expect((await admin.get(`${url}?dataType=glucose`)).statusCode).toBe(400);
    expect((await admin.get(`/api/iot-devices/${randomUUID()}/last-data-submission`)).statusCode).toBe(404);
    expect((await admin.get('/api/iot-devices/nope/last-data-submission')).statusCode).toBe(400);
  });

  it('keeps readings unchanged and deletes them one by one', async () => {
    const device = await createIotDevice();
    const submitted = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'battery',
      data: [{ timestamp: T0, level: 10 }],
    });
    const id = submitted.json().ids[0];
    const patch = await admin.patch(`/api/iot-devices/data/${id}`, { data: { level: 99 } });
    expect(patch.statusCode).toBe(405);
    expect(patch.json()).toMatchObject({ statusCode: 405 });
    expect((await admin.get(`/api/iot-devices/data/${id}`)).json().data.level).toBe(10);
    expect((await admin.delete(`/api/iot-devices/data/${id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/iot-devices/data/${id}`)).statusCode).toBe(404);
    const audited = await context.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'iot-device-data'), eq(auditLog.recordId, id)));
    expect(audited.map((row) => row.action)).toEqual(['delete']);
  });

  it('audits submissions and the alerts they open', async () => {
    const device = await createIotDevice();
    const submitted = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'alert',
      data: [{ timestamp: T0, id: 'audit-1' }],
    });
    const rows = await context.database.db.select().from(auditLog)
      .where(sql`${auditLog.resource} in ('iot-device-data', 'alerts') and ${auditLog.changes}->>'iotDeviceId' = ${device.id}
        or ${auditLog.recordId} = ${submitted.json().alertIds[0]}`);
    expect(rows.map((row) => `${row.action} ${row.resource}`).sort()).toEqual([
      'create alerts',
      'create iot-device-data',
    ]);
    const submission = rows.find((row) => row.resource === 'iot-device-data')!;
    expect(submission.actorUserId).toBe(context.adminUserId);
    expect(submission.changes).toMatchObject({
      dataType: 'alert',
      count: 1,
      stored: 1,
      ids: submitted.json().ids,
    });
  });
});

describe('delete rules', () => {
  it('deleting an IoT device keeps its readings and alerts without the device', async () => {
    const device = await createIotDevice();
    const submitted = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'alert',
      data: [{ timestamp: T0, id: 'gone-1' }],
    });
    expect((await admin.delete(`/api/iot-devices/${device.id}`)).statusCode).toBe(204);
    const reading = await admin.get(`/api/iot-devices/data/${submitted.json().ids[0]}?relations=iotDevice`);
    expect(reading.json()).toMatchObject({ iotDeviceId: null, iotDevice: null });
    const alert = await admin.get(`/api/alerts/${submitted.json().alertIds[0]}`);
    expect(alert.json()).toMatchObject({ iotDeviceId: null, isActive: true });
  });

  it('deleting a user deletes the readings and alerts it created and clears assignedUser', async () => {
    const reporter = await createUser({ admin: true });
    const patient = await createUser();
    const device = await createIotDevice({ assignedUser: patient.id });
    const kept = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'battery',
      data: [{ timestamp: T0, level: 50 }],
    });
    const byReporter = await api(context, reporter.token).post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'alert',
      data: [{ timestamp: T0, id: 'r-1' }],
    });
    expect(byReporter.statusCode).toBe(201);
    const manual = await api(context, reporter.token).post('/api/alerts', { data: { note: 'manual' } });
    expect(manual.statusCode).toBe(201);

    expect((await admin.delete(`/api/users/${reporter.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/iot-devices/data/${byReporter.json().ids[0]}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/alerts/${byReporter.json().alertIds[0]}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/alerts/${manual.json().id}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/iot-devices/data/${kept.json().ids[0]}`)).statusCode).toBe(200);

    expect((await admin.delete(`/api/users/${patient.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/iot-devices/${device.id}`)).json().assignedUserId).toBeNull();
  });
});
