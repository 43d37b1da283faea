// Client device lists: every filter kind, text search, sorts, pages and embedded relations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandCenter, createDevice, createIotDevice, createUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { ids } from '@/test/records.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const MISSING = '0190f6a2-6d3b-7c8e-9f00-00000000dead';

describe('client devices: list filters, sorts, relations and paging', () => {
  let scope: string;
  let names: { a: string; b: string; c: string };
  let center: string;
  let patient: { id: string };
  let iot: string;
  let other: { id: string; token: string };
  let workstationId: string;

  beforeAll(async () => {
    scope = `L${Date.now().toString(36)}`;
    center = (await createCommandCenter(context, { title: 'South' })).id;
    patient = await createUser(context, { firstName: 'petra' });
    other = await createUser(context, { firstName: 'oscar', roles: ['admin'] });
    iot = (await createIotDevice(context)).id;
    const a = await createDevice(context, {
      title: `${scope} alpha`,
      role: 'workstation',
      localRoles: ['workstation', 'monitoring_workstation'],
      assignedUser: patient.id,
      commandCenter: center,
      location: { title: 'Room 12' },
    });
    const b = await createDevice(context, {
      title: `${scope} bravo`,
      role: 'patient_terminal',
      isEnabled: false,
      iotDevices: [iot],
    });
    const created = await api(context, other.token).post('/api/devices', {
      title: `${scope} charlie`,
      role: 'patient_terminal',
      localRoles: ['patient_terminal'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const c = created.json<{ id: string }>();
    names = { a: a.id, b: b.id, c: c.id };
    const workstation = await api(context).post('/api/devices/workstations', {
      device: a.id,
      assignedPatients: [],
      assignedWorkstations: [],
    });
    workstationId = workstation.json().id;
  });

  const list = async (query: string) => {
    const response = await api(context).get(`/api/devices?filtersLike=title~${scope}&${query}`);
    expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
    return response.json();
  };

  it('filters by uuid ids, one or several', async () => {
    expect(ids(await list(`filters=id~${names.a}`))).toEqual([names.a]);
    expect(ids(await list(`filters=id~${names.a},${names.c}&sort=title:asc`))).toEqual([names.a, names.c]);
    expect(ids(await list(`filters=id~${names.a.toUpperCase()}`))).toEqual([names.a]);
  });

  it('filters by booleans, role, localRoles, references and links', async () => {
    expect(ids(await list('filters=isEnabled~false'))).toEqual([names.b]);
    expect((await list('filters=isEnabled~true')).total).toBe(2);
    expect(ids(await list('filters=role~workstation'))).toEqual([names.a]);
    expect(ids(await list('filters=role~workstation,patient_terminal&sort=title:asc'))).toEqual([
      names.a,
      names.b,
      names.c,
    ]);
    expect(ids(await list('filters=localRoles~monitoring_workstation'))).toEqual([names.a]);
    expect(ids(await list('filters=localRoles~none'))).toEqual([names.b]);
    expect(ids(await list(`filters=assignedUser.id~${patient.id}`))).toEqual([names.a]);
    expect((await list('filters=assignedUser.id~null')).total).toBe(2);
    expect(ids(await list(`filters=commandCenter.id~${center}`))).toEqual([names.a]);
    expect(ids(await list(`filters=createdByUser.id~${other.id}`))).toEqual([names.c]);
    expect((await list(`filters=createdByUser.id~${other.id},${context.adminUserId}`)).total).toBe(3);
    expect(ids(await list(`filters=workstation.id~${workstationId}`))).toEqual([names.a]);
    expect((await list('filters=workstation.id~null')).total).toBe(2);
    expect(ids(await list(`filters=iotDevices.id~${iot}`))).toEqual([names.b]);
    expect(ids(await list(`filters=title~${scope} bravo`))).toEqual([names.b]);
    // Several filters: all must hold.
    expect(ids(await list('filters=role~patient_terminal&filters=isEnabled~true'))).toEqual([names.c]);
  });

  it('searches partial text, ids included, case-insensitively', async () => {
    expect(ids(await list(`filtersLike=id~${names.b.slice(-12).toUpperCase()}`))).toEqual([names.b]);
    expect(ids(await list('filtersLike=title~BRAV'))).toEqual([names.b]);
    expect(ids(await list('filtersLike=location.title~room 1'))).toEqual([names.a]);
    expect(ids(await list(`filtersLike=assignedUser.id~${patient.id.slice(-12)}`))).toEqual([names.a]);
    expect((await list('filtersLike=title~%')).total).toBe(0);
  });

  it('sorts, pages and counts', async () => {
    expect(ids(await list('sort=title:desc'))).toEqual([names.c, names.b, names.a]);
    expect(ids(await list('sort=role:asc&sort=title:desc'))).toEqual([names.c, names.b, names.a]);
    expect(ids(await list('sort=isEnabled:asc&sort=title:asc'))).toEqual([names.b, names.a, names.c]);
    const page = await list('sort=title:asc&limit=2&offset=1');
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(ids(page)).toEqual([names.b, names.c]);
    // Default: newest first, 20 a page.
    const all = await list('');
    expect(all).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(ids(all)).toEqual([names.c, names.b, names.a]);
  });

  it('embeds the relations of the graph, nested ones too', async () => {
    const [item] = (
      await list(
        `filters=id~${names.a}&relations=workstation,assignedUser,commandCenter,iotDevices,stats,createdByUser`,
      )
    ).items;
    expect(item).toMatchObject({
      workstation: { id: workstationId },
      assignedUser: { id: patient.id },
      commandCenter: { id: center },
      iotDevices: [],
      stats: [],
      createdByUser: { id: context.adminUserId },
    });
    const nested = await list(
      `filters=id~${names.a}&relations=workstation.device,assignedUser.assignedDevices`,
    );
    expect(nested.items[0].workstation.device.id).toBe(names.a);
    expect(nested.items[0].assignedUser.assignedDevices.map((d: { id: string }) => d.id)).toEqual([names.a]);
    // Without relations nothing is embedded.
    expect((await list(`filters=id~${names.a}`)).items[0]).not.toHaveProperty('assignedUser');
  });

  it('refuses unknown paths, relations and mistyped values with 400', async () => {
    const queries = [
      'filters=tokenHash~x',
      'filters=token~x',
      'filters=id~not-a-uuid',
      'filters=id~',
      'filters=role~admin',
      'filters=localRoles~nurse',
      'filters=isEnabled~maybe',
      'filters=assignedUser.id~42',
      'filters=createdByUser.id~' + `${patient.id},oops`,
      'filters=noseparator',
      'filtersLike=tokenHash~a',
      'filtersLike=role~x',
      'sort=tokenHash:asc',
      'sort=title:sideways',
      'sort=location:asc',
      'relations=owner',
      'relations=workstation.owner',
      'relations=stats.device.workstation.device',
      'from=1',
      'limit=0',
      'limit=201',
      'limit=1e2',
      'limit=0x10',
      'offset=-1',
      'offset=1e3',
    ];
    for (const query of queries) {
      const response = await api(context).get(`/api/devices?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    const written = await api(context).get('/api/devices?limit=1e2');
    expect(written.json().issues).toEqual([{ path: 'querystring.limit', message: 'Must be a whole number' }]);
    // A misspelt parameter is refused rather than answering an unfiltered list, on reads as on lists.
    const misspelt = await api(context).get('/api/devices?filter=title~Ward&sort_by=title');
    expect(misspelt.statusCode).toBe(400);
    expect(misspelt.json().issues).toEqual([
      { path: 'querystring', message: 'These fields are not accepted: filter, sort_by.' },
    ]);
    const read = await api(context).get(`/api/devices/${names.a}?relation=device`);
    expect(read.statusCode).toBe(400);
    expect(read.json().issues).toEqual([
      { path: 'querystring', message: 'This field is not accepted: relation.' },
    ]);
    // A parameter given twice where one goes says so, in the reader's language (it said "Limit must be text.").
    for (const [language, limit, offset] of [
      ['en', 'Limit must be one value, not a list.', 'Offset must be one value, not a list.'],
      ['th', 'จำนวนสูงสุด ต้องเป็นค่าเดียว ไม่ใช่รายการ', 'ลำดับเริ่มต้น ต้องเป็นค่าเดียว ไม่ใช่รายการ'],
    ]) {
      const twice = await context.app.inject({
        method: 'GET',
        url: '/api/devices?limit=1&limit=2&offset=0&offset=5',
        headers: { authorization: `Bearer ${context.adminToken}`, 'accept-language': language! },
      });
      expect(twice.statusCode).toBe(400);
      expect(twice.json().issues).toEqual([
        { path: 'querystring.limit', message: limit },
        { path: 'querystring.offset', message: offset },
      ]);
    }
    expect((await api(context).get('/api/devices/not-a-uuid')).statusCode).toBe(400);
    expect((await api(context).get(`/api/devices/${MISSING}`)).statusCode).toBe(404);
    expect((await api(context).get(`/api/devices/${names.a}?relations=nope`)).statusCode).toBe(400);
  });
});
