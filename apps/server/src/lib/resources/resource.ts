// A generic resource: list, read, create, partial update and delete, each write audited in its transaction.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/client.js';
import { audit, type ActionContext } from '../../modules/audit/audit.service.js';
import { notFound } from '../errors.js';
import { buildListSql, type ListCriteria, type ResourceQuerySpec } from './filters.js';
import type { EntityName } from './graph.js';
import { parseRelations, queryShape, shapeRow, type RelationTree } from './relations.js';

type Row = Record<string, unknown>;

/** A many-to-many field written as a list of ids: `employers: [uuid, ...]`. */
export interface LinkSpec {
  table: PgTable;
  ownerKey: string;
  ownerColumn: PgColumn;
  targetKey: string;
}

export interface WritePlan {
  values: Row;
  links: Record<string, string[]>;
}

export interface ResourceDefinition<Create = unknown, Update = unknown> {
  /** Name in the audit log and the OpenAPI tags. */
  name: string;
  entity: EntityName;
  table: PgTable;
  idColumn: PgColumn;
  /** Mount point, e.g. `/api/users`. */
  path: string;
  schemas: { create: z.ZodType<Create>; update: z.ZodType<Update>; item: z.ZodType };
  query: ResourceQuerySpec;
  links?: Record<string, LinkSpec>;
  /** Body fields that name a related record by id: `{ patientProfile: 'patientProfileId' }`. */
  references?: Record<string, string>;
  /** Column filled with the caller's user id on create when the body does not name one. */
  createdByColumn?: string;
  /** Extra columns derived from the body (for example a hashed secret); runs after the plain mapping. */
  derive?: (body: Row, mode: 'create' | 'update', context: ActionContext) => Row | Promise<Row>;
  /** Checks that need the stored record or other records; throw AppError to refuse. */
  check?: (
    executor: Executor,
    plan: WritePlan,
    mode: 'create' | 'update',
    existing: Row | null,
  ) => Promise<void>;
}

export interface ReadOptions {
  relations: string[];
}

/** The plain mapping of a body onto columns: references renamed, link lists set apart. */
export function planWrite(definition: ResourceDefinition, body: Row): WritePlan {
  const values: Row = {};
  const links: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (definition.links && Object.hasOwn(definition.links, key)) {
      links[key] = [...new Set(value as string[])];
    } else if (definition.references && Object.hasOwn(definition.references, key)) {
      values[definition.references[key] as string] = value;
    } else {
      values[key] = value;
    }
  }
  return { values, links };
}

// drizzle's relational API is keyed by table name; the graph guarantees the key exists.
type FindMany = (options: Row) => Promise<Row[]>;
type FindFirst = (options: Row) => Promise<Row | undefined>;
const relational = (db: Executor, entity: EntityName) =>
  (db.query as unknown as Record<string, { findMany: FindMany; findFirst: FindFirst }>)[entity]!;

export function createResourceService(db: Database, definition: ResourceDefinition) {
  const { entity, table, idColumn } = definition;

  async function list(criteria: ListCriteria & { relations: string[]; limit: number; offset: number }) {
    const tree = parseRelations(entity, criteria.relations);
    const { where, orderBy } = buildListSql(definition.query, criteria);
    const page = { where, orderBy, limit: criteria.limit, offset: criteria.offset };
    const [rows, [counted]] = await Promise.all([
      Object.keys(tree).length
        ? pageThenEmbed(page, tree)
        : relational(db, entity).findMany({ ...queryShape(entity, tree), ...page }),
      db
        .select({ total: sql<number>`count(*)::int` })
        .from(table)
        .where(where),
    ]);
    return {
      items: rows.map((row) => shapeRow(entity, row, tree)),
      total: counted?.total ?? 0,
      limit: criteria.limit,
      offset: criteria.offset,
    };
  }

  /**
   * Finds the page's ids first, then embeds relations for those rows only: in one statement PostgreSQL
   * would build every row's relations before sorting and cutting the page.
   */
  async function pageThenEmbed(
    page: { where: SQL | undefined; orderBy: SQL[]; limit: number; offset: number },
    tree: RelationTree,
  ) {
    const ids = (
      (await db
        .select({ id: idColumn })
        .from(table)
        .where(page.where)
        .orderBy(...page.orderBy)
        .limit(page.limit)
        .offset(page.offset)) as { id: string }[]
    ).map((row) => row.id);
    if (ids.length === 0) return [];
    const rows = await relational(db, entity).findMany({
      ...queryShape(entity, tree),
      where: inArray(idColumn, ids),
    });
    const position = new Map(ids.map((id, index) => [id, index]));
    return rows.sort((a, b) => position.get(a.id as string)! - position.get(b.id as string)!);
  }

  async function read(id: string, options: ReadOptions, executor: Executor = db) {
    const tree = parseRelations(entity, options.relations);
    const row = await relational(executor, entity).findFirst({
      ...queryShape(entity, tree),
      where: eq(idColumn, id),
    });
    if (!row) throw notFound(definition.name.replace(/s$/, ''));
    return shapeRow(entity, row, tree);
  }

  async function writeLinks(executor: Executor, id: string, links: Record<string, string[]>) {
    for (const [field, ids] of Object.entries(links)) {
      const link = definition.links?.[field];
      if (!link) continue;
      await executor.delete(link.table).where(eq(link.ownerColumn, id));
      if (ids.length) {
        await executor
          .insert(link.table)
          .values(ids.map((targetId) => ({ [link.ownerKey]: id, [link.targetKey]: targetId })));
      }
    }
  }

  async function plan(body: Row, mode: 'create' | 'update', context: ActionContext) {
    const planned = planWrite(definition, body);
    if (definition.derive) Object.assign(planned.values, await definition.derive(body, mode, context));
    return planned;
  }

  async function create(body: Row, context: ActionContext) {
    const planned = await plan(body, 'create', context);
    if (definition.createdByColumn && planned.values[definition.createdByColumn] === undefined) {
      planned.values[definition.createdByColumn] = context.caller?.userId ?? null;
    }
    const id = await db.transaction(async (tx) => {
      await definition.check?.(tx, planned, 'create', null);
      const [inserted] = (await tx.insert(table).values(planned.values).returning({ id: idColumn })) as {
        id: string;
      }[];
      const newId = inserted!.id;
      await writeLinks(tx, newId, planned.links);
      await audit(tx, context, 'create', definition.name, newId, body);
      return newId;
    });
    return read(id, { relations: [] });
  }

  async function update(id: string, body: Row, context: ActionContext) {
    const planned = await plan(body, 'update', context);
    await db.transaction(async (tx) => {
      const [existing] = (await tx.select().from(table).where(eq(idColumn, id)).for('update')) as Row[];
      if (!existing) throw notFound(definition.name.replace(/s$/, ''));
      await definition.check?.(tx, planned, 'update', existing);
      if (Object.keys(planned.values).length) {
        await tx.update(table).set(planned.values).where(eq(idColumn, id));
      }
      await writeLinks(tx, id, planned.links);
      await audit(tx, context, 'update', definition.name, id, body);
    });
    return read(id, { relations: [] });
  }

  async function remove(id: string, context: ActionContext) {
    await db.transaction(async (tx) => {
      const deleted = await tx.delete(table).where(eq(idColumn, id)).returning({ id: idColumn });
      if (deleted.length === 0) throw notFound(definition.name.replace(/s$/, ''));
      await audit(tx, context, 'delete', definition.name, id);
    });
  }

  /** Ids among `ids` that have no record: for checks that name the missing ones. */
  async function missingIds(executor: Executor, ids: string[]) {
    if (ids.length === 0) return [];
    const found = (await executor
      .select({ id: idColumn })
      .from(table)
      .where(and(inArray(idColumn, ids)))) as { id: string }[];
    const present = new Set(found.map((row) => row.id));
    return ids.filter((id) => !present.has(id));
  }

  return { definition, list, read, create, update, remove, missingIds };
}

export type ResourceService = ReturnType<typeof createResourceService>;
