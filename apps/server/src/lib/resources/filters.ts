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
  type Placeholder,
  type SQLWrapper,
} from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type {
  AnyListSpec,
  FilterKind,
  FilterPath,
  SearchPath,
  SortDirection,
  SortPath,
} from '@careplane/shared/common/list-spec';
import { badRequest, serviceTexts } from '../errors.js';
import { linkListsOf, type LinkFilterPath } from './links.js';

export type FilterValue = string | number | boolean;
/** A filter value as the SQL binds it: itself, or a placeholder for it (see ValueBinder). */
export type BoundValue = FilterValue | Placeholder;

export interface FilterSpec {
  kind: FilterKind;
  /** values: the parsed "any of" list (never empty); isNull when the value was `null`. */
  build: (values: BoundValue[], isNullFilter: boolean) => SQL;
}

/** How a filter path of a contract's list spec reaches SQL; the kind of its values comes from the spec. */
export type FilterBinding = (kind: FilterKind) => FilterSpec;

const uuid = z.uuid();

function parseValue(kind: FilterKind, raw: string, path: string): FilterValue {
  const fail = (expected: string) =>
    badRequest(serviceTexts.invalidFilterValue(path), [
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

/** Exact match on a column; a list column (an enum list) matches when it contains any of the values. */
export const column =
  (target: PgColumn): FilterBinding =>
  (kind) => ({
    kind,
    build: (values, isNullFilter) => {
      if (isNullFilter) return isNull(target);
      if (kind.type === 'enum' && kind.list) {
        return sql`${target} && ARRAY[${sql.join(
          values.map((value) => sql`${value}`),
          sql`, `,
        )}]::text[]`;
      }
      return values.length === 1 ? sql`${target} = ${values[0]}` : inArray(target, values);
    },
  });

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
export const link =
  (linkTable: PgTable, ownerColumn: PgColumn, targetColumn: PgColumn, ownerId: PgColumn): FilterBinding =>
  (kind) => {
    const source = subquerySource(linkTable);
    const owned = sql`${source.column(ownerColumn)} = ${ownerId}`;
    return {
      kind,
      build: (values, isNullFilter) =>
        isNullFilter
          ? sql`not exists (select 1 from ${source.from} where ${owned})`
          : sql`exists (select 1 from ${source.from} where ${owned} and ${inArray(source.column(targetColumn), values)})`,
    };
  };

/** Match on a column of a record this one points to: `patientProfile.status~enrolled`. */
export const referenced =
  (foreignKey: PgColumn, target: PgTable, targetId: PgColumn, targetColumn: PgColumn): FilterBinding =>
  (kind) => {
    const source = subquerySource(target);
    const matched = source.column(targetColumn);
    return {
      kind,
      build: (values, isNullFilter) =>
        sql`${foreignKey} in (select ${source.column(targetId)} from ${source.from} where ${
          isNullFilter ? isNull(matched) : inArray(matched, values)
        })`,
    };
  };

export interface SortKey {
  column: PgColumn;
  direction: SortDirection;
}

/** A list spec bound to SQL: what buildListSql reads. */
export interface ResourceQuerySpec {
  filters: Readonly<Record<string, FilterSpec>>;
  /** Paths for case-insensitive "contains"; the expression is compared as text. */
  like: Readonly<Record<string, SQLWrapper>>;
  /** The columns each sort path orders by, in turn (the id breaks what ties remain). */
  sorts: Readonly<Record<string, readonly PgColumn[]>>;
  /** The column `from`/`to` bound; resources without one refuse them. */
  timeColumn?: PgColumn | undefined;
  defaultSort: readonly SortKey[];
  idColumn: PgColumn;
}

/**
 * Every path of a contract's list spec, bound to SQL; the compiler insists that none is missing. A filter
 * `<list>.id` on a link list of the table (`TableName`) is bound from the link's declaration unless given.
 */
export interface ListBindings<Spec extends AnyListSpec, TableName extends string = string> {
  idColumn: PgColumn;
  filters: { readonly [Path in Exclude<FilterPath<Spec>, LinkFilterPath<TableName>>]: FilterBinding } & {
    readonly [Path in Extract<FilterPath<Spec>, LinkFilterPath<TableName>>]?: FilterBinding;
  };
  search: { readonly [Path in SearchPath<Spec>]: SQLWrapper };
  /**
   * A path's column, or its columns in turn: a last name sorts by `[lastName, firstName]`, so that two people of
   * one family are listed by their first names rather than by their ids.
   */
  sort: { readonly [Path in SortPath<Spec>]: PgColumn | readonly [PgColumn, ...PgColumn[]] };
  /** The column of the spec's `timeRange`. */
  time?: PgColumn;
}

/** Binds a contract's list spec to the columns and expressions of its table. */
export function bindListSpec<Spec extends AnyListSpec, IdColumn extends PgColumn>(
  spec: Spec,
  bindings: ListBindings<Spec, IdColumn['_']['tableName']> & { idColumn: IdColumn },
): ResourceQuerySpec {
  if (Boolean(spec.timeRange) !== Boolean(bindings.time)) {
    throw new Error(`List ${spec.resource}: a time range needs a time column and the other way round`);
  }
  const sorts: Record<string, readonly PgColumn[]> = Object.fromEntries(
    Object.entries(bindings.sort as Readonly<Record<string, PgColumn | readonly PgColumn[]>>).map(
      ([path, columns]) => [path, Array.isArray(columns) ? columns : [columns]],
    ),
  );
  const filters = bindings.filters as Readonly<Record<string, FilterBinding>>;
  const lists = linkListsOf(bindings.idColumn.table);
  const bindingOf = (path: string): FilterBinding => {
    if (Object.hasOwn(filters, path)) return filters[path]!;
    const list = path.endsWith('.id') ? path.slice(0, -'.id'.length) : '';
    if (!Object.hasOwn(lists, list))
      throw new Error(`List ${spec.resource}: nothing binds the filter ${path}`);
    const { table, ownerColumn, targetColumn } = lists[list]!;
    return link(table, ownerColumn, targetColumn, bindings.idColumn);
  };
  return {
    idColumn: bindings.idColumn,
    filters: Object.fromEntries(
      Object.entries(spec.filters).map(([path, kind]) => [path, bindingOf(path)(kind)]),
    ),
    like: bindings.search,
    sorts,
    timeColumn: bindings.time,
    defaultSort: sorts[spec.defaultSort.path]!.map((column) => ({
      column,
      direction: spec.defaultSort.direction,
    })),
  };
}

function splitPair(raw: string, name: string): [string, string] {
  const at = raw.indexOf('~');
  if (at <= 0) {
    throw badRequest(serviceTexts.invalidPair(name, raw.slice(0, 60)), [
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

/**
 * A list's criteria read and checked, before any SQL: each filter's values parsed, each search its pattern,
 * the sort its keys. `shape` names everything the SQL's text depends on (paths, how many values, which bounds),
 * never a value: two requests of one shape differ only in the values they bind, so a list renders its
 * statements once per shape (repository.ts) and binds each request's values.
 */
export interface ReadCriteria {
  filters: { path: string; filter: FilterSpec; values: FilterValue[] | null }[];
  likes: { expression: SQLWrapper; pattern: string }[];
  from?: number | undefined;
  to?: number | undefined;
  keys: SortKey[];
  shape: string;
}

/** Reads a list's criteria; unknown paths and mistyped values are refused. */
export function readListCriteria(spec: ResourceQuerySpec, criteria: ListCriteria): ReadCriteria {
  const shape: string[] = [];
  const filters: ReadCriteria['filters'] = [];
  for (const raw of criteria.filters) {
    const [path, value] = splitPair(raw, 'filters');
    const filter = Object.hasOwn(spec.filters, path) ? spec.filters[path] : undefined;
    if (!filter) {
      throw badRequest(serviceTexts.unknownFilter(path), [
        { path: 'filters', message: `Filtering on ${path} is not allowed` },
      ]);
    }
    const values =
      value === 'null' ? null : value.split(',').map((part) => parseValue(filter.kind, part, path));
    filters.push({ path, filter, values });
    shape.push(`f ${path} ${values ? values.length : 'null'}`);
  }
  const likes: ReadCriteria['likes'] = [];
  for (const raw of criteria.filtersLike) {
    const [path, value] = splitPair(raw, 'filtersLike');
    const expression = Object.hasOwn(spec.like, path) ? spec.like[path] : undefined;
    if (!expression) {
      throw badRequest(serviceTexts.unknownSearchPath(path), [
        { path: 'filtersLike', message: `Searching on ${path} is not allowed` },
      ]);
    }
    if (value.includes('\u0000')) {
      throw badRequest(serviceTexts.invalidSearchText, [{ path: 'filtersLike', message: 'NUL not allowed' }]);
    }
    likes.push({ expression, pattern: `%${escapeLike(value)}%` });
    shape.push(`l ${path}`);
  }
  if ((criteria.from !== undefined || criteria.to !== undefined) && !spec.timeColumn) {
    throw badRequest(serviceTexts.noTimeRange, [
      { path: 'from', message: 'from and to are not supported here' },
    ]);
  }
  if (criteria.from !== undefined) shape.push('from');
  if (criteria.to !== undefined) shape.push('to');

  const keys: SortKey[] = [];
  for (const raw of criteria.sort) {
    const [path, direction = 'asc'] = raw.split(':');
    const columns = path && Object.hasOwn(spec.sorts, path) ? spec.sorts[path] : undefined;
    if (!columns || (direction !== 'asc' && direction !== 'desc')) {
      throw badRequest(serviceTexts.invalidSort(raw.slice(0, 60)), [
        { path: 'sort', message: `Sorting by ${raw.slice(0, 60)} is not allowed` },
      ]);
    }
    for (const column of columns) keys.push({ column, direction });
    shape.push(`s ${path} ${direction}`);
  }
  if (keys.length === 0) keys.push(...spec.defaultSort);
  return { filters, likes, from: criteria.from, to: criteria.to, keys, shape: shape.join('\n') };
}

/**
 * How a value reaches the SQL: as itself (drizzle binds it), or as a placeholder of the name listSql gives it,
 * whose driver value listValues finds without building any SQL (a statement rendered once per shape).
 */
type Bind = (name: string, value: FilterValue, column?: PgColumn) => BoundValue;
const asItself: Bind = (_name, value) => value;
export const asPlaceholder: Bind = (name) => sql.placeholder(name);

/** The values of criteria by placeholder name: the n-th filter's m-th value `fn_m`, searches `ln`, `from`, `to`. */
export function listValues(spec: ResourceQuerySpec, read: ReadCriteria): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  read.filters.forEach(({ values: given }, n) =>
    given?.forEach((value, m) => (values[`f${n}_${m}`] = value)),
  );
  read.likes.forEach(({ pattern }, n) => (values[`l${n}`] = pattern));
  if (read.from !== undefined) values.from = spec.timeColumn!.mapToDriverValue(read.from);
  if (read.to !== undefined) values.to = spec.timeColumn!.mapToDriverValue(read.to);
  return values;
}

/** The WHERE and ORDER BY of criteria read by readListCriteria, each value bound as itself or by `bind`. */
export function listSql(spec: ResourceQuerySpec, read: ReadCriteria, bind: Bind = asItself) {
  const conditions: SQL[] = [];
  read.filters.forEach(({ filter, values }, n) =>
    conditions.push(
      values === null
        ? filter.build([], true)
        : filter.build(
            values.map((value, m) => bind(`f${n}_${m}`, value)),
            false,
          ),
    ),
  );
  read.likes.forEach(({ expression, pattern }, n) =>
    conditions.push(sql`(${expression})::text ilike ${bind(`l${n}`, pattern)}`),
  );
  const time = spec.timeColumn!;
  if (read.from !== undefined) conditions.push(gte(time, bind('from', read.from, time)));
  if (read.to !== undefined) conditions.push(lte(time, bind('to', read.to, time)));

  const { keys } = read;
  // The id breaks ties, so pages never overlap. It runs in the direction of the last key, so an index on
  // (column, id) serves the whole order in one scan, forwards or backwards.
  const tieBreak: SortKey = { column: spec.idColumn, direction: keys[keys.length - 1]!.direction };
  const orderBy = [...keys, tieBreak].map(({ column, direction }) =>
    direction === 'asc' ? asc(column) : desc(column),
  );
  return { where: conditions.length ? and(...conditions) : undefined, orderBy, keys };
}

/** Builds the WHERE and ORDER BY of a list; unknown paths and mistyped values are refused. */
export const buildListSql = (spec: ResourceQuerySpec, criteria: ListCriteria) =>
  listSql(spec, readListCriteria(spec, criteria));
