// The address of a list view: filters, search, sort, page and page size live in the URL, so a copied link
// reopens the same view and Back/Forward step through the views. The parameters are the API's own
// (`filters`, `filtersLike`, `sort`, `from`, `to`) plus `page` and `pageSize`; values a list spec does not
// allow are dropped when read, so an old or edited link never turns into a refused request.
import { DEFAULT_PAGE_SIZE } from '@careplane/shared/common/http';
import type { AnyListSpec, FilterKind, SortDirection } from '@careplane/shared/common/list-spec';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
const DEFAULT_SIZE: PageSize = DEFAULT_PAGE_SIZE;

export interface SortState {
  path: string;
  direction: SortDirection;
}

export interface ListState {
  /** Exact filters by path; a value with commas means "any of". */
  filters: Record<string, string>;
  /** Case-insensitive searches by path. */
  search: Record<string, string>;
  /** Null: the list spec's default order. */
  sort: SortState | null;
  /** 1-based. */
  page: number;
  pageSize: PageSize;
  from: number | null;
  to: number | null;
}

export const emptyListState = (): ListState => ({
  filters: {},
  search: {},
  sort: null,
  page: 1,
  pageSize: DEFAULT_SIZE,
  from: null,
  to: null,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMBER = /^-?\d+(\.\d+)?$/;
const MAX_VALUE_LENGTH = 4000;

/** Whether one filter value is something the server accepts for that kind of filter. */
export function isValidFilterValue(kind: FilterKind, value: string): boolean {
  if (!value || value.length > MAX_VALUE_LENGTH) return false;
  const parts = value.split(',');
  switch (kind.type) {
    case 'uuid':
      return parts.every((part) => part === 'null' || UUID.test(part));
    case 'number':
      return parts.every((part) => NUMBER.test(part));
    case 'boolean':
      return value === 'true' || value === 'false';
    case 'enum':
      return parts.every((part) => kind.values.includes(part));
    case 'text':
      return !value.includes('\u0000');
  }
}

/** `path~value`, split at the first `~` (values may contain more). */
function splitPair(raw: string): [string, string] | null {
  const at = raw.indexOf('~');
  if (at <= 0) return null;
  return [raw.slice(0, at), raw.slice(at + 1)];
}

const positiveInt = (raw: string | null): number | null => {
  if (!raw || !/^\d{1,7}$/.test(raw)) return null;
  const value = Number(raw);
  return value >= 1 ? value : null;
};

const timeValue = (raw: string | null): number | null =>
  raw && NUMBER.test(raw) && Number.isFinite(Number(raw)) ? Number(raw) : null;

/** Reads a list view from the URL's query, keeping only what the list spec allows. */
export function parseListUrl(params: URLSearchParams, spec: AnyListSpec): ListState {
  const state = emptyListState();
  for (const raw of params.getAll('filters')) {
    const pair = splitPair(raw);
    if (!pair) continue;
    const [path, value] = pair;
    const kind = Object.hasOwn(spec.filters, path) ? spec.filters[path] : undefined;
    if (kind && isValidFilterValue(kind, value)) state.filters[path] = value;
  }
  for (const raw of params.getAll('filtersLike')) {
    const pair = splitPair(raw);
    if (!pair) continue;
    const [path, text] = pair;
    if (spec.search.includes(path) && text && !text.includes('\u0000') && text.length <= MAX_VALUE_LENGTH) {
      state.search[path] = text;
    }
  }
  const sort = params.get('sort');
  if (sort) {
    const at = sort.lastIndexOf(':');
    const path = at > 0 ? sort.slice(0, at) : sort;
    const direction = at > 0 ? sort.slice(at + 1) : 'asc';
    if (spec.sort.includes(path) && (direction === 'asc' || direction === 'desc')) {
      state.sort = { path, direction };
    }
  }
  state.page = positiveInt(params.get('page')) ?? 1;
  const size = positiveInt(params.get('pageSize'));
  state.pageSize = PAGE_SIZES.find((allowed) => allowed === size) ?? DEFAULT_SIZE;
  if (spec.timeRange) {
    state.from = timeValue(params.get('from'));
    state.to = timeValue(params.get('to'));
  }
  return state;
}

const isDefaultSort = (sort: SortState | null, spec: AnyListSpec) =>
  !sort || (sort.path === spec.defaultSort.path && sort.direction === spec.defaultSort.direction);

/** Writes a list view as a URL query: defaults are left out, the order is stable (the spec's). */
export function serializeListState(state: ListState, spec: AnyListSpec): URLSearchParams {
  const params = new URLSearchParams();
  for (const path of Object.keys(spec.filters)) {
    const value = state.filters[path];
    if (value) params.append('filters', `${path}~${value}`);
  }
  for (const path of spec.search) {
    const text = state.search[path];
    if (text) params.append('filtersLike', `${path}~${text}`);
  }
  if (state.sort && !isDefaultSort(state.sort, spec)) {
    params.set('sort', `${state.sort.path}:${state.sort.direction}`);
  }
  if (state.from !== null) params.set('from', String(state.from));
  if (state.to !== null) params.set('to', String(state.to));
  if (state.page > 1) params.set('page', String(state.page));
  if (state.pageSize !== DEFAULT_SIZE) params.set('pageSize', String(state.pageSize));
  return params;
}

/** The list request of a view: the API's query parameters. */
export interface ListRequest {
  filters: string[];
  filtersLike: string[];
  sort: string[];
  relations?: string;
  from?: number;
  to?: number;
  limit: number;
  offset: number;
  [key: string]: string | number | string[] | undefined;
}

export interface ListRequestOptions {
  /** Relations the columns read. */
  relations?: readonly string[];
  /** Filters every request of this view carries (`localRoles~patient` on the patients list). */
  fixedFilters?: readonly string[];
}

export function toListRequest(
  state: ListState,
  spec: AnyListSpec,
  options: ListRequestOptions = {},
): ListRequest {
  const serialized = serializeListState({ ...state, page: 1, pageSize: DEFAULT_SIZE }, spec);
  const sort = state.sort ?? spec.defaultSort;
  return {
    filters: [...(options.fixedFilters ?? []), ...serialized.getAll('filters')],
    filtersLike: serialized.getAll('filtersLike'),
    sort: [`${sort.path}:${sort.direction}`],
    ...(options.relations?.length ? { relations: options.relations.join(',') } : {}),
    ...(state.from !== null ? { from: state.from } : {}),
    ...(state.to !== null ? { to: state.to } : {}),
    limit: state.pageSize,
    offset: (state.page - 1) * state.pageSize,
  };
}

/** The same list without paging: what a CSV export of the view asks for. */
export function toExportRequest(request: ListRequest): Omit<ListRequest, 'limit' | 'offset'> {
  const exported: Omit<ListRequest, 'limit' | 'offset'> = {
    filters: request.filters,
    filtersLike: request.filtersLike,
    sort: request.sort,
  };
  for (const [key, value] of Object.entries(request)) {
    if (key !== 'limit' && key !== 'offset' && !(key in exported)) exported[key] = value;
  }
  return exported;
}

// Changes to a view. Anything that changes which records match goes back to the first page.

export const withFilter = (state: ListState, path: string, value: string | null): ListState => {
  const filters = { ...state.filters };
  if (value) filters[path] = value;
  else delete filters[path];
  return { ...state, filters, page: 1 };
};

export const withSearch = (state: ListState, path: string, text: string | null): ListState => ({
  ...state,
  search: text ? { [path]: text } : {},
  page: 1,
});

export const withSort = (state: ListState, sort: SortState | null): ListState => ({
  ...state,
  sort,
  page: 1,
});

export const withPage = (state: ListState, page: number): ListState => ({
  ...state,
  page: Math.max(1, Math.floor(page)),
});

export const withPageSize = (state: ListState, pageSize: PageSize): ListState => ({
  ...state,
  pageSize,
  page: 1,
});

export const withTimeRange = (state: ListState, from: number | null, to: number | null): ListState => ({
  ...state,
  from,
  to,
  page: 1,
});

export const withoutFilters = (state: ListState): ListState => ({
  ...state,
  filters: {},
  search: {},
  from: null,
  to: null,
  page: 1,
});

/** How many filters and searches a view applies (shown on the Filters button). */
export const activeFilterCount = (state: ListState) =>
  Object.keys(state.filters).length +
  Object.keys(state.search).length +
  (state.from !== null || state.to !== null ? 1 : 0);
