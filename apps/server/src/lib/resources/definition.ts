// A generic resource described once: its table, contract schemas, bound list spec and how its body's fields
// map onto columns (references; link lists come from the table's declared links). Rules and permissions live
// in the module's service.
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { ListColumn } from '@careplane/shared/common/list-columns';
import type { AnyListSpec, ResourceName } from '@careplane/shared/common/list-spec';
import type { RecordName } from '../service-texts.js';
import type { ResourceQuerySpec } from './filters.js';
import type { EntityName } from './graph.js';
import { linkListsOf, type LinkList } from './links.js';

export interface ResourceDefinition<Create = unknown, Update = unknown, Item = unknown> {
  /** Name in the audit log, the change feed and the OpenAPI tags. */
  name: ResourceName;
  entity: EntityName;
  table: PgTable;
  idColumn: PgColumn;
  /** Mount point, e.g. `/api/users` (from the contract's endpoints). */
  path: string;
  /** A record's name in messages: `Service provider not found`. */
  label: RecordName;
  schemas: { create: z.ZodType<Create>; update: z.ZodType<Update>; item: z.ZodType<Item> };
  /** The contract's list spec and its binding to SQL. */
  list: { spec: AnyListSpec; query: ResourceQuerySpec };
  /**
   * Many-to-many fields written as lists of ids (`employers: [uuid, ...]`): the link lists of the table,
   * derived from their declarations (db/schema/links.ts).
   */
  links: Readonly<Record<string, LinkList>>;
  /** Body fields that name a related record by id: `{ patientProfile: 'patientProfileId' }`. */
  references?: Readonly<Record<string, string>>;
  /** Column filled with the caller's user id on create when the body does not name one. */
  createdByColumn?: string;
  /**
   * The list's CSV export (`<path>/export.csv`): the columns the console's table shows (from the contract's
   * `<feature>.columns.ts`), and other views of the same records by name (e.g. `patients` of users). Their
   * Thai headers are kept under the resource's `name`, or the view's (shared `i18n/column-titles.ts`).
   */
  csv?: {
    columns: readonly ListColumn<Item, string>[];
    views?: Readonly<Record<string, readonly ListColumn<Item, string>[]>>;
  };
}

export type AnyResourceDefinition = ResourceDefinition<never, never, unknown>;

/** Infers a definition's body and answer types from its contract schemas. */
export const defineResource = <
  CreateSchema extends z.ZodType,
  UpdateSchema extends z.ZodType,
  ItemSchema extends z.ZodType,
>(
  definition: Omit<ResourceDefinition<unknown, unknown, z.output<ItemSchema>>, 'schemas' | 'links'> & {
    schemas: { create: CreateSchema; update: UpdateSchema; item: ItemSchema };
  },
) =>
  // A schema's parse answers its output type; zod's generic ZodType cannot say so for a type parameter.
  ({ ...definition, links: linkListsOf(definition.table) }) as unknown as ResourceDefinition<
    z.output<CreateSchema>,
    z.output<UpdateSchema>,
    z.output<ItemSchema>
  >;
