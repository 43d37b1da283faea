// Whitelisted filters, contains-filters and sorts: typed values in, SQL out. Anything else is a 400.
import {
  and,
  asc,
  desc,
  getTableName,
  gte,
  inArray,
  isNull,
  lte,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { badRequest } from '../errors.js';

export type FilterValue = string | number | boolean;

export type ValueKind =
  | { type: 'uuid' }
  | { type: 'text' }
  | { type: 'number' }
  | { type: 'boolean' }
  | { type: 'enum'; values: readonly string[] };

export interface FilterSpec {
  kind: ValueKind;
  /** values: the parsed "any of" list (never empty); isNull when the value was `null`. */
  build: (values: FilterValue[], isNullFilter: boolean) => SQL;
}

export const kinds = {
  uuid: { type: 'uuid' } as const,
  text: { type: 'text' } as const,
  number: { type: 'number' } as const,
  boolean: { type: 'boolean' } as const,
  enum: (values: readonly string[]): ValueKind => ({ type: 'enum', values }),
};

const uuid = z.uuid();

function parseValue(kind: ValueKind, raw: string, path: string): FilterValue {
  const fail = (expected: string) =>
    badRequest(`Invalid filter value for ${path}`, [
      { path: `filters.${path}`, message: `Expected ${expected}, got "${raw.slice(0, 60)}"` },
    ]);
  switch (kind.type) {
    case 'uuid':
      if (!uuid.safeParse(raw).success) throw fail('a uuid');
      return raw.toLowerCase();
    case 'number': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value)) throw fail('a number');
      return value;
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') throw fail('true or false');
      return raw === 'true';
    case 'enum':
      if (!kind.values.includes(raw)) throw fail(`one of ${kind.values.join(', ')}`);
      return raw;
    case 'text':
      if (raw.includes('\u0000')) throw fail('text without NUL');
      return raw;
  }
}

/** Exact match on a column; a list column matches when it contains any of the values. */
export function columnFilter(
  column: PgColumn,
  kind: ValueKind,
  options: { list?: boolean } = {},
): FilterSpec {
  return {
    kind,
    build: (values, isNullFilter) => {
      if (isNullFilter) return isNull(column);
      if (options.list) {
        return sql`${column} && ARRAY[${sql.join(
          values.map((value) => sql`${String(value)}`),
          sql`, `,
        )}]::text[]`;
      }
      return values.length === 1 ? sql`${column} = ${values[0]}` : inArray(column, values);
    },
  };
}

/**
 * The table of a subquery, named by identifier under an alias of its own. drizzle's relational queries
 * re-point every column object in a WHERE at the listed table's alias, which would turn the subquery's own
 * columns into the outer table's; identifiers are left alone.
 */
function subquerySource(table: PgTable) {
  const alias = sql.identifier(`filter_${getTableName(table)}`);
  return {
    from: sql`${sql.identifier(getTableName(table))} as ${alias}`,
    column: (column: PgColumn) => sql`${alias}.${sql.identifier(column.name)}`,
  };
}

/** Match through a link table: EXISTS a link row from this record to a target with one of the values. */
export function linkFilter(
  link: PgTable,
  ownerColumn: PgColumn,
  targetColumn: PgColumn,
  ownerId: PgColumn,
): FilterSpec {
  const source = subquerySource(link);
  const owned = sql`${source.column(ownerColumn)} = ${ownerId}`;
  return {
    kind: kinds.uuid,
    build: (values, isNullFilter) =>
      isNullFilter
        ? sql`not exists (select 1 from ${source.from} where ${owned})`
        : sql`exists (select 1 from ${source.from} where ${owned} and ${inArray(source.column(targetColumn), values)})`,
  };
}

/** Match on a column of a record this one points to: `patientProfile.status~enrolled`. */
export function referencedFilter(
  foreignKey: PgColumn,
  target: PgTable,
  targetId: PgColumn,
  targetColumn: PgColumn,
  kind: ValueKind,
): FilterSpec {
  const source = subquerySource(target);
  const column = source.column(targetColumn);
  return {
    kind,
    build: (values, isNullFilter) =>
      sql`${foreignKey} in (select ${source.column(targetId)} from ${source.from} where ${
        isNullFilter ? isNull(column) : inArray(column, values)
      })`,
  };
}

export interface ResourceQuerySpec {
  filters: Readonly<Record<string, FilterSpec>>;
  /** Paths for case-insensitive "contains"; the expression is compared as text. */
  like: Readonly<Record<string, SQLWrapper>>;
  sorts: Readonly<Record<string, PgColumn>>;
  /** The column `from`/`to` bound; resources without one refuse them. */
  timeColumn?: PgColumn;
  defaultSort: SQL[];
  idColumn: PgColumn;
}

function splitPair(raw: string, name: string): [string, string] {
  const at = raw.indexOf('~');
  if (at <= 0) {
    throw badRequest(`Invalid ${name}: ${raw.slice(0, 60)}`, [
      { path: name, message: 'Expected <path>~<value>' },
    ]);
  }
  return [raw.slice(0, at), raw.slice(at + 1)];
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export interface ListCriteria {
  filters: string[];
  filtersLike: string[];
  from?: number | undefined;
  to?: number | undefined;
  sort: string[];
}

/** Builds the WHERE and ORDER BY of a list; unknown paths and mistyped values are refused. */
export function buildListSql(spec: ResourceQuerySpec, criteria: ListCriteria) {
  const conditions: SQL[] = [];
  for (const raw of criteria.filters) {
    const [path, value] = splitPair(raw, 'filters');
    const filter = Object.hasOwn(spec.filters, path) ? spec.filters[path] : undefined;
    if (!filter) {
      throw badRequest(`Unknown filter: ${path}`, [
        { path: 'filters', message: `Filtering on ${path} is not allowed` },
      ]);
    }
    if (value === 'null') {
      conditions.push(filter.build([], true));
      continue;
    }
    const values = value.split(',').map((part) => parseValue(filter.kind, part, path));
    conditions.push(filter.build(values, false));
  }
  for (const raw of criteria.filtersLike) {
    const [path, value] = splitPair(raw, 'filtersLike');
    const expression = Object.hasOwn(spec.like, path) ? spec.like[path] : undefined;
    if (!expression) {
      throw badRequest(`Unknown filtersLike path: ${path}`, [
        { path: 'filtersLike', message: `Searching on ${path} is not allowed` },
      ]);
    }
    if (value.includes('\u0000')) {
      throw badRequest('Invalid search text', [{ path: 'filtersLike', message: 'NUL not allowed' }]);
    }
    conditions.push(sql`(${expression})::text ilike ${`%${escapeLike(value)}%`}`);
  }
  if (criteria.from !== undefined || criteria.to !== undefined) {
    if (!spec.timeColumn) {
      throw badRequest('This list has no time range', [
        { path: 'from', message: 'from and to are not supported here' },
      ]);
    }
    if (criteria.from !== undefined) conditions.push(gte(spec.timeColumn, criteria.from));
    if (criteria.to !== undefined) conditions.push(lte(spec.timeColumn, criteria.to));
  }

  const orderBy: SQL[] = [];
  for (const raw of criteria.sort) {
    const [path, direction = 'asc'] = raw.split(':');
    const column = path && Object.hasOwn(spec.sorts, path) ? spec.sorts[path] : undefined;
    if (!column || (direction !== 'asc' && direction !== 'desc')) {
      throw badRequest(`Invalid sort: ${raw.slice(0, 60)}`, [
        { path: 'sort', message: `Sorting by ${raw.slice(0, 60)} is not allowed` },
      ]);
    }
    orderBy.push(direction === 'asc' ? asc(column) : desc(column));
  }
  if (orderBy.length === 0) orderBy.push(...spec.defaultSort);
  // A stable tiebreaker keeps pages from overlapping.
  orderBy.push(asc(spec.idColumn));

  return { where: conditions.length ? and(...conditions) : undefined, orderBy };
}
