// Many-to-many relations declared once: `defineLink` makes the join table (two uuid keys that cascade, the
// composite primary key, the index for the way back) and both halves of its drizzle relations, and records
// the declaration so the resource engine can derive the rest (lib/resources/links.ts): the relation graph,
// the writes of link lists, the `<list>.id` filters and the check that linked records exist.
import { relations, type Relations } from 'drizzle-orm';
import { index, pgTable, primaryKey, uuid, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';

/** A table whose records can be linked: one with an `id` column. */
export type LinkableTable = PgTable & { id: AnyPgColumn };

/** One end of a link as declared: the join table's column towards `references`, and what its records list. */
export interface LinkEndInput<Column extends string, Table extends LinkableTable, List extends string> {
  /** The join table's column (`userId`, stored as `user_id`), referencing `references.id`. */
  column: Column;
  references: Table;
  /**
   * The name under which a record of `references` lists the records of the other end (a user's `employers`):
   * the body field, the relation of `relations=` and the filter `<list>.id`. Without it, that side lists
   * nothing.
   */
  list?: List;
}

/** One end of a declared link, with the names derived from it. */
export interface LinkEnd {
  /** The table at this end and the join table's column that references its id. */
  table: LinkableTable;
  columnKey: string;
  column: AnyPgColumn;
  /** The join row's drizzle relation towards this end's record (`userId` → `user`). */
  via: string;
  /** What a record at this end calls the records of the other end, if it lists them. */
  list?: string;
  /** The drizzle relation from a record at this end to its join rows (`employers` → `employerLinks`). */
  rows?: string;
}

export interface LinkDeclaration {
  table: PgTable;
  ends: readonly [LinkEnd, LinkEnd];
  /** Both halves of the drizzle relations: the join table's two `one`s, each listing end's `many`. */
  relations: readonly Relations[];
}

/**
 * Type only, never set: the `[table name, list]` pairs of a link table, so the compiler knows which
 * `<list>.id` filters the engine binds by itself (lib/resources/links.ts).
 */
export interface LinkedLists<Pairs> {
  readonly $linkedLists?: Pairs;
}
type ListPair<Table extends LinkableTable, List extends string> = [List] extends [never]
  ? never
  : readonly [Table['_']['name'], List];

const declared: LinkDeclaration[] = [];

/** Every link declared so far (the schema's, and any a test declares). */
export const declaredLinks = (): readonly LinkDeclaration[] => declared;

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const withoutId = (column: string) => column.replace(/Id$/, '');
/** `employers` → `employer`, `signingParties` → `signingParty`: the join rows of a list are `<singular>Links`. */
const singular = (list: string) => list.replace(/ies$/, 'y').replace(/s$/, '');

const linkColumn = (column: string, target: LinkableTable) =>
  uuid(snakeCase(column))
    .notNull()
    .references(() => target.id, { onDelete: 'cascade' });

/**
 * Declares a many-to-many relation. The join table is named `name`, its primary key is (first, second) and
 * its other index serves lookups by the second column (`<name>_<second without Id>_idx` unless named).
 * Returns the table, typed with its two columns.
 *
 *     defineLink('user_employers',
 *       { column: 'userId', references: users, list: 'employers' },
 *       { column: 'serviceProviderId', references: serviceProviders, list: 'employees' })
 */
export function defineLink<
  const Name extends string,
  const First extends string,
  const Second extends string,
  FirstTable extends LinkableTable,
  SecondTable extends LinkableTable,
  const FirstList extends string = never,
  const SecondList extends string = never,
>(
  name: Name,
  first: LinkEndInput<First, FirstTable, FirstList>,
  second: LinkEndInput<Second, SecondTable, SecondList>,
  options: { reverseIndex?: string } = {},
) {
  if ((first.column as string) === second.column) {
    throw new Error(`Link ${name}: its two columns need two names`);
  }
  const columns = {
    [first.column]: linkColumn(first.column, first.references),
    [second.column]: linkColumn(second.column, second.references),
  } as Record<First | Second, ReturnType<typeof linkColumn>>;
  const table = pgTable(name, columns, (t) => [
    primaryKey({ columns: [t[first.column], t[second.column]] }),
    index(options.reverseIndex ?? `${name}_${snakeCase(withoutId(second.column))}_idx`).on(t[second.column]),
  ]);

  const ends = ([first, second] as const).map((input): LinkEnd => ({
    table: input.references,
    columnKey: input.column,
    column: table[input.column],
    via: withoutId(input.column),
    ...(input.list ? { list: input.list, rows: `${singular(input.list)}Links` } : {}),
  })) as [LinkEnd, LinkEnd];
  // Named pairs: a link between two records of one table (a patient's nurses) has two ways to each.
  const pairName = (end: LinkEnd) => `${name}.${end.columnKey}`;
  const joinTable: PgTable = table;
  const linkRelations: Relations[] = [
    relations(joinTable, ({ one }) =>
      Object.fromEntries(
        ends.map((end) => [
          end.via,
          one(end.table, { fields: [end.column], references: [end.table.id], relationName: pairName(end) }),
        ]),
      ),
    ),
    ...ends.flatMap((end) =>
      end.rows
        ? [
            relations(end.table, ({ many }) => ({
              [end.rows!]: many(joinTable, { relationName: pairName(end) }),
            })),
          ]
        : [],
    ),
  ];
  declared.push({ table, ends, relations: linkRelations });
  return table as typeof table &
    LinkedLists<ListPair<FirstTable, FirstList> | ListPair<SecondTable, SecondList>>;
}

/**
 * The schema as drizzle's relational queries need it: with the relations of every declared link, and the
 * join table of any link the schema does not export (one a test declares).
 */
export function withLinkRelations<Schema extends Record<string, unknown>>(schema: Schema): Schema {
  const exported = new Set(Object.values(schema));
  const extra: Record<string, unknown> = {};
  declared.forEach((link, position) => {
    if (!exported.has(link.table)) extra[`link${position}Table`] = link.table;
    link.relations.forEach((relation, half) => (extra[`link${position}Relations${half}`] = relation));
  });
  return { ...schema, ...extra };
}
