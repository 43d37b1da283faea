// The generic engine as a repository: all SQL of a generic resource, stateless, on the executor it is given
// (the database or a transaction). Lists fetch the page's ids first, then embed relations for those rows.
import { createHash } from 'node:crypto';
import { and, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '@/db/client.js';
import { responseJsonSchema } from '../response-serializer.js';
import {
  answerSelect,
  declaresEveryField,
  jsonArray,
  renderedKey,
  statement,
  type Statement,
} from './answer-sql.js';
import type { ResourceDefinition } from './definition.js';
import {
  asPlaceholder,
  buildListSql,
  listSql,
  listValues,
  readListCriteria,
  type ListCriteria,
  type ReadCriteria,
  type SortKey,
} from './filters.js';
import { parseRelations, queryShape, shapeRow, type RelationTree } from './relations.js';

export type Row = Record<string, unknown>;

const idsOf = (rows: readonly Row[]) => rows.map((row) => row.id as string);
const countOf = (rows: readonly Row[]) => (rows[0]?.total as number | undefined) ?? 0;

export interface ListPage extends ListCriteria {
  relations: string[];
  limit: number;
  offset: number;
  /** false: the page alone, without counting every match. */
  count?: boolean;
}

// drizzle's relational API is keyed by table name; the graph guarantees the key exists.
type EmbedQuery = Statement;
type FindMany = (options: Row) => Promise<Row[]> & {
  prepare: (name?: string) => EmbedQuery;
  toSQL: () => { sql: string };
};
type FindFirst = (options: Row) => Promise<Row | undefined>;
/** Relation trees whose embedding statement one executor keeps prepared (they are few in practice). */
const MAX_PREPARED = 100;
/** List shapes whose statements one executor keeps rendered; past it, the least recently used is forgotten. */
const MAX_SHAPES = 200;

/** A sort key as one part of an export walks it: whether the column can hold NULL there. */
type PageKey = SortKey & { nullable: boolean };

/** What a page asks (shapeOf): undefined items when a column of its answers is one answerSelect cannot write. */
interface ListShape {
  tree: RelationTree;
  read: ReadCriteria;
  /** The criteria's values by placeholder name (listValues), frozen: a remembered shape serves many requests. */
  values: Readonly<Record<string, unknown>>;
  items: SQL | undefined;
}

interface ListStatements {
  /** The page's ids (to embed relations for), or the page's answers when no relation is asked. */
  page: Statement;
  count: Statement | null;
}

/**
 * How a list's answers come from the database: as rows (one object per record), or as the page's JSON array,
 * written by PostgreSQL in one text value that the route sends as it comes (decision 058).
 */
type AnswerForm = 'rows' | 'json';

/** A page of answers as the JSON text of their array, and the total (null when not counted). */
export interface JsonPage {
  items: string;
  total: number | null;
}
const relational = (executor: Executor, entity: string) =>
  (executor.query as unknown as Record<string, { findMany: FindMany; findFirst: FindFirst }>)[entity]!;

export function createResourceRepository<Create, Update, Item>(
  definition: ResourceDefinition<Create, Update, Item>,
) {
  const { entity, table, idColumn } = definition;
  const byId = (id: string, scope?: SQL) => and(eq(idColumn, id), scope);
  const hidden = queryShape(entity, {}).columns ?? {};
  const plainColumns = Object.fromEntries(
    Object.entries(getTableColumns(table)).filter(([key]) => hidden[key] !== false),
  );

  /**
   * What a page asks, read once: its relation tree, its criteria, their values by placeholder name, and its
   * answers' select items. A page the query validator froze (lib/query-validator.ts) is the same object for
   * every request with the same query, so what it asks is read once per query (and database handle).
   */
  const shapes = new WeakMap<Executor, WeakMap<ListPage, ListShape>>();
  function shapeOf(executor: Executor, page: ListPage): ListShape {
    const remembered = Object.isFrozen(page);
    let known = remembered ? shapes.get(executor) : undefined;
    const shape = known?.get(page);
    if (shape) return shape;
    const tree = parseRelations(entity, page.relations);
    const read = readListCriteria(definition.list.query, page);
    const values = Object.freeze(listValues(definition.list.query, read));
    const made = { tree, read, values, items: answerSelect(executor, entity, table, tree) };
    if (remembered) {
      if (!known) shapes.set(executor, (known = new WeakMap<ListPage, ListShape>()));
      known.set(page, made);
    }
    return made;
  }

  /** One page and the total; `scope` narrows to the records a caller may see. */
  async function list(executor: Executor, page: ListPage, scope?: SQL) {
    const { tree, read, values, items } = shapeOf(executor, page);
    if (!items) {
      const { where, orderBy } = listSql(definition.list.query, read);
      return listThroughDrizzle(executor, page, tree, and(where, scope), orderBy);
    }
    const { rows, total } = await listIn('rows', executor, page, { tree, read, values, items }, scope);
    return { items: rows as Item[], total };
  }

  /**
   * One page as the JSON text of its answers' array, written by the database (decision 058), and the total;
   * undefined when the database cannot write its answers as the route's writer would: a column answerSelect
   * does not write, or a field the contract leaves out (then the caller lists rows and the writer writes them).
   */
  async function listJson(executor: Executor, page: ListPage, scope?: SQL): Promise<JsonPage | undefined> {
    const { tree, read, values, items } = shapeOf(executor, page);
    if (!items || !writtenAsDeclared(executor, tree)) return undefined;
    const { rows, total } = await listIn('json', executor, page, { tree, read, values, items }, scope);
    return { items: (rows[0]?.items as string | undefined) ?? '[]', total };
  }

  const itemSchema = responseJsonSchema(definition.schemas.item);
  const declared = new Map<string, boolean>();
  /** Whether the database's answers for a relation tree hold only what the contract's item declares. */
  function writtenAsDeclared(executor: Executor, tree: RelationTree): boolean {
    const key = JSON.stringify(tree);
    const known = declared.get(key);
    if (known !== undefined) return known;
    const found = declaresEveryField(executor, entity, tree, itemSchema);
    if (declared.size < MAX_SHAPES) declared.set(key, found);
    return found;
  }

  async function listIn(
    form: AnswerForm,
    executor: Executor,
    page: ListPage,
    shape: ListShape & { items: SQL },
    scope: SQL | undefined,
  ) {
    const { tree, values } = shape;
    const statements = listStatements(executor, shape, page.count !== false, scope, form);
    // The page first. A page shorter than its limit, and not past the end, tells the total; only a full page,
    // or an empty one past the first, counts every match (decision 059): beside embedding its relations in rows
    // form, after the page in json form, whose one statement has embedded them already (decision 069).
    const found = await statements.page.execute({ ...values, limit: page.limit, offset: page.offset });
    // In json form, one row: the page's JSON array, relations included, and its length.
    const shown = form === 'json' ? (found[0]!.n as number) : found.length;
    const told = shown < page.limit && (shown > 0 || page.offset === 0);
    const total = async () => {
      if (!statements.count) return null;
      return told ? page.offset + shown : countOf(await statements.count.execute(values));
    };
    if (form === 'json' || !Object.keys(tree).length) return { rows: found, total: await total() };
    const [rows, counted] = await Promise.all([embed(executor, idsOf(found), tree), total()]);
    return { rows: rows as Row[], total: counted };
  }

  /**
   * A list's statements, rendered once per shape (decision 052): the criteria's paths, sort and bounds, the
   * relations, whether it counts, and the caller's scope as it renders (text and values). Walking drizzle's SQL
   * tree to render the statement was the largest part of a list's own work; a request of a known shape only
   * binds its values (the shape's, and the page's limit and offset).
   */
  const rendered = new WeakMap<Executor, Map<string, ListStatements>>();
  function listStatements(
    executor: Executor,
    { read, tree, items }: { read: ReadCriteria; tree: RelationTree; items: SQL },
    counted: boolean,
    scope: SQL | undefined,
    form: AnswerForm,
  ): ListStatements {
    const scopeKey = scope ? renderedKey(scope) : '';
    let cache = rendered.get(executor);
    if (!cache) rendered.set(executor, (cache = new Map<string, ListStatements>()));
    // A scope whose values cannot be told apart as text is rendered for each call, never shared.
    const key =
      scopeKey === undefined
        ? undefined
        : `${form}\n${JSON.stringify(tree)}\n${counted}\n${read.shape}\n${scopeKey}`;
    const known = key === undefined ? undefined : cache.get(key);
    if (known) {
      // Most recently used last: the first entry is the one forgotten when the cache is full.
      cache.delete(key!);
      cache.set(key!, known);
      return known;
    }
    const { where, orderBy } = listSql(definition.list.query, read, asPlaceholder);
    const filtered = and(where, scope);
    const whereClause = filtered ? sql` where ${filtered}` : sql``;
    const ordered = sql`${whereClause} order by ${sql.join(orderBy, sql`, `)} limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}`;
    const answers = sql`select ${items} from ${table}${ordered}`;
    const ids = sql`select ${idColumn} as "id" from ${table}${ordered}`;
    const relations = Object.keys(tree).length > 0;
    const rows = relations ? ids : answers;
    // In json form, one row: the page's JSON array and its length. With relations, one statement still: the
    // page's ids, sorted and cut, then each one's answer with its relations, in the ids' order. Relations are
    // built for the page's records only, and the server makes one round trip instead of two (decision 069).
    const json = jsonArray(relations ? inPageOrder(items, sql`array(${ids})`) : answers);
    const made: ListStatements = {
      page: statement(executor, form === 'json' ? json : rows),
      count: counted
        ? statement(executor, sql`select count(*)::int as "total" from ${table}${whereClause}`)
        : null,
    };
    if (key !== undefined) {
      if (cache.size >= MAX_SHAPES) cache.delete(cache.keys().next().value!);
      cache.set(key, made);
    }
    return made;
  }

  /** The list through drizzle's builders and shapeRow: for an answer with a column answerSelect cannot write. */
  async function listThroughDrizzle(
    executor: Executor,
    page: ListPage,
    tree: RelationTree,
    filtered: SQL | undefined,
    orderBy: SQL[],
  ) {
    const [rows, [counted]] = await Promise.all([
      Object.keys(tree).length
        ? pageThenEmbed(executor, { where: filtered, orderBy, limit: page.limit, offset: page.offset }, tree)
        : executor
            .select(plainColumns)
            .from(table)
            .where(filtered)
            .orderBy(...orderBy)
            .limit(page.limit)
            .offset(page.offset)
            .then((found) => found.map((row) => shapeRow(entity, row, tree) as Item)),
      page.count === false
        ? Promise.resolve([null])
        : executor
            .select({ total: sql<number>`count(*)::int` })
            .from(table)
            .where(filtered),
    ]);
    const total = counted === null ? null : (counted?.total ?? 0);
    return { items: rows, total };
  }

  /**
   * Finds the page's ids first, then embeds relations for those rows only: a plain select with relations, sorted
   * and cut, would build every matching row's relations before sorting and cutting the page. (The written form
   * does both in one statement, the page cut inside `array(…)` first: decision 069.)
   */
  async function pageThenEmbed(
    executor: Executor,
    page: { where: SQL | undefined; orderBy: SQL[]; limit: number; offset: number },
    tree: RelationTree,
  ) {
    const ids = idsOf(
      await executor
        .select({ id: idColumn })
        .from(table)
        .where(page.where)
        .orderBy(...page.orderBy)
        .limit(page.limit)
        .offset(page.offset),
    );
    return embed(executor, ids, tree);
  }

  /**
   * The statement that embeds a relation tree for a page of ids, built once per tree and executor: the ids are
   * one array parameter (`= any($1)`), so its text is the same for any page, and on PostgreSQL it is a named
   * statement each connection parses once. Its rows are the answers (answer-sql.ts); for a tree with a column
   * it cannot write, drizzle's relational query and shapeRow. Past MAX_PREPARED trees, one is built per call.
   */
  const prepared = new WeakMap<Executor, Map<string, EmbedQuery>>();
  const idsParameter = sql`${sql.placeholder('ids')}::${sql.raw(idColumn.getSQLType())}[]`;
  const idArray = sql`${idColumn} = any(${idsParameter})`;
  function embedQuery(executor: Executor, tree: RelationTree): EmbedQuery {
    let cache = prepared.get(executor);
    if (!cache) prepared.set(executor, (cache = new Map<string, EmbedQuery>()));
    const key = JSON.stringify(tree);
    const known = cache.get(key);
    if (known) return known;
    const made = buildEmbedQuery(executor, tree, cache.size < MAX_PREPARED);
    if (cache.size < MAX_PREPARED) cache.set(key, made);
    return made;
  }

  function buildEmbedQuery(executor: Executor, tree: RelationTree, named: boolean): EmbedQuery {
    const items = answerSelect(executor, entity, table, tree);
    if (items) return statement(executor, sql`select ${items} from ${table} where ${idArray}`, { named });
    const query = relational(executor, entity).findMany({ ...queryShape(entity, tree), where: idArray });
    const name = `embed_${createHash('sha256').update(query.toSQL().sql).digest('base64url').slice(0, 24)}`;
    const made = named ? query.prepare(name) : query.prepare();
    return {
      execute: async (placeholders) =>
        (await made.execute(placeholders)).map((row) => shapeRow(entity, row, tree)),
    };
  }

  /** The answers of the records of `ids` with their relations, in the order of `ids`. */
  async function embed(executor: Executor, ids: string[], tree: RelationTree): Promise<Item[]> {
    if (ids.length === 0) return [];
    const rows = await embedQuery(executor, tree).execute({ ids });
    const position = new Map(ids.map((id, index) => [id, index]));
    return rows.sort((a, b) => position.get(a.id as string)! - position.get(b.id as string)!) as Item[];
  }

  /**
   * The answers of the records whose ids `ids` (an array expression) holds, in the array's order: their position
   * in it, kept by `with ordinality`.
   */
  const inPageOrder = (items: SQL, ids: SQL) =>
    sql`select ${items} from unnest(${ids}) with ordinality as "page"("id", "at") join ${table} on ${idColumn} = "page"."id" order by "page"."at"`;

  /**
   * Every record of a list, in its order, one page at a time: what a CSV export streams. Each page is its own
   * query (no transaction held while the client reads), and continues after the last row it wrote (keyset):
   * `pageAfter` reads it again from its sort values and id. An index on the sort's columns and the id serves
   * each page from where the last one stopped (when a later key can hold NULL, from the first key's value:
   * the rows that share it with the last row, a family's for a name, are read again), not from the list's start.
   */
  async function* pages(
    executor: Executor,
    criteria: ListCriteria & { relations: string[] },
    scope?: SQL,
    pageSize = 1000,
  ): AsyncGenerator<Item[]> {
    const tree = parseRelations(entity, criteria.relations);
    const { where, orderBy, keys } = buildListSql(definition.list.query, criteria);
    const filtered = and(where, scope);
    // Each sort value as text, cast back when compared: a timestamp keeps its microseconds that way.
    const sortValues = Object.fromEntries(
      keys.map(({ column }, n) => [`k${n}`, sql<string | null>`${column}::text`]),
    );
    const page = async (condition: SQL | undefined) =>
      (await executor
        .select({ id: idColumn, ...sortValues })
        .from(table)
        .where(and(filtered, condition))
        .orderBy(...orderBy)
        .limit(pageSize)) as ({ id: string } & Record<string, string | null>)[];

    const readAhead = (condition: SQL | undefined) => {
      const found = page(condition);
      const items = found.then((rows) => shaped(executor, rows, tree));
      // A reader that stops early (a download cancelled) leaves the page read ahead unread (its statements run
      // to their end): its failure, if any, concerns no one. A reader that goes on meets it where it awaits it.
      items.catch(() => undefined);
      return { found, items };
    };

    // PostgreSQL puts NULLs last ascending and first descending. A key that can hold NULL is walked in two
    // parts: its values (where it holds none, so that a page starts from a plain bound on it, which the index
    // answers), and its NULLs (where it says nothing, and the next keys order the rows, walked the same way).
    const tieBreak = keys[keys.length - 1]!.direction;
    async function* walk(from: number, within: SQL | undefined): AsyncGenerator<Item[]> {
      const key = keys[from];
      if (!key || key.column.notNull) {
        yield* walkPart(from, within);
        return;
      }
      const values = walkPart(from, and(within, sql`${key.column} is not null`));
      const nulls = walk(from + 1, and(within, sql`${key.column} is null`));
      for (const part of key.direction === 'asc' ? [values, nulls] : [nulls, values]) yield* part;
    }
    // The keys from `from` on, the first of them holding no NULL here.
    async function* walkPart(from: number, within: SQL | undefined): AsyncGenerator<Item[]> {
      const partKeys: PageKey[] = keys
        .slice(from)
        .map((key, n) => ({ ...key, nullable: n > 0 && !key.column.notNull }));
      // One page read ahead: while the reader writes a page out, the next is read (its ids as soon as this
      // page's ids are known, its records beside this page's).
      let current = readAhead(within);
      for (;;) {
        const found = await current.found;
        const last = found.length === pageSize ? found[found.length - 1]! : undefined;
        const next =
          last &&
          readAhead(
            and(
              within,
              pageAfter(
                partKeys,
                partKeys.map((_, n) => last[`k${n + from}`] ?? null),
                last.id,
                tieBreak,
              ),
            ),
          );
        const items = await current.items;
        if (items.length) yield items;
        if (!next) return;
        current = next;
      }
    }
    yield* walk(0, undefined);
  }

  /**
   * The rows after the one whose sort values are `values` (as text) and whose id is `id`, in the order of `keys`,
   * then the id in `tieBreak`'s direction: each key in its direction, NULLs where PostgreSQL puts them. Keys that
   * hold no NULL and run one way compare as one row, which an index on the keys and the id serves as a range;
   * otherwise each key in turn, with the first key's value as the range's start when that key holds no NULL.
   */
  function pageAfter(
    keys: readonly PageKey[],
    values: readonly (string | null)[],
    id: string,
    tieBreak: SortKey['direction'],
  ): SQL {
    const typed = (column: PgColumn, value: string) => sql`cast(${value} as ${sql.raw(column.getSQLType())})`;
    const beyond = (way: SortKey['direction']) => (way === 'asc' ? sql`>` : sql`<`);
    if (keys.every((key) => !key.nullable && key.direction === tieBreak)) {
      const columns = sql.join([...keys.map((key) => key.column), idColumn], sql`, `);
      const row = sql.join([...keys.map((key, n) => typed(key.column, values[n]!)), sql`${id}`], sql`, `);
      return sql`(${columns}) ${beyond(tieBreak)} (${row})`;
    }
    let later = sql`${idColumn} ${beyond(tieBreak)} ${id}`;
    for (let n = keys.length - 1; n >= 0; n--) {
      const { column, direction, nullable } = keys[n]!;
      const value = values[n] ?? null;
      const same = value === null ? sql`${column} is null` : sql`${column} = ${typed(column, value)}`;
      // After a value: the values beyond it, and NULLs when they come last (ascending). After NULL: the values
      // when NULLs come first (descending), else nothing.
      const further =
        value === null
          ? direction === 'desc'
            ? sql`${column} is not null`
            : undefined
          : direction === 'asc' && nullable
            ? sql`(${column} > ${typed(column, value)} or ${column} is null)`
            : sql`${column} ${beyond(direction)} ${typed(column, value)}`;
      later = further ? sql`(${further} or (${same} and ${later}))` : sql`(${same} and ${later})`;
    }
    const [first] = keys;
    const start = values[0];
    if (!first || first.nullable || start === null || start === undefined) return later;
    const from = first.direction === 'asc' ? sql`>=` : sql`<=`;
    return and(sql`${first.column} ${from} ${typed(first.column, start)}`, later)!;
  }

  const shaped = (executor: Executor, found: { id: string }[], tree: RelationTree) =>
    embed(executor, idsOf(found), tree);

  /** The record with the asked relations embedded; undefined when there is none (in scope). */
  async function find(executor: Executor, id: string, relations: readonly string[], scope?: SQL) {
    const tree = parseRelations(entity, relations);
    const items = answerSelect(executor, entity, table, tree);
    if (items) {
      const [row] = await statement(
        executor,
        sql`select ${items} from ${table} where ${byId(id, scope)}`,
      ).execute();
      return row as Item | undefined;
    }
    const row = await relational(executor, entity).findFirst({
      ...queryShape(entity, tree),
      where: byId(id, scope),
    });
    return row ? (shapeRow(entity, row, tree) as Item) : undefined;
  }

  /** The stored row, locked until the transaction ends; undefined when there is none (in scope). */
  async function lock(executor: Executor, id: string, scope?: SQL): Promise<Row | undefined> {
    const [row] = (await executor.select().from(table).where(byId(id, scope)).for('update')) as Row[];
    return row;
  }

  async function insert(executor: Executor, values: Row): Promise<string> {
    const [inserted] = (await executor.insert(table).values(values).returning({ id: idColumn })) as {
      id: string;
    }[];
    return inserted!.id;
  }

  async function update(executor: Executor, id: string, values: Row) {
    if (Object.keys(values).length) await executor.update(table).set(values).where(eq(idColumn, id));
  }

  /** Replaces the link lists that were sent; lists not sent are left alone. */
  async function replaceLinks(executor: Executor, id: string, links: Readonly<Record<string, string[]>>) {
    for (const [field, ids] of Object.entries(links)) {
      const link = definition.links[field];
      if (!link) continue;
      await executor.delete(link.table).where(eq(link.ownerColumn, id));
      if (ids.length) {
        await executor
          .insert(link.table)
          .values(ids.map((targetId) => ({ [link.ownerKey]: id, [link.targetKey]: targetId })));
      }
    }
  }

  /** The deleted row, or undefined when there was no record (in scope). */
  async function remove(executor: Executor, id: string, scope?: SQL): Promise<Row | undefined> {
    const [deleted] = (await executor.delete(table).where(byId(id, scope)).returning()) as Row[];
    return deleted;
  }

  /** Ids among `ids` that have no record: for checks that name the missing ones. */
  const missingIds = (executor: Executor, ids: readonly string[]) =>
    absentIds(executor, table, idColumn, ids);

  /** Ids a link list names that have no record to link. */
  const missingLinkedIds = (executor: Executor, field: string, ids: readonly string[]) => {
    const target = definition.links[field]!.target.table;
    return absentIds(executor, target, target.id, ids);
  };

  return {
    definition,
    list,
    listJson,
    pages,
    find,
    lock,
    insert,
    update,
    replaceLinks,
    remove,
    missingIds,
    missingLinkedIds,
  };
}

async function absentIds(executor: Executor, table: PgTable, idColumn: PgColumn, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const found = (await executor
    .select({ id: idColumn })
    .from(table)
    .where(inArray(idColumn, [...ids]))) as { id: string }[];
  const present = new Set(found.map((row) => row.id));
  return ids.filter((id) => !present.has(id));
}

export type ResourceRepository<Create = unknown, Update = unknown, Item = unknown> = ReturnType<
  typeof createResourceRepository<Create, Update, Item>
>;
