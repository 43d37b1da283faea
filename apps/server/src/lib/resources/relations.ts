// `relations=a,b.c` → a checked tree → drizzle's `with` → answers with the relations under their public names.
import { badRequest, serviceTexts } from '../errors.js';
import { MAX_EMBEDDED, entitySpec, hiddenColumnsOf, type EntityName, type RelationSpec } from './graph.js';

export interface RelationTree {
  [name: string]: RelationTree;
}

const MAX_RELATION_DEPTH = 3;

/** Parses and checks relation paths against the graph; an unknown one is a 400. */
export function parseRelations(entity: EntityName, values: readonly string[]): RelationTree {
  const tree: RelationTree = {};
  const paths = values
    .flatMap((value) => value.split(','))
    .map((path) => path.trim())
    .filter(Boolean);
  for (const path of paths) {
    const parts = path.split('.');
    if (parts.length > MAX_RELATION_DEPTH) {
      throw badRequest(serviceTexts.relationTooDeep(path), [
        { path: 'relations', message: `At most ${MAX_RELATION_DEPTH} levels` },
      ]);
    }
    let node = tree;
    let current: EntityName = entity;
    for (const part of parts) {
      const spec = Object.hasOwn(entitySpec(current).relations, part)
        ? entitySpec(current).relations[part]
        : undefined;
      if (!spec) {
        throw badRequest(serviceTexts.unknownRelation(path), [
          { path: 'relations', message: `Unknown relation ${path}` },
        ]);
      }
      node[part] ??= {};
      node = node[part];
      current = spec.target;
    }
  }
  return tree;
}

const hiddenColumns = (entity: EntityName, relation?: RelationSpec) => {
  const hidden = hiddenColumnsOf(entity, relation);
  return hidden.size ? Object.fromEntries([...hidden].map((column) => [column, false])) : undefined;
};

export interface QueryShape {
  columns?: Record<string, boolean>;
  with?: Record<string, QueryShape>;
  limit?: number;
  orderBy?: (fields: Record<string, unknown>, operators: { desc: (column: unknown) => unknown }) => unknown;
}

/**
 * drizzle `findMany/findFirst` options for an entity with the asked relations, secrets left out (and, for a
 * record reached through `relation`, what that relation does not show).
 */
export function queryShape(entity: EntityName, tree: RelationTree, relation?: RelationSpec): QueryShape {
  const shape: QueryShape = {};
  const columns = hiddenColumns(entity, relation);
  if (columns) shape.columns = columns;
  const names = Object.keys(tree);
  if (names.length === 0) return shape;
  shape.with = {};
  for (const name of names) {
    const spec = entitySpec(entity).relations[name];
    if (!spec) continue;
    const inner = queryShape(spec.target, tree[name] ?? {}, spec);
    const outer: QueryShape = spec.through ? { with: { [spec.through]: inner } } : inner;
    if (spec.many) {
      outer.limit = spec.limit ?? MAX_EMBEDDED;
      const column = spec.newestFirstBy;
      if (column) outer.orderBy = (fields, { desc }) => desc(fields[column]);
    }
    shape.with[spec.key] = outer;
  }
  return shape;
}

type Row = Record<string, unknown>;

const serialize = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);

/** Turns a drizzle row into an answer: ISO dates, relations under their public names, link rows unwrapped. */
export function shapeRow(entity: EntityName, row: Row, tree: RelationTree): Row {
  const relations = entitySpec(entity).relations;
  const linkKeys = new Set(Object.keys(tree).map((name) => relations[name]?.key));
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) {
    if (!linkKeys.has(key)) out[key] = serialize(value);
  }
  for (const [name, subtree] of Object.entries(tree)) {
    const spec = relations[name];
    if (!spec) continue;
    const value = row[spec.key];
    if (spec.many) {
      const list = Array.isArray(value) ? (value as Row[]) : [];
      out[name] = list
        .map((item) => (spec.through ? (item[spec.through] as Row | null) : item))
        .filter((item): item is Row => item !== null && item !== undefined)
        .map((item) => shapeRow(spec.target, item, subtree));
    } else {
      out[name] = value ? shapeRow(spec.target, value as Row, subtree) : null;
    }
  }
  return out;
}
