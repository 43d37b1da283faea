// IoT devices: create, read, update, delete, lists, the connection secret and access.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, iotDeviceData, iotDevices } from '@/db/schema/index.js';
import { createDevice, createIotDevice, createUser, uniqueName } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { SECRET, expectNoSecret } from './iot.test-helpers.js';
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

const T0 = 1_720_000_000_000;

const createClientDevice = async (title = 'Workstation') => (await createDevice(context, { title })).id;
const readingsOf = (iotDeviceId: string) =>
  context.database.db.select().from(iotDeviceData).where(eq(iotDeviceData.iotDeviceId, iotDeviceId));

describe('IoT devices resource', () => {
  it('creates, reads, updates and deletes an IoT device; the secret is stored as a hash only', async () => {
    const clientDevice = await createClientDevice();
    const patient = await createUser(context);
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
    const valid = { hardwareIdentifier: uniqueName('HW'), model: 'Pulse 2', connectionType: 'wifi' };
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
    const first = await createIotDevice(context);
    const second = await createIotDevice(context);
    const duplicate = await admin.post('/api/iot-devices', {
      hardwareIdentifier: first.hardwareIdentifier,
      model: 'Other',
      connectionType: 'usb',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'Another IoT device already has this hardware identifier',
      issues: [
        {
          path: 'body.hardwareIdentifier',
          message: 'Another IoT device already has this hardware identifier',
        },
      ],
    });
    const renamed = await admin.patch(`/api/iot-devices/${second.id}`, {
      hardwareIdentifier: first.hardwareIdentifier,
    });
    expect(renamed.statusCode).toBe(409);
  });

  it('checks the trust level and secret rule against the stored record on update', async () => {
    const device = await createIotDevice(context, { trustLevel: 'untrusted' });
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

    const untrusted = await createIotDevice(context);
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
      hardwareIdentifier: uniqueName('HW'),
      model: 'Hub',
      connectionType: 'wifi',
      devices: [a, b],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues[0].path).toBe('devices');
    const shared = await createIotDevice(context, {
      devices: [a, b],
      allowMultipleDeviceRelationships: true,
    });
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
    const patient = await createUser(context);
    const a = await createIotDevice(context, {
      hardwareIdentifier: `${tag}-A`,
      model: 'Thermo',
      connectionType: 'wifi',
      supportedDataTypes: ['temperature'],
      trustLevel: 'verified',
      assignedUser: patient.id,
    });
    const b = await createIotDevice(context, {
      hardwareIdentifier: `${tag}-B`,
      connectionType: 'ble',
      supportedDataTypes: ['heart_rate', 'battery'],
      devices: [clientDevice],
    });
    const c = await createIotDevice(context, {
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
    const patient = await createUser(context);
    const device = await createIotDevice(context, {
      trustLevel: 'trusted',
      connectionSecret: SECRET,
      assignedUser: patient.id,
      supportedDataTypes: ['heart_rate'],
    });
    const submitted = await context.app.inject({
      method: 'POST',
      url: '/api/iot-devices/data/submit',
      headers: { authorization: `Bearer ${context.adminToken}`, 'x-connection-secret': SECRET },
      payload: { iotDeviceId: device.id, dataType: 'heart_rate', data: [{ timestamp: T0, rate: 150 }] },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    // Without the secret, or with another: each refusal says which, for whoever sets the device up.
    for (const [secret, message] of [
      [undefined, "A trusted IoT device's readings need its connection secret"],
      [
        'not-the-secret',
        "The connection secret is not this trusted IoT device's: send the one set on the device",
      ],
    ] as const) {
      const refused = await context.app.inject({
        method: 'POST',
        url: '/api/iot-devices/data/submit',
        headers: {
          authorization: `Bearer ${context.adminToken}`,
          ...(secret ? { 'x-connection-secret': secret } : {}),
        },
        payload: { iotDeviceId: device.id, dataType: 'heart_rate', data: [{ timestamp: T0 + 1, rate: 70 }] },
      });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe(message);
    }
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
    const device = await createIotDevice(context);
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
    const device = await createIotDevice(context, { trustLevel: 'trusted', connectionSecret: SECRET });
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
    const device = await createIotDevice(context);
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
        () =>
          user.post('/api/iot-devices', {
            hardwareIdentifier: uniqueName('HW'),
            model: 'm',
            connectionType: 'usb',
          }),
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
