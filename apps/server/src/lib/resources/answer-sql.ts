// Answers selected in their final form: one pass from the driver's rows to the answer (decision 045).
// The columns come under their contract names (`created_at as "createdAt"`), timestamps as the ISO strings the
// answer carries (formatted by PostgreSQL exactly as Date#toISOString: UTC, milliseconds truncated), and each
// relation asked for as JSON already in its answer's shape (links unwrapped, `one` as an object or null, `many`
// as a list of at most its limit, newest first where the graph says so). The driver's row is the item: no
// drizzle row mapping and no second pass (shapeRow) over it.
import { createHash } from 'node:crypto';
import {
  and,
  eq,
  getTableColumns,
  getTableName,
  normalizeRelation,
  type AnyColumn,
  sql,
  type Relation,
  type SQL,
  type TablesRelationalConfig,
} from 'drizzle-orm';
import { PgDialect, alias, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '@/db/client.js';
import type { JsonSchema } from '../response-serializer.js';
import { MAX_EMBEDDED, entitySpec, hiddenColumnsOf, type EntityName, type RelationSpec } from './graph.js';
import type { RelationTree } from './relations.js';

type Row = Record<string, unknown>;

/** The column types an answer may select as they come; a timestamp is formatted, bytea is never answered. */
const PLAIN_TYPES = new Set(['uuid', 'boolean', 'text', 'bigint', 'jsonb', 'text[]', 'integer', 'bigserial']);
const TIMESTAMPTZ = 'timestamp with time zone';

/** A timestamp as Date#toISOString writes it (both truncate to milliseconds). */
const iso = (column: SQL | PgColumn) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const dialect = new PgDialect({ casing: 'snake_case' });

interface Relational {
  schema: TablesRelationalConfig;
  tableNamesMap: Record<string, string>;
}

const relationalOf = (executor: Executor): Relational => {
  const { schema, tableNamesMap } = executor._;
  if (!schema) throw new Error('The database handle has no relational schema');
  return { schema, tableNamesMap };
};

/**
 * The visible columns of an entity's table, by contract name (the table's TypeScript keys), as a record reached
 * through `relation` shows them.
 */
function visibleColumns(entity: EntityName, table: PgTable, relation?: RelationSpec): [string, PgColumn][] {
  const hidden = hiddenColumnsOf(entity, relation);
  return Object.entries(getTableColumns(table)).filter(([key]) => !hidden.has(key));
}

/** Whether every column an answer of this tree selects is one this module writes as it comes. */
function supported(relational: Relational, entity: EntityName, tree: RelationTree): boolean {
  const table = relational.schema[entity]?.columns;
  if (!table) return false;
  const columns = Object.values(table as Record<string, PgColumn>);
  if (!columns.every((column) => PLAIN_TYPES.has(column.getSQLType()) || column.getSQLType() === TIMESTAMPTZ))
    return false;
  const relations = entitySpec(entity).relations;
  return Object.entries(tree).every(([name, subtree]) => {
    const spec = relations[name];
    return spec !== undefined && supported(relational, spec.target, subtree);
  });
}

/** A column's value as the answer writes it. */
const valueOf = (column: PgColumn) => (column.getSQLType() === TIMESTAMPTZ ? iso(column) : sql`${column}`);

/** The TypeScript key of each column of a table: what an aliased table answers its columns by. */
const keysOf = new WeakMap<PgTable, Map<AnyColumn, string>>();
function keyOf(table: PgTable, column: AnyColumn): string {
  let keys = keysOf.get(table);
  if (!keys) {
    keys = new Map(Object.entries(getTableColumns(table)).map(([key, value]) => [value, key]));
    keysOf.set(table, keys);
  }
  const key = keys.get(column);
  if (key === undefined) throw new Error(`A relation names a column its table does not have`);
  return key;
}

const columnOf = (aliased: PgTable, original: PgTable, column: AnyColumn) =>
  (aliased as unknown as Record<string, PgColumn>)[keyOf(original, column)]!;

/** Builds the SQL of answers; aliases are numbered per statement so that nested tables never clash. */
class AnswerBuilder {
  private next = 0;
  constructor(private readonly relational: Relational) {}

  private relation(entity: string, key: string): Relation {
    const found = this.relational.schema[entity]?.relations[key];
    if (!found) throw new Error(`${entity} has no relation ${key}`);
    return found;
  }

  private entityOf(relation: Relation): string {
    const found = Object.values(this.relational.schema).find(
      (table) => table.dbName === relation.referencedTableName,
    );
    if (!found) throw new Error(`No table ${relation.referencedTableName}`);
    return found.tsName;
  }

  /** A table under an alias of its own, with the original it came from. */
  private aliased(table: PgTable) {
    const name = `a${++this.next}`;
    return {
      original: table,
      table: alias(table, name) as unknown as PgTable,
      from: sql`${sql.identifier(getTableName(table))} ${sql.identifier(name)}`,
    };
  }

  /** `target.key = source.key` for each key pair of a relation from source to target. */
  private join(
    relation: Relation,
    source: { original: PgTable; table: PgTable },
    target: { original: PgTable; table: PgTable },
  ): SQL {
    const { fields, references } = normalizeRelation(
      this.relational.schema,
      this.relational.tableNamesMap,
      relation,
    );
    return and(
      ...references.map((reference, index) =>
        eq(
          columnOf(target.table, target.original, reference),
          columnOf(source.table, source.original, fields[index]!),
        ),
      ),
    )!;
  }

  /** The columns and relations of one record as `select` items, under their answer names. */
  selectList(entity: EntityName, table: PgTable, tree: RelationTree): SQL {
    const source = { original: table, table };
    const items: SQL[] = visibleColumns(entity, table).map(
      ([key, column]) => sql`${valueOf(column)} as ${sql.identifier(key)}`,
    );
    for (const [name, subtree] of Object.entries(tree))
      items.push(sql`${this.related(entity, source, name, subtree)} as ${sql.identifier(name)}`);
    return sql.join(items, sql`, `);
  }

  /** One record as a JSON object in its answer's shape. */
  private object(
    entity: EntityName,
    source: { original: PgTable; table: PgTable },
    tree: RelationTree,
    relation: RelationSpec,
  ): SQL {
    const columns = Object.fromEntries(
      visibleColumns(entity, source.original, relation).map(([key]) => [
        key,
        (source.table as unknown as Record<string, PgColumn>)[key]!,
      ]),
    );
    const pairs: SQL[] = Object.entries(columns).map(
      ([key, column]) => sql`${sql.raw(`'${key}'`)}, ${valueOf(column)}`,
    );
    for (const [name, subtree] of Object.entries(tree))
      pairs.push(sql`${sql.raw(`'${name}'`)}, ${this.related(entity, source, name, subtree)}`);
    // json_build_object takes at most 100 arguments; a wider record is merged from parts.
    if (pairs.length <= 50) return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
    const parts: SQL[] = [];
    for (let at = 0; at < pairs.length; at += 50)
      parts.push(sql`jsonb_build_object(${sql.join(pairs.slice(at, at + 50), sql`, `)})`);
    return sql`(${sql.join(parts, sql` || `)})::json`;
  }

  /** A relation of `source` as JSON: an object or null, or a list. */
  private related(
    entity: EntityName,
    source: { original: PgTable; table: PgTable },
    name: string,
    subtree: RelationTree,
  ): SQL {
    const spec = entitySpec(entity).relations[name]!;
    const relation = this.relation(entity, spec.key);
    if (!spec.many) {
      const target = this.aliased(relation.referencedTable);
      return sql`(select ${this.object(spec.target, target, subtree, spec)} from ${target.from} where ${this.join(relation, source, target)} limit 1)`;
    }
    const limit = sql.raw(String(spec.limit ?? MAX_EMBEDDED));
    if (spec.through) {
      // The link rows (at most the limit), each unwrapped to the record it leads to.
      const links = this.aliased(relation.referencedTable);
      const through = this.relation(this.entityOf(relation), spec.through);
      const target = this.aliased(through.referencedTable);
      return sql`(select coalesce(json_agg(x.o), '[]'::json) from (select ${this.object(spec.target, target, subtree, spec)} as o from ${links.from} join ${target.from} on ${this.join(through, links, target)} where ${this.join(relation, source, links)} limit ${limit}) x)`;
    }
    const target = this.aliased(relation.referencedTable);
    const newest = spec.newestFirstBy
      ? (target.table as unknown as Record<string, PgColumn>)[spec.newestFirstBy]
      : undefined;
    if (!newest)
      return sql`(select coalesce(json_agg(x.o), '[]'::json) from (select ${this.object(spec.target, target, subtree, spec)} as o from ${target.from} where ${this.join(relation, source, target)} limit ${limit}) x)`;
    return sql`(select coalesce(json_agg(x.o order by x.k desc), '[]'::json) from (select ${this.object(spec.target, target, subtree, spec)} as o, ${newest} as k from ${target.from} where ${this.join(relation, source, target)} order by ${newest} desc limit ${limit}) x)`;
  }
}

/**
 * The select items of an entity's answers with the relations of `tree`, or undefined when a column of theirs
 * is of a type this module does not write (then the caller keeps drizzle's relational query and shapeRow).
 */
export function answerSelect(
  executor: Executor,
  entity: EntityName,
  table: PgTable,
  tree: RelationTree,
): SQL | undefined {
  const relational = relationalOf(executor);
  let cache = built.get(relational.schema);
  if (!cache) built.set(relational.schema, (cache = new Map<string, SQL | undefined>()));
  const key = `${entity} ${JSON.stringify(tree)}`;
  if (cache.has(key)) return cache.get(key);
  const items = supported(relational, entity, tree)
    ? rendered(new AnswerBuilder(relational).selectList(entity, table, tree))
    : undefined;
  // Trees come from requests: past MAX_BUILT, a new one is built for each call.
  if (cache.size < MAX_BUILT) cache.set(key, items);
  return items;
}

/** The object schema of a field: itself, or the items of a list. */
const objectOf = (schema: unknown): JsonSchema | undefined => {
  if (!schema || typeof schema !== 'object') return undefined;
  const field = schema as JsonSchema;
  const types = Array.isArray(field.type) ? (field.type as unknown[]) : [field.type];
  if (types.includes('array')) return objectOf(field.items);
  return types.includes('object') ? field : undefined;
};

function declares(
  relational: Relational,
  entity: EntityName,
  tree: RelationTree,
  schema: unknown,
  through?: RelationSpec,
): boolean {
  const object = objectOf(schema);
  if (!object) return false;
  // An open object (a looseObject) writes the fields it does not declare as they are.
  const open = object.additionalProperties !== undefined && object.additionalProperties !== false;
  const properties = (object.properties ?? {}) as Record<string, unknown>;
  const hidden = hiddenColumnsOf(entity, through);
  const columns = Object.keys(relational.schema[entity]?.columns ?? {}).filter((key) => !hidden.has(key));
  if (!open && !columns.every((key) => key in properties)) return false;
  const relations = entitySpec(entity).relations;
  return Object.entries(tree).every(([name, subtree]) => {
    const relation = relations[name];
    if (!relation) return false;
    if (open && !(name in properties)) return true;
    return declares(relational, relation.target, subtree, properties[name], relation);
  });
}

/**
 * Whether every field of the answers answerSelect writes for `entity` and `tree` is one the contract's item
 * (`schema`, its JSON Schema) writes too, at every level of relations. The route's writer leaves out what the
 * contract does not declare; an answer the database writes (jsonArray) is sent as it comes, so it may only be
 * used when there is nothing to leave out.
 */
export function declaresEveryField(
  executor: Executor,
  entity: EntityName,
  tree: RelationTree,
  schema: JsonSchema | undefined,
): boolean {
  return declares(relationalOf(executor), entity, tree, schema);
}

/**
 * A select's answers as one JSON array, in the select's order, in one text value: PostgreSQL writes the answer
 * and the server sends it as it comes (decision 058). An aggregate over a sorted subquery takes its rows in
 * that order. Each row is written by row_to_json and joined with bare commas (json_agg would put a newline
 * between them).
 */
export const jsonArray = (query: SQL) =>
  sql`select coalesce('[' || string_agg(row_to_json("answer")::text, ',') || ']', '[]') as "items", count(*)::int as "n" from (${query}) "answer"`;

/**
 * The select items as the text they render to, when they bind no value (columns, aliases and literals only,
 * as the builder writes them): a list's statement is rendered for every request, and walking the answer's
 * whole tree of SQL chunks each time was most of that (decision 045).
 */
function rendered(items: SQL): SQL {
  const query = dialect.sqlToQuery(items);
  return query.params.length === 0 ? sql.raw(query.sql) : items;
}

const faithful = (value: unknown) =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value));

/**
 * A condition as the text and values it renders to, as one string: two conditions of the same key are the same
 * SQL. Undefined when a value has no faithful JSON (a bigint, say), so that no two are ever confused.
 */
export function renderedKey(condition: SQL): string | undefined {
  const { sql: text, params } = dialect.sqlToQuery(condition);
  if (!params.every((param) => faithful(param) || (Array.isArray(param) && param.every(faithful))))
    return undefined;
  return `${text}\n${JSON.stringify(params)}`;
}

/** Select items by schema (a database and its transactions share one), entity and relation tree. */
const built = new WeakMap<TablesRelationalConfig, Map<string, SQL | undefined>>();
const MAX_BUILT = 200;

/** The statements the lists name (prepared once per connection), by their text; the bench reads it too. */
const named = new Map<string, string>();
/** Past this many distinct statements, new ones run unnamed: a connection keeps every statement it prepared. */
const MAX_NAMED = 500;

/** The name a statement of this text is prepared under, or undefined when it runs unnamed. */
export const statementName = (text: string): string | undefined => named.get(text);

function nameFor(text: string): string | undefined {
  const known = named.get(text);
  if (known !== undefined || named.size >= MAX_NAMED) return known;
  const name = `l_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
  named.set(text, name);
  return name;
}

export interface Statement {
  execute: (placeholders?: Row) => Promise<Row[]>;
}

/**
 * Runs SQL on the executor's driver without drizzle's row mapping: rows as the driver returns them, keyed by
 * their column aliases. Named (prepared once per connection) unless `named: false`.
 */
export function statement(executor: Executor, query: SQL, options: { named?: boolean } = {}): Statement {
  const built = dialect.sqlToQuery(query);
  const prepared = executor._.session.prepareQuery(
    built,
    undefined,
    options.named === false ? undefined : nameFor(built.sql),
    false,
  );
  return {
    execute: async (placeholders) => {
      const result = (await prepared.execute(placeholders)) as { rows: Row[] };
      return result.rows;
    },
  };
}
