// CSV export of a list (the admin area's item 2): the columns of the console's table, every record the list's
// query matches in its order, streamed a page at a time, secrets never written, formulas never run.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thaiColumnTitles } from '@careplane/shared/i18n/column-titles';
import { iotDeviceColumns } from '@careplane/shared/iot/iot.columns';
import { patientColumns, userColumns } from '@careplane/shared/users/users.columns';
import { createResourceRepository } from '@/lib/resources/repository.js';
import { usersResource } from '@/modules/users/users.resource.js';
import { api, createTestContext, type TestContext } from './harness.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

/** Splits a CSV file into rows of cells (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  return rows;
}

const exportOf = (url: string, token = context.adminToken) => api(context, token).get(url);

describe('CSV export', () => {
  it('writes the columns of the table and the rows of the filtered list, in its order', async () => {
    const admin = api(context);
    for (const [first, last, roles] of [
      ['Nora', 'Nightingale', ['nurse']],
      ['Ned', 'Bedside', ['nurse']],
      ['Pat', 'Patient', ['patient']],
    ] as const) {
      const created = await admin.post('/api/users', {
        username: `${first.toLowerCase()}.export@careplane.test`,
        firstName: first,
        lastName: last,
        localRoles: roles,
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    const query = 'filters=localRoles~nurse&filtersLike=username~export&sort=username:asc';
    const exported = await exportOf(`/api/users/export.csv?${query}`);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(exported.headers['content-disposition']).toMatch(
      /^attachment; filename="users \d{4}-\d\d-\d\d \d\d-\d\d\.csv"$/,
    );
    expect(exported.body.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(exported.body.slice(1));
    expect(rows[0]).toEqual(userColumns.map((column) => column.title));
    const listed = (await admin.get(`/api/users?${query}&relations=patientProfile,commandCenters`)).json();
    expect(rows.slice(1).map((row) => row[1])).toEqual(
      listed.items.map((user: { username: string }) => user.username),
    );
    expect(rows.slice(1).map((row) => row[0])).toEqual(['Ned Bedside', 'Nora Nightingale']);
  });

  it('writes another view of the same records by name, and refuses an unknown one', async () => {
    const patients = await exportOf('/api/users/export.csv?filters=localRoles~patient&view=patients');
    expect(patients.statusCode).toBe(200);
    expect(patients.headers['content-disposition']).toMatch(/filename="patients /);
    const rows = parseCsv(patients.body.slice(1));
    expect(rows[0]).toEqual(patientColumns.map((column) => column.title));
    expect(rows.slice(1).map((row) => row[0])).toContain('Pat Patient');
    const unknown = await exportOf('/api/users/export.csv?view=nurses');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ statusCode: 400, issues: [{ path: 'view' }] });
  });

  it("writes headers, enumeration values and Yes/No in the request's language, else English", async () => {
    const created = await api(context).post('/api/users', {
      username: 'somchai.thai-export@careplane.test',
      firstName: 'Somchai',
      lastName: 'Thai',
      localRoles: ['nurse', 'application_admin'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = '/api/users/export.csv?filtersLike=username~thai-export';
    const exportIn = (language?: string) =>
      context.app.inject({
        method: 'GET',
        url,
        headers: {
          authorization: `Bearer ${context.adminToken}`,
          ...(language ? { 'accept-language': language } : {}),
        },
      });
    const column = (key: string) => userColumns.findIndex((entry) => entry.key === key);

    const thai = await exportIn('th-TH,th;q=0.9,en;q=0.8');
    expect(thai.statusCode, thai.body).toBe(200);
    expect(thai.headers['content-language']).toBe('th');
    const [header, row] = parseCsv(thai.body.slice(1));
    expect(header).toEqual(userColumns.map((entry) => thaiColumnTitles.users[entry.key]));
    expect(header).toEqual([
      'ชื่อ',
      'ชื่อผู้ใช้',
      'อีเมล',
      'โทรศัพท์',
      'บทบาทในหน่วยงาน',
      'สถานะผู้ป่วย',
      'ศูนย์สั่งการ',
      'ถูกระงับ',
      'วันที่สร้าง',
    ]);
    expect(row![column('localRoles')]).toBe('พยาบาล, ผู้ดูแลแอปพลิเคชัน');
    expect(row![column('isBlocked')]).toBe('ไม่ใช่');
    // Dates keep the common era in a Thai file: spreadsheets read them as dates.
    expect(row![column('createdAt')]).toMatch(/^\d\d\.\d\d\.20\d\d$/);

    // English, asked for or not, or a language Careplane does not speak: one file, headers as they were.
    const bodies = new Set<string>();
    for (const language of [undefined, 'en-GB', 'fr']) {
      const english = await exportIn(language);
      expect(english.headers['content-language']).toBe('en');
      const [englishHeader, englishRow] = parseCsv(english.body.slice(1));
      expect(englishHeader).toEqual(userColumns.map((entry) => entry.title));
      expect(englishHeader).toEqual([
        'Name',
        'Username',
        'Email',
        'Phone',
        'Local roles',
        'Patient status',
        'Command centers',
        'Blocked',
        'Created',
      ]);
      expect(english.body.startsWith(`\uFEFF${englishHeader!.join(',')}\r\n`)).toBe(true);
      expect(englishRow![column('localRoles')]).toBe('nurse, application admin');
      expect(englishRow![column('isBlocked')]).toBe('No');
      bodies.add(english.body);
    }
    expect(bodies.size).toBe(1);
  });

  it("writes the headers of a view, and of another list, in the request's language too", async () => {
    const exportIn = (url: string, language: string) =>
      context.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${context.adminToken}`, 'accept-language': language },
      });
    const patients = '/api/users/export.csv?filters=localRoles~patient&view=patients';
    const thai = await exportIn(patients, 'th');
    expect(thai.statusCode, thai.body).toBe(200);
    expect(thai.headers['content-language']).toBe('th');
    expect(parseCsv(thai.body.slice(1))[0]).toEqual(
      patientColumns.map((entry) => thaiColumnTitles.patients[entry.key]),
    );
    const english = await exportIn(patients, 'en');
    expect(parseCsv(english.body.slice(1))[0]).toEqual(patientColumns.map((entry) => entry.title));

    const iot = await exportIn('/api/iot-devices/export.csv', 'th-TH');
    expect(iot.statusCode, iot.body).toBe(200);
    expect(parseCsv(iot.body.slice(1))[0]).toEqual(
      iotDeviceColumns.map((entry) => thaiColumnTitles['iot-devices'][entry.key]),
    );
  });

  it("writes dates and the file's name in the reader's time zone, and refuses a zone nobody knows", async () => {
    const created = await api(context).post('/api/users', {
      username: 'late.export@careplane.test',
      firstName: 'Late',
      lastName: 'Export',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string }>().id;
    // Made at 00:15 in Bangkok: the day before in UTC.
    await context.database.db.execute(
      sql`update users set created_at = '2026-11-14T17:15:00Z' where id = ${id}`,
    );
    const url = '/api/users/export.csv?filtersLike=username~late.export';
    const column = userColumns.findIndex((entry) => entry.key === 'createdAt');
    const utc = await exportOf(url);
    expect(parseCsv(utc.body.slice(1))[1]![column]).toBe('14.11.2026');
    const bangkok = await exportOf(`${url}&timeZone=Asia/Bangkok`);
    expect(bangkok.statusCode, bangkok.body).toBe(200);
    expect(parseCsv(bangkok.body.slice(1))[1]![column]).toBe('15.11.2026');
    expect(bangkok.headers['content-disposition']).toMatch(/filename="users \d{4}-\d\d-\d\d \d\d-\d\d\.csv"/);

    for (const zone of ['Mars/Olympus', 'x'.repeat(65)]) {
      const refused = await exportOf(`${url}&timeZone=${zone}`);
      expect(refused.statusCode, zone).toBe(400);
      expect(refused.json()).toMatchObject({ issues: [{ path: 'querystring.timeZone' }] });
    }
  });

  it('checks the query before it writes anything: a bad filter is a 400, not a broken file', async () => {
    for (const query of ['filters=password~x', 'sort=secret:asc', 'filters=isBlocked~maybe', 'view=NOPE']) {
      const refused = await exportOf(`/api/users/export.csv?${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('is for those who may list: 401 without a token, 403 for a non-admin', async () => {
    expect((await context.app.inject({ url: '/api/users/export.csv' })).statusCode).toBe(401);
    expect((await exportOf('/api/users/export.csv', context.userToken)).statusCode).toBe(403);
  });

  it('never writes a secret, and writes a formula as text', async () => {
    const admin = api(context);
    const secret = 'correct-horse-battery-staple';
    const iot = await admin.post('/api/iot-devices', {
      hardwareIdentifier: '=HYPERLINK("http://evil.example")',
      model: 'Pulse oximeter',
      connectionType: 'ble',
      trustLevel: 'trusted',
      connectionSecret: secret,
    });
    expect(iot.statusCode, iot.body).toBe(201);
    const device = await admin.post('/api/devices', { title: 'Export tablet' });
    const token = device.json().token as string;
    const iotCsv = (await exportOf('/api/iot-devices/export.csv')).body;
    expect(iotCsv).not.toContain(secret);
    expect(iotCsv).not.toContain('scrypt$');
    const rows = parseCsv(iotCsv.slice(1));
    expect(rows[0]).toEqual(iotDeviceColumns.map((column) => column.title));
    expect(rows.flat()).toContain(`'=HYPERLINK("http://evil.example")`);
    const devicesCsv = (await exportOf('/api/devices/export.csv')).body;
    expect(devicesCsv).toContain('Export tablet');
    expect(devicesCsv).not.toContain(token);
    expect(devicesCsv).not.toMatch(/[0-9a-f]{64}/);
  });

  it('pages in exactly the order of the list: ties, NULLs first or last, one key or several', async () => {
    const admin = api(context);
    const people = [
      ['Ida', 'Tie'],
      ['Ivy', 'Tie'],
      ['Ian', null],
      ['Ina', null],
      ['Ike', 'Alpha'],
      ['Ira', 'Zulu'],
      ['Isa', 'Tie'],
      // Namesakes: only the id tells them apart.
      ['Ida', 'Tie'],
      ['Ian', null],
      [null, 'Tie'],
      [null, null],
    ] as const;
    for (const [n, [first, last]] of people.entries()) {
      const created = await admin.post('/api/users', {
        username: `person${n}.order@careplane.test`,
        ...(first ? { firstName: first } : {}),
        ...(last ? { lastName: last } : {}),
        // Every third without an email: a single nullable key.
        ...(n % 3 ? { email: `${n % 2 ? 'a' : 'b'}${n}@careplane.test` } : {}),
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    // Two moments for eleven people: a key that holds no NULL, tied, so that the next key decides.
    await context.database.db.execute(sql`
      update users set created_at = case when right(split_part(username, '.', 1), 1) in ('0', '2', '4', '6', '8')
        then timestamptz '2026-01-01 08:00:00.123456+00' else timestamptz '2026-01-02 09:30:00+00' end
      where username like 'person%.order@careplane.test'
    `);
    const repository = createResourceRepository(usersResource);
    for (const sort of [
      ['lastName:asc'],
      ['lastName:desc'],
      ['createdAt:desc'],
      ['lastName:asc', 'firstName:desc'],
      ['firstName:asc'],
      ['firstName:desc'],
      ['lastName:desc', 'firstName:asc'],
      ['lastName:asc', 'createdAt:desc'],
      ['createdAt:desc', 'lastName:asc'],
      ['username:asc', 'createdAt:asc'],
      ['createdAt:asc', 'lastName:desc'],
      ['createdAt:desc', 'username:desc'],
      ['createdAt:asc', 'firstName:asc', 'lastName:asc'],
      ['email:asc'],
      ['email:desc'],
      ['email:desc', 'firstName:asc'],
    ]) {
      const criteria = { filters: [], filtersLike: ['username~.order@'], sort, relations: [] };
      const listed = await admin.get(
        `/api/users?filtersLike=username~.order@&${sort.map((key) => `sort=${key}`).join('&')}&limit=50`,
      );
      const expected = listed.json().items.map((user: { id: string }) => user.id);
      const paged: string[] = [];
      for await (const page of repository.pages(context.database.db, criteria, undefined, 2)) {
        paged.push(...page.map((user) => user.id));
      }
      expect(paged, sort.join(',')).toEqual(expected);
      expect(paged).toHaveLength(people.length);
    }
    // A reader that stops after the first page (a download cancelled) leaves the page read ahead behind.
    const criteria = {
      filters: [],
      filtersLike: ['username~.order@'],
      sort: ['lastName:asc'],
      relations: [],
    };
    for await (const page of repository.pages(context.database.db, criteria, undefined, 2)) {
      expect(page).toHaveLength(2);
      break;
    }
  });

  it('streams 100,000 rows a page at a time', async () => {
    await context.database.db.execute(sql`
      insert into users (username, username_without_domain, primary_domain, first_name, last_name, local_roles)
      select 'bulk' || n || '@careplane.test', 'bulk' || n, 'careplane.test', 'Bulk', 'Person ' || n, '{caregiver}'
      from generate_series(1, 100000) as n
    `);
    // As the scale seeder does: the planner learns how large the table has grown.
    await context.database.db.execute(sql`analyze users`);
    await context.app.listen({ host: '127.0.0.1', port: 0 });
    const address = context.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const response = await fetch(
      `http://127.0.0.1:${port}/api/users/export.csv?filters=localRoles~caregiver&sort=createdAt:asc`,
      { headers: { authorization: `Bearer ${context.adminToken}` } },
    );
    expect(response.status).toBe(200);
    // Written as it is read from the database: no length known in advance.
    expect(response.headers.get('content-length')).toBeNull();
    let lines = 0;
    let chunks = 0;
    let last = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      chunks++;
      const text = last + decoder.decode(chunk, { stream: true });
      const parts = text.split('\r\n');
      last = parts.pop()!;
      lines += parts.length;
    }
    expect(last).toBe('');
    expect(lines).toBe(100_001);
    expect(chunks).toBeGreaterThan(10);
  }, 180_000);
});
