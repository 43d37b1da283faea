// What a list query cannot read is said, not answered with an empty page (decision 111, after decision 103): a
// time range that ends before it starts is refused as a period's is ("Must be after from"), and more values of a
// repeated parameter than a list takes say how many it takes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './harness.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const lists = [
  '/api/alerts',
  '/api/iot-devices/data',
  '/api/devices/stats',
  '/api/command-centers/alerts',
  '/api/command-centers/readings',
];

function get(url: string, language?: string) {
  return context.app.inject({
    method: 'GET',
    url,
    headers: {
      authorization: `Bearer ${context.adminToken}`,
      ...(language ? { 'accept-language': language } : {}),
    },
  });
}

describe('a list query', () => {
  it('refuses a time range that ends before it starts, as a period does, in English and Thai', async () => {
    for (const list of lists) {
      const refused = await get(`${list}?from=10&to=5`);
      expect(refused.statusCode, `${list}: ${refused.body}`).toBe(400);
      expect(refused.json().issues, list).toEqual([
        { path: 'querystring.to', message: 'Must be after from' },
      ]);
      // A range of one moment (both ends included) is a range.
      const moment = await get(`${list}?from=5&to=5`);
      expect(moment.statusCode, `${list}: ${moment.body}`).toBe(200);
    }
    // The CSV export reads the same query (none of its lists has a time range: the contract refuses first).
    const csv = await get('/api/devices/export.csv?from=10&to=5');
    expect(csv.statusCode, csv.body).toBe(400);
    expect(csv.json().issues).toEqual([{ path: 'querystring.to', message: 'Must be after from' }]);
    const thai = await get('/api/alerts?from=10&to=5', 'th');
    expect(thai.json().issues[0].message).toContain('from');
    expect(thai.json().issues[0].message).not.toBe('Must be after from');
  });

  it('says how many values a repeated parameter takes', async () => {
    for (const parameter of ['filters', 'filtersLike', 'sort']) {
      const query = Array.from(
        { length: 51 },
        () => `${parameter}=${parameter === 'sort' ? 'timestamp' : 'id~x'}`,
      );
      const refused = await get(`/api/alerts?${query.join('&')}`);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().issues).toEqual([
        { path: `querystring.${parameter}`, message: 'At most 50 values' },
      ]);
    }
    const thai = await get(
      `/api/alerts?${Array.from({ length: 51 }, () => 'sort=timestamp').join('&')}`,
      'th',
    );
    expect(thai.json().issues[0].message).toContain('50');
    expect(thai.json().issues[0].message).not.toBe('At most 50 values');
    const fifty = await get(`/api/alerts?${Array.from({ length: 50 }, () => 'sort=timestamp').join('&')}`);
    expect(fifty.statusCode, fifty.body).toBe(200);
  });
});
