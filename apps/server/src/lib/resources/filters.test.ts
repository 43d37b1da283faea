import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { defineListSpec, filterKinds } from '@careplane/shared/common/list-spec';
import { users } from '@/db/schema/index.js';
import { AppError } from '../errors.js';
import { bindListSpec, buildListSql, column } from './filters.js';

const listSpec = defineListSpec({
  resource: 'users',
  filters: {
    id: filterKinds.uuid,
    isBlocked: filterKinds.boolean,
    localRoles: filterKinds.enumList(['nurse', 'patient']),
  },
  search: ['lastName'],
  sort: ['createdAt', 'lastName'],
  relations: [],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});

const bindings = {
  idColumn: users.id,
  filters: { id: column(users.id), isBlocked: column(users.isBlocked), localRoles: column(users.localRoles) },
  search: { lastName: users.lastName },
  sort: { createdAt: users.createdAt, lastName: users.lastName },
};
const spec = bindListSpec(listSpec, bindings);

const dialect = new PgDialect();
const render = (criteria: Partial<Parameters<typeof buildListSql>[1]>) => {
  const { where, orderBy } = buildListSql(spec, { filters: [], filtersLike: [], sort: [], ...criteria });
  return {
    where: where ? dialect.sqlToQuery(where) : undefined,
    orderBy: orderBy.map((part) => dialect.sqlToQuery(part).sql),
  };
};
const status = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof AppError ? error.statusCode : 500;
  }
  return 200;
};

describe('buildListSql', () => {
  it('turns typed filters into parameters, never into SQL text', () => {
    const { where } = render({
      filters: ['isBlocked~true', 'localRoles~nurse,patient'],
      filtersLike: ["lastName~50%_o'neil"],
    });
    expect(where?.params).toEqual([true, 'nurse', 'patient', "%50\\%\\_o'neil%"]);
    expect(where?.sql).toContain('&& ARRAY[');
    expect(where?.sql).toContain('ilike');
  });

  it('reads null as IS NULL and a comma list as any of', () => {
    expect(render({ filters: ['id~null'] }).where?.sql).toContain('is null');
    const ids = ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c'];
    expect(render({ filters: [`id~${ids.join(',')}`] }).where?.params).toEqual(ids);
  });

  it('sorts by whitelisted paths and always ends with the id, in the direction of the last key', () => {
    // (column, id) indexes serve the whole order in one scan, forwards or backwards.
    expect(render({ sort: ['lastName:desc'] }).orderBy).toEqual([
      '"users"."last_name" desc',
      '"users"."id" desc',
    ]);
    expect(render({ sort: ['lastName:asc'] }).orderBy).toEqual([
      '"users"."last_name" asc',
      '"users"."id" asc',
    ]);
    expect(render({ sort: ['createdAt:desc', 'lastName'] }).orderBy).toEqual([
      '"users"."created_at" desc',
      '"users"."last_name" asc',
      '"users"."id" asc',
    ]);
    expect(render({}).orderBy).toEqual(['"users"."created_at" desc', '"users"."id" desc']);
  });

  it('orders a path bound to several columns by each in turn, in its direction, before the id', () => {
    const byName = bindListSpec(listSpec, {
      ...bindings,
      sort: { createdAt: users.createdAt, lastName: [users.lastName, users.firstName] },
    });
    const orderOf = (sort: string[]) =>
      buildListSql(byName, { filters: [], filtersLike: [], sort }).orderBy.map(
        (part) => dialect.sqlToQuery(part).sql,
      );
    expect(orderOf(['lastName:desc'])).toEqual([
      '"users"."last_name" desc',
      '"users"."first_name" desc',
      '"users"."id" desc',
    ]);
    expect(orderOf(['createdAt:asc', 'lastName:asc'])).toEqual([
      '"users"."created_at" asc',
      '"users"."last_name" asc',
      '"users"."first_name" asc',
      '"users"."id" asc',
    ]);
  });

  it.each([
    ['an unknown filter', { filters: ['password~x'] }],
    ['a filter without ~', { filters: ['isBlocked'] }],
    ['a bad uuid', { filters: ['id~42'] }],
    ['a bad boolean', { filters: ['isBlocked~yes'] }],
    ['a bad enum', { filters: ['localRoles~pilot'] }],
    ['an unknown like path', { filtersLike: ['email~x'] }],
    ['an unknown sort', { sort: ['password:asc'] }],
    ['a bad direction', { sort: ['lastName:sideways'] }],
    ['a time range on a list without time', { from: 1 }],
    ['a prototype key', { filters: ['__proto__~x'] }],
  ])('refuses %s with a 400', (_name, criteria) => {
    expect(status(() => render(criteria))).toBe(400);
  });
});
