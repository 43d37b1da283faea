// The generic engine as a repository: all SQL of a generic resource, stateless, on the executor it is given
// (the database or a transaction). Lists fetch the page's ids first, then embed relations for those rows.
import { createHash } from 'node:crypto';
import { and, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '@/db/client.js';
import type { ResourceDefinition } from './definition.js';
import { buildListSql, type ListCriteria, type SortKey } from './filters.js';
import { parseRelations, queryShape, shapeRow, type RelationTree } from './relations.js';

export type Row = Record<string, unknown>;

export interface ListPage extends ListCriteria {
  relations: string[];
  limit: number;
  offset: number;
  /** false: the page alone, without counting every match. */
  count?: boolean;
}

// drizzle's relational API is keyed by table name; the graph guarantees the key exists.
interface EmbedQuery {
  execute: (placeholders: Row) => Promise<Row[]>;
}
type FindMany = (options: Row) => Promise<Row[]> & {
  prepare: (name?: string) => EmbedQuery;
  toSQL: () => { sql: string };
};
type FindFirst = (options: Row) => Promise<Row | undefined>;
/** Relation trees whose embedding statement one executor keeps prepared (they are few in practice). */
const MAX_PREPARED = 100;
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

  /** One page and the total; `scope` narrows to the records a caller may see. */
  async function list(executor: Executor, page: ListPage, scope?: SQL) {
    const tree = parseRelations(entity, page.relations);
    const { where, orderBy } = buildListSql(definition.list.query, page);
    const filtered = and(where, scope);
    const [rows, [counted]] = await Promise.all([
      Object.keys(tree).length
        ? pageThenEmbed(executor, { where: filtered, orderBy, limit: page.limit, offset: page.offset }, tree)
        : // Without relations, a plain select of the visible columns: the same rows, built for a fraction
          // of what drizzle's relational builder costs (decision 045).
          executor
            .select(plainColumns)
            .from(table)
            .where(filtered)
            .orderBy(...orderBy)
            .limit(page.limit)
            .offset(page.offset),
      page.count === false
        ? Promise.resolve([null])
        : executor
            .select({ total: sql<number>`count(*)::int` })
            .from(table)
            .where(filtered),
    ]);
    const total = counted === null ? null : (counted?.total ?? 0);
    return { items: rows.map((row) => shapeRow(entity, row, tree) as Item), total };
  }

  /**
   * Finds the page's ids first, then embeds relations for those rows only: in one statement PostgreSQL
   * would build every row's relations before sorting and cutting the page.
   */
  async function pageThenEmbed(
    executor: Executor,
    page: { where: SQL | undefined; orderBy: SQL[]; limit: number; offset: number },
    tree: RelationTree,
  ) {
    const ids = (
      (await executor
        .select({ id: idColumn })
        .from(table)
        .where(page.where)
        .orderBy(...page.orderBy)
        .limit(page.limit)
        .offset(page.offset)) as { id: string }[]
    ).map((row) => row.id);
    return embed(executor, ids, tree);
  }

  /**
   * The statement that embeds a relation tree for a page of ids, built once per tree and executor: the ids are
   * one array parameter (`= any($1)`), so its text is the same for any page, and on PostgreSQL it is a named
   * statement each connection parses once. Building it is what drizzle spent most of a list's CPU time on
   * (decision 045). Past MAX_PREPARED trees, one is built for each call, as before.
   */
  const prepared = new WeakMap<Executor, Map<string, EmbedQuery>>();
  const idArray = sql`${idColumn} = any(${sql.placeholder('ids')}::${sql.raw(idColumn.getSQLType())}[])`;
  function embedQuery(executor: Executor, tree: RelationTree): EmbedQuery {
    let cache = prepared.get(executor);
    if (!cache) prepared.set(executor, (cache = new Map<string, EmbedQuery>()));
    const key = JSON.stringify(tree);
    const known = cache.get(key);
    if (known) return known;
    const query = relational(executor, entity).findMany({ ...queryShape(entity, tree), where: idArray });
    if (cache.size >= MAX_PREPARED) return query.prepare();
    const name = `embed_${createHash('sha256').update(query.toSQL().sql).digest('base64url').slice(0, 24)}`;
    const made = query.prepare(name);
    cache.set(key, made);
    return made;
  }

  /** The records of `ids` with their relations, in the order of `ids`. */
  async function embed(executor: Executor, ids: string[], tree: RelationTree) {
    if (ids.length === 0) return [];
    const rows = await embedQuery(executor, tree).execute({ ids });
    const position = new Map(ids.map((id, index) => [id, index]));
    return rows.sort((a, b) => position.get(a.id as string)! - position.get(b.id as string)!);
  }

  /**
   * Every record of a list, in its order, one page at a time: what a CSV export streams. Each page is its own
   * query (no transaction held while the client reads). A list in one sort key continues after the last row
   * it wrote (keyset), which an index on (column, id) serves directly; a list in several keys pages by offset.
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
    const page = async (condition: SQL | undefined, offset: number, key?: SortKey) =>
      (await executor
        // The sort value as text, cast back when compared: a timestamp keeps its microseconds that way.
        .select({ id: idColumn, ...(key ? { sortValue: sql<string | null>`${key.column}::text` } : {}) })
        .from(table)
        .where(and(filtered, condition))
        .orderBy(...orderBy)
        .limit(pageSize)
        .offset(offset)) as { id: string; sortValue?: string | null }[];

    const key = keys.length === 1 ? keys[0] : undefined;
    if (!key) {
      for (let offset = 0; ; offset += pageSize) {
        const found = await page(undefined, offset);
        if (found.length) yield await shaped(executor, found, tree);
        if (found.length < pageSize) return;
      }
    }
    // PostgreSQL puts NULLs last ascending and first descending; each part is walked on its own, so every
    // condition is a plain range the (column, id) index answers.
    const { column, direction } = key;
    const nullable = !column.notNull;
    const parts: ('values' | 'nulls')[] = !nullable
      ? ['values']
      : direction === 'asc'
        ? ['values', 'nulls']
        : ['nulls', 'values'];
    const beyond = direction === 'asc' ? sql`>` : sql`<`;
    for (const part of parts) {
      const within =
        part === 'nulls' ? sql`${column} is null` : nullable ? sql`${column} is not null` : undefined;
      let after: SQL | undefined;
      for (;;) {
        const found = await page(and(within, after), 0, key);
        if (found.length) yield await shaped(executor, found, tree);
        if (found.length < pageSize) break;
        const last = found[found.length - 1]!;
        after =
          part === 'nulls'
            ? sql`${idColumn} ${beyond} ${last.id}`
            : sql`(${column}, ${idColumn}) ${beyond} (cast(${last.sortValue} as ${sql.raw(column.getSQLType())}), ${last.id})`;
      }
    }
  }

  async function shaped(executor: Executor, found: { id: string }[], tree: RelationTree) {
    const rows = await embed(
      executor,
      found.map((row) => row.id),
      tree,
    );
    return rows.map((row) => shapeRow(entity, row, tree) as Item);
  }

  /** The record with the asked relations embedded; undefined when there is none (in scope). */
  async function find(executor: Executor, id: string, relations: readonly string[], scope?: SQL) {
    const tree = parseRelations(entity, relations);
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
