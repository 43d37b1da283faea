// A query string is checked once per distinct query (decision 061): the same query answers the same frozen
// value, a refused one is checked every time, and what is remembered stays bounded.
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { listQuerySchema } from '@careplane/shared/common/http';
import {
  LONGEST_REMEMBERED_QUERY,
  REMEMBERED_QUERIES,
  queryValidatorCompiler,
  rememberQueries,
} from './query-validator.js';

/** A check that counts its calls: what zod's validator answers, { value } or { error }. */
function countingCheck() {
  const calls: unknown[] = [];
  const check = (data: unknown) => {
    calls.push(data);
    const parsed = listQuerySchema.safeParse(data);
    return parsed.success ? { value: parsed.data } : { error: parsed.error };
  };
  return { calls, check };
}

const query = (text: string) => Object.fromEntries(new URLSearchParams(text));

describe('rememberQueries', () => {
  it('answers the same query with the same value, checked once and frozen throughout', () => {
    const { calls, check } = countingCheck();
    const remembering = rememberQueries(check);
    const first = remembering(query('filters=name~Ann&sort=name:asc&limit=5')) as { value: never };
    const again = remembering(query('filters=name~Ann&sort=name:asc&limit=5')) as { value: never };
    expect(calls).toHaveLength(1);
    expect(again.value).toBe(first.value);
    expect(first.value).toEqual(listQuerySchema.parse(query('filters=name~Ann&sort=name:asc&limit=5')));
    const value = first.value as { filters: string[]; limit: number };
    expect(Object.isFrozen(value)).toBe(true);
    expect(() => value.filters.push('x')).toThrow(TypeError);
    expect(() => {
      value.limit = 100;
    }).toThrow(TypeError);
  });

  it('tells different queries apart', () => {
    const { calls, check } = countingCheck();
    const remembering = rememberQueries(check);
    const a = remembering(query('limit=5')) as { value: { limit: number } };
    const b = remembering(query('limit=6')) as { value: { limit: number } };
    const c = remembering({ limit: ['5', '6'] });
    expect([a.value.limit, b.value.limit]).toEqual([5, 6]);
    expect(c).toHaveProperty('error');
    expect(calls).toHaveLength(3);
  });

  it('checks a refused query every time', () => {
    const { calls, check } = countingCheck();
    const remembering = rememberQueries(check);
    for (let i = 0; i < 3; i++) expect(remembering(query('limit=0'))).toHaveProperty('error');
    expect(calls).toHaveLength(3);
  });

  it(`keeps at most ${REMEMBERED_QUERIES} queries, forgetting the oldest first`, () => {
    const { calls, check } = countingCheck();
    const remembering = rememberQueries(check);
    for (let i = 0; i <= REMEMBERED_QUERIES; i++) remembering(query(`offset=${i}`));
    expect(calls).toHaveLength(REMEMBERED_QUERIES + 1);
    remembering(query(`offset=${REMEMBERED_QUERIES}`));
    expect(calls).toHaveLength(REMEMBERED_QUERIES + 1);
    remembering(query('offset=0'));
    expect(calls).toHaveLength(REMEMBERED_QUERIES + 2);
  });

  it('checks a long query every time, remembering nothing of it', () => {
    const { calls, check } = countingCheck();
    const remembering = rememberQueries(check);
    const long = query(`filtersLike=name~${'a'.repeat(LONGEST_REMEMBERED_QUERY)}`);
    const first = remembering(long) as { value: object };
    const again = remembering(long) as { value: object };
    expect(calls).toHaveLength(2);
    expect(again.value).not.toBe(first.value);
    expect(Object.isFrozen(first.value)).toBe(false);
  });
});

describe('queryValidatorCompiler', () => {
  const apps: ReturnType<typeof Fastify>[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  it('remembers the queries of a route, never its bodies', async () => {
    const app = Fastify({ logger: false });
    apps.push(app);
    app.setValidatorCompiler(queryValidatorCompiler);
    const seen: unknown[] = [];
    app.get('/list', { schema: { querystring: listQuerySchema } }, async (request) => {
      seen.push(request.query);
      return request.query;
    });
    app.post('/list', { schema: { body: listQuerySchema } }, async (request) => {
      seen.push(request.body);
      return request.body;
    });
    const asked = await Promise.all(
      ['/list?limit=3', '/list?limit=3', '/list?limit=4'].map((url) => app.inject({ url })),
    );
    expect(asked.map((response) => response.json<{ limit: number }>().limit)).toEqual([3, 3, 4]);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[2]).not.toBe(seen[0]);
    const refused = await app.inject({ url: '/list?limit=0' });
    expect(refused.statusCode).toBe(400);

    seen.length = 0;
    for (let i = 0; i < 2; i++) await app.inject({ method: 'POST', url: '/list', payload: { limit: '3' } });
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]).not.toBe(seen[1]);
    expect(Object.isFrozen(seen[0])).toBe(false);
  });
});
