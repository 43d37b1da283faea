// The engine's side of the declared links (db/schema/links.ts): for a table, the lists of linked records its
// records have. From them come the graph's many-to-many relations (graph.ts), the resource's writes of link
// lists (repository.ts), the `<list>.id` filters (filters.ts) and the check that linked records exist.
import { getTableName, is } from 'drizzle-orm';
import { PgTable, type AnyPgColumn } from 'drizzle-orm/pg-core';
import * as schema from '@/db/schema/index.js';
import { declaredLinks, type LinkableTable, type LinkedLists } from '@/db/schema/links.js';
import { badRequest, serviceTexts } from '../errors.js';

/** A list of linked records, seen from the table whose records have it (a user's `employers`). */
export interface LinkList {
  /** The body field, the relation `relations=` names and the filter `<name>.id`. */
  name: string;
  /** The join table; its column towards the record that has the list, and towards a listed record. */
  table: PgTable;
  ownerColumn: AnyPgColumn;
  ownerKey: string;
  targetColumn: AnyPgColumn;
  targetKey: string;
  /** The listed records: their table, their entity in the relation graph, and one of them in messages. */
  target: { table: LinkableTable; entity: string; noun: string };
  /** drizzle relations: from the owning record to its join rows, and from a join row to the listed record. */
  rows: string;
  through: string;
}

// Entities are named as drizzle's relational queries name them: by their export from the schema.
const entityNames = new Map<unknown, string>(
  Object.entries(schema).flatMap(([name, value]) => (is(value, PgTable) ? [[value, name] as const] : [])),
);

const acronyms: Record<string, string> = { iot: 'IoT' };
/** `assignedUsers` → `assigned users`, `iot_devices` → `IoT devices`. */
const words = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
    .split(' ')
    .map((word) => acronyms[word] ?? word)
    .join(' ');
const singularNoun = (table: PgTable) => words(getTableName(table)).replace(/s$/, '');

/** The link lists the records of `table` have, by name. */
export function linkListsOf(table: PgTable): Readonly<Record<string, LinkList>> {
  const lists: Record<string, LinkList> = {};
  for (const link of declaredLinks()) {
    link.ends.forEach((owner, position) => {
      if (owner.table !== table || !owner.list || !owner.rows) return;
      const target = link.ends[1 - position]!;
      const entity = entityNames.get(target.table);
      if (!entity) throw new Error(`Link ${getTableName(link.table)}: its tables must be in the schema`);
      if (Object.hasOwn(lists, owner.list)) {
        throw new Error(`${getTableName(table)} has two link lists named ${owner.list}`);
      }
      lists[owner.list] = {
        name: owner.list,
        table: link.table,
        ownerColumn: owner.column,
        ownerKey: owner.columnKey,
        targetColumn: target.column,
        targetKey: target.columnKey,
        target: { table: target.table, entity, noun: singularNoun(target.table) },
        rows: owner.rows,
        through: target.via,
      };
    });
  }
  return lists;
}

/** The 400 for a link list that names records that do not exist: the field, and the ids it does not know. */
export const unknownLinkedRecords = (list: LinkList, missing: readonly string[]) =>
  badRequest(serviceTexts.unknownLinked(words(list.name), list.name), [
    { path: `body.${list.name}`, message: `No ${list.target.noun} with id ${missing.join(', ')}` },
  ]);

// What the compiler knows of the schema's links: the `<list>.id` filters a table's list spec need not bind.
type Declared = (typeof schema)[keyof typeof schema];
type ListPairs<T> =
  T extends LinkedLists<infer Pairs>
    ? '$linkedLists' extends keyof T
      ? Exclude<Pairs, undefined>
      : never
    : never;
/** The link lists of the table named `TableName`, as declared in db/schema. */
export type LinkListName<TableName extends string> = Extract<
  ListPairs<Declared>,
  readonly [TableName, string]
>[1];
export type LinkFilterPath<TableName extends string> = `${LinkListName<TableName>}.id`;
