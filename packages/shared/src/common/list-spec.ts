// What a resource's list accepts (decisions §2): the filter paths with the kind of value each takes, the
// paths `filtersLike` searches, the sortable paths, the relations `relations=` may embed and the default
// order. The server's whitelists are these specs (it binds each path to SQL), and the console builds its
// filter controls, sortable headers and relation pickers from the same objects.

/** Names of the resources of the API; a filter on another record's id names the resource it points at. */
export const resourceNames = [
  'users',
  'patient-profiles',
  'devices',
  'device-stats',
  'workstations',
  'device-jobs',
  'iot-devices',
  'iot-device-data',
  'alerts',
  'service-providers',
  'command-centers',
  'prescriptions',
  'documents',
  'audit-log',
] as const;
export type ResourceName = (typeof resourceNames)[number];

export type FilterKind =
  /** A record id; `references` names the resource it belongs to, so a picker can search it by name. */
  | { type: 'uuid'; references?: ResourceName }
  | { type: 'text' }
  | { type: 'number' }
  | { type: 'boolean' }
  /** One of `values`; on a list field the filter means "the list contains it". */
  | { type: 'enum'; values: readonly string[]; list?: boolean };

export const filterKinds = {
  uuid: { type: 'uuid' } as const,
  text: { type: 'text' } as const,
  number: { type: 'number' } as const,
  boolean: { type: 'boolean' } as const,
  /** The id of a record of another resource (or of this one). */
  ref: (resource: ResourceName) => ({ type: 'uuid', references: resource }) as const,
  enum: <const V extends readonly string[]>(values: V) => ({ type: 'enum', values }) as const,
  /** A list field holding enum values: matches when it contains any of the given ones. */
  enumList: <const V extends readonly string[]>(values: V) => ({ type: 'enum', values, list: true }) as const,
};

export type SortDirection = 'asc' | 'desc';

export interface ListSpec<
  Filter extends string = string,
  Search extends string = string,
  Sort extends string = string,
  Relation extends string = string,
> {
  resource: ResourceName;
  /** Exact-match filters: `filters=<path>~<value>`. */
  filters: Readonly<Record<Filter, FilterKind>>;
  /** Case-insensitive "contains" paths: `filtersLike=<path>~<text>`. */
  search: readonly Search[];
  /** `sort=<path>:asc|desc`. */
  sort: readonly Sort[];
  /** Relations that `relations=` may name at the first level (deeper paths follow the related resource). */
  relations: readonly Relation[];
  /** The order when no `sort` is given; ties are broken by id in the same direction. */
  defaultSort: { path: Sort; direction: SortDirection };
  /** The field `from`/`to` bound (milliseconds); lists without one refuse them. */
  timeRange?: string;
}

/** Checks at compile time that the default sort is a sort path; returns the spec unchanged. */
export const defineListSpec = <
  const Filter extends string,
  const Search extends string,
  const Sort extends string,
  const Relation extends string,
>(
  spec: ListSpec<Filter, Search, Sort, Relation>,
) => spec;

export type AnyListSpec = ListSpec<string, string, string, string>;
export type FilterPath<S extends AnyListSpec> = keyof S['filters'] & string;
export type SearchPath<S extends AnyListSpec> = S['search'][number];
export type SortPath<S extends AnyListSpec> = S['sort'][number];
export type RelationName<S extends AnyListSpec> = S['relations'][number];

/** The address paths every street-address search offers. */
export const addressSearchPaths = [
  'address.title',
  'address.street',
  'address.district',
  'address.city',
  'address.county',
  'address.postalCode',
  'address.country',
] as const;

/** A resource's addresses: its collection and one record. */
export const resourceEndpoints = <const Base extends string>(base: Base) => ({
  list: base,
  item: (id: string) => `${base}/${encodeURIComponent(id)}`,
});
