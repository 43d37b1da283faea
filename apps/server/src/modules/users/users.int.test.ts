import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_NUMBER_MESSAGE } from '@careplane/shared/common/primitives';
import { api, createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

describe('users resource', () => {
  it('creates, reads, lists, updates and deletes a user', async () => {
    const { post, get, patch, delete: del } = api(context);
    const created = await post('/api/users', {
      username: 'Paula.Patient@Careplane.Test',
      firstName: 'Paula',
      lastName: 'Patient',
      localRoles: ['patient'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json();
    expect(user).toMatchObject({
      username: 'paula.patient@careplane.test',
      usernameWithoutDomain: 'paula.patient',
      primaryDomain: 'careplane.test',
      isBlocked: false,
      registrationCompleted: false,
      registrationStatus: 'registered',
      roles: [],
      localRoles: ['patient'],
      createdByUserId: context.adminUserId,
    });

    expect((await get(`/api/users/${user.id}`)).json().lastName).toBe('Patient');

    const list = await get('/api/users?filtersLike=lastName~atien&filters=localRoles~patient');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, limit: 20, offset: 0 });
    expect(list.json().items[0].id).toBe(user.id);

    const changed = await patch(`/api/users/${user.id}`, { isBlocked: true });
    expect(changed.json()).toMatchObject({ isBlocked: true, firstName: 'Paula' });

    expect((await del(`/api/users/${user.id}`)).statusCode).toBe(204);
    expect((await get(`/api/users/${user.id}`)).statusCode).toBe(404);
  });

  it('finds a person by name as the account writes it or in the local script of their identity document', async () => {
    const { post, get } = api(context);
    const created = await post('/api/users', {
      username: 'malee.namesearch@careplane.test',
      firstName: 'Malee',
      lastName: 'Namesearch',
      localRoles: ['patient'],
      additionalInfo: { localizedFirstName: 'มาลี', localizedLastName: 'ค้นชื่อทดสอบ' },
    });
    expect(created.statusCode, created.body).toBe(201);
    for (const term of ['Malee Namesearch', 'namesearch', 'มาลี ค้นชื่อ', 'ค้นชื่อทดสอบ']) {
      const found = await get(`/api/users?filtersLike=name~${encodeURIComponent(term)}`);
      expect(found.statusCode, found.body).toBe(200);
      expect(
        found.json().items.map((item: { id: string }) => item.id),
        term,
      ).toContain(created.json().id);
    }
  });

  it('sorts by a name, then by the other name: one family is listed by first names, not by ids', async () => {
    const { post, get } = api(context);
    // Made in this order, so that the id order (which breaks any tie left) is none of the name orders.
    const people = [
      ['Cara', 'Sorttie'],
      ['Anna', 'Sorttie'],
      ['Bea', 'Sorttie'],
      ['Anna', 'Sorttiea'],
    ];
    for (const [firstName, lastName] of people) {
      const created = await post('/api/users', {
        username: `${firstName}.${lastName}@careplane.test`,
        firstName,
        lastName,
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    const names = async (query: string) => {
      const response = await get(`/api/users?filtersLike=lastName~sorttie&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().items as { firstName: string; lastName: string }[]).map(
        (user) => `${user.firstName} ${user.lastName}`,
      );
    };
    expect(await names('sort=lastName:asc')).toEqual([
      'Anna Sorttie',
      'Bea Sorttie',
      'Cara Sorttie',
      'Anna Sorttiea',
    ]);
    expect(await names('sort=lastName:desc')).toEqual([
      'Anna Sorttiea',
      'Cara Sorttie',
      'Bea Sorttie',
      'Anna Sorttie',
    ]);
    expect(await names('sort=firstName:asc')).toEqual([
      'Anna Sorttie',
      'Anna Sorttiea',
      'Bea Sorttie',
      'Cara Sorttie',
    ]);
    // The second page continues the same order.
    expect(await names('sort=lastName:asc&limit=2&offset=2')).toEqual(['Cara Sorttie', 'Anna Sorttiea']);
  });

  it('refuses an unknown filter with 400', async () => {
    const response = await api(context).get('/api/users?filters=password~x');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });

  it('answers 401 without a token and 403 for a non-admin', async () => {
    expect((await context.app.inject({ url: '/api/users' })).statusCode).toBe(401);
    expect((await api(context, context.userToken).get('/api/users')).statusCode).toBe(403);
  });
});

describe('users with the longest names', () => {
  it('creates a user whose names, or whose username standing in for them, are as long as the form takes', async () => {
    const { post } = api(context);
    // The sign-in identity made with the user kept names of at most 100 characters: 101–120 answered 500.
    const long = await post('/api/users', {
      username: 'long.names@careplane.test',
      firstName: 'ก'.repeat(120),
      lastName: 'L'.repeat(120),
    });
    expect(long.statusCode, long.body).toBe(201);
    expect(long.json()).toMatchObject({ firstName: 'ก'.repeat(120), lastName: 'L'.repeat(120) });
    // Without names, the username's part before the @ names the identity, cut to the same length.
    const nameless = await post('/api/users', { username: `${'n'.repeat(200)}@careplane.test` });
    expect(nameless.statusCode, nameless.body).toBe(201);
    const tooLong = await post('/api/users', {
      username: 'longer@careplane.test',
      firstName: 'x'.repeat(121),
    });
    expect(tooLong.json()).toMatchObject({
      statusCode: 400,
      issues: [{ path: 'body.firstName', message: 'First name must be at most 120 characters.' }],
    });
  });
});

describe('users named with blanks', () => {
  it('keeps a name without the blanks around it, so a name of blanks alone is no name', async () => {
    const { post, patch } = api(context);
    const created = await post('/api/users', {
      username: 'blank.names@careplane.test',
      title: '  Dr. ',
      firstName: '  Malee ',
      lastName: '   ',
      additionalInfo: { localizedFirstName: ' มาลี  ', localizedLastName: ' \t' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      title: 'Dr.',
      firstName: 'Malee',
      lastName: '',
      additionalInfo: { localizedFirstName: 'มาลี', localizedLastName: '' },
    });
    const edited = await patch(`/api/users/${created.json().id}`, { lastName: ' Kaewmanee  ' });
    expect(edited.json()).toMatchObject({ firstName: 'Malee', lastName: 'Kaewmanee' });
  });
});

describe('users additionalInfo', () => {
  it('keeps unsent keys on PATCH and records only what was sent', async () => {
    const { post, patch } = api(context);
    const created = await post('/api/users', {
      username: 'dora@careplane.test',
      additionalInfo: { dateOfBirth: '1950-02-03', identityDocumentType: 'passport' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const changed = await patch(`/api/users/${id}`, { additionalInfo: { gender: 'female' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().additionalInfo).toEqual({
      dateOfBirth: '1950-02-03',
      identityDocumentType: 'passport',
      identityDocumentIsValidIndefinitely: false,
      gender: 'female',
    });
  });

  it('refuses a date that has the shape of one but is no day, and writes nothing', async () => {
    const { post, get } = api(context);
    const created = await post('/api/users', { username: 'dates@careplane.test' });
    const id = created.json().id as string;
    for (const dateOfBirth of ['2099-13-45', '2023-02-29', '1950-00-10', '0950-04-31']) {
      const refused = await api(context).patch(`/api/users/${id}`, { additionalInfo: { dateOfBirth } });
      expect(refused.statusCode, dateOfBirth).toBe(400);
      expect(refused.json().issues).toEqual([
        { path: 'body.additionalInfo.dateOfBirth', message: 'Must be a date YYYY-MM-DD' },
      ]);
    }
    const leap = await api(context).patch(`/api/users/${id}`, {
      additionalInfo: { dateOfBirth: '2024-02-29' },
    });
    expect(leap.statusCode, leap.body).toBe(200);
    expect((await get(`/api/users/${id}`)).json().additionalInfo.dateOfBirth).toBe('2024-02-29');
  });

  it('keeps a phone number as written, refuses one no one could dial and keeps the old one', async () => {
    const { post, get, patch } = api(context);
    const created = await post('/api/users', {
      username: 'phone@careplane.test',
      phoneNumber: '02-123-4567 ต่อ 12',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const refused = await patch(`/api/users/${id}`, { phoneNumber: 'call me maybe' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([{ path: 'body.phoneNumber', message: PHONE_NUMBER_MESSAGE }]);
    const inThai = await context.app.inject({
      method: 'PATCH',
      url: `/api/users/${id}`,
      headers: { authorization: `Bearer ${context.adminToken}`, 'accept-language': 'th' },
      payload: { phoneNumber: 'โทรหาฉัน' },
    });
    expect(inThai.statusCode).toBe(400);
    expect(inThai.json().issues[0].message).toMatch(/^หมายเลขโทรศัพท์ ต้องเป็นหมายเลขโทรศัพท์/);
    expect((await get(`/api/users/${id}`)).json().phoneNumber).toBe('02-123-4567 ต่อ 12');
    expect((await patch(`/api/users/${id}`, { phoneNumber: '+66 81 234 5678' })).json().phoneNumber).toBe(
      '+66 81 234 5678',
    );
  });

  it('accepts a bearer scheme in any case', async () => {
    const response = await context.app.inject({
      url: '/api/users?limit=1',
      headers: { authorization: `bearer ${context.adminToken}` },
    });
    expect(response.statusCode).toBe(200);
  });
});
