// One query-options factory per resource (`userQueries.list(request)`, `.detail(id, relations)`), the
// searches of relation pickers, and the mutations, which invalidate through the factory.
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { auditEndpoints, type AuditEntry } from '@careplane/shared/audit/audit.contract';
import type { ListResponse } from '@careplane/shared/common/http';
import type { ResourceName } from '@careplane/shared/common/list-spec';
import type { RecordLike } from '@careplane/shared/common/record-labels';
import { api, withMinimumDelay } from '../api-client.ts';
import type { ListRequest } from './list/list-url.ts';
import { referenceSource } from './references.ts';

/** Every admin query's key starts here, then the resource's name. */
export const ADMIN_QUERY_ROOT = ['admin'] as const;

export interface ResourceEndpoints {
  list: string;
  item: (id: string) => string;
}

/** What narrows a count besides the filters: the search and the time range of a list. */
export interface CountRequest {
  filtersLike?: string[];
  from?: number;
  to?: number;
}

export function createResourceQueries<Item extends { id: string }>(
  resource: ResourceName,
  endpoints: ResourceEndpoints,
) {
  const all = [...ADMIN_QUERY_ROOT, resource] as const;
  return {
    resource,
    endpoints,
    all,
    lists: () => [...all, 'list'] as const,
    /** One page of the list. The previous page stays on screen while the next loads. */
    list: (request: Partial<ListRequest>) =>
      queryOptions({
        queryKey: [...all, 'list', request],
        queryFn: ({ signal }) =>
          withMinimumDelay(() => api.get<ListResponse<Item>>(endpoints.list, { signal, query: request })),
        placeholderData: keepPreviousData,
      }),
    /**
     * How many records match (a one-record page carries the total): asked apart from the rows, which come
     * without it (`count=false`), so a slow count on a large table never holds the rows back.
     */
    count: (filters: readonly string[] = [], matching: CountRequest = {}) =>
      queryOptions({
        queryKey: [...all, 'count', filters, matching],
        queryFn: async ({ signal }) =>
          (
            await api.get<ListResponse<Item>>(endpoints.list, {
              signal,
              query: { ...matching, filters: [...filters], limit: 1 },
            })
          ).total ?? 0,
        placeholderData: keepPreviousData,
      }),
    details: () => [...all, 'detail'] as const,
    detail: (id: string, relations: readonly string[] = []) =>
      queryOptions({
        queryKey: [...all, 'detail', id, relations],
        queryFn: ({ signal }) =>
          withMinimumDelay(() =>
            api.get<Item>(endpoints.item(id), {
              signal,
              query: relations.length ? { relations: relations.join(',') } : {},
            }),
          ),
      }),
  };
}
export type ResourceQueries<Item extends { id: string }> = ReturnType<typeof createResourceQueries<Item>>;

/** After a write: the resource's own queries refetch, and every other admin view is marked stale (its
 * relations may name the changed record). */
export async function invalidateResource(client: QueryClient, resource: ResourceName) {
  await Promise.all([
    client.invalidateQueries({ queryKey: [...ADMIN_QUERY_ROOT, resource] }),
    // The history on the page shows the write at once.
    client.invalidateQueries({ queryKey: [...ADMIN_QUERY_ROOT, 'audit-log'] }),
    client.invalidateQueries({ queryKey: ADMIN_QUERY_ROOT, refetchType: 'none' }),
  ]);
}

export function useCreateRecord<Item extends { id: string }, Created = Item>(queries: ResourceQueries<Item>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: unknown) => api.post<Created>(queries.endpoints.list, body),
    onSuccess: () => invalidateResource(client, queries.resource),
  });
}

export function useUpdateRecord<Item extends { id: string }>(queries: ResourceQueries<Item>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: unknown }) =>
      api.patch<Item>(queries.endpoints.item(id), body),
    onSuccess: () => invalidateResource(client, queries.resource),
  });
}

export function useDeleteRecord<Item extends { id: string }>(queries: ResourceQueries<Item>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(queries.endpoints.item(id)),
    onSuccess: async (_answer, id) => {
      client.removeQueries({ queryKey: [...queries.details(), id] });
      await invalidateResource(client, queries.resource);
    },
  });
}

// ---------------------------------------------------------------------------------------------------------
// Relation pickers

const SEARCH_LIMIT = 20;
const MAX_IDS = 200;

export const referenceQueries = {
  /** Records whose name matches the text on any of the resource's search paths, merged by id. */
  search: (resource: ResourceName, text: string, filters: readonly string[] = []) =>
    queryOptions({
      queryKey: [...ADMIN_QUERY_ROOT, resource, 'reference', 'search', text, filters],
      queryFn: async ({ signal }) => {
        const source = referenceSource(resource);
        if (!source) return [];
        const searches = text ? source.searchPaths.map((path) => [`${path}~${text}`]) : [[]];
        const answers = await Promise.all(
          searches.map((filtersLike) =>
            api.get<ListResponse<RecordLike>>(source.list, {
              signal,
              query: {
                filters: [...filters],
                filtersLike,
                limit: SEARCH_LIMIT,
                ...(source.relations?.length ? { relations: source.relations.join(',') } : {}),
              },
            }),
          ),
        );
        const byId = new Map<string, RecordLike>();
        for (const answer of answers) for (const item of answer.items) byId.set(item.id, item);
        return [...byId.values()];
      },
      staleTime: 30_000,
    }),
  /** The named records, to label values already chosen. */
  byIds: (resource: ResourceName, ids: readonly string[]) =>
    queryOptions({
      queryKey: [...ADMIN_QUERY_ROOT, resource, 'reference', 'ids', [...ids].sort()],
      queryFn: async ({ signal }) => {
        const source = referenceSource(resource);
        if (!source || ids.length === 0) return [];
        const answer = await api.get<ListResponse<RecordLike>>(source.list, {
          signal,
          query: {
            filters: [`id~${ids.slice(0, MAX_IDS).join(',')}`],
            limit: Math.min(Math.max(ids.length, 1), MAX_IDS),
            ...(source.relations?.length ? { relations: source.relations.join(',') } : {}),
          },
        });
        return answer.items;
      },
      staleTime: 60_000,
    }),
};

// ---------------------------------------------------------------------------------------------------------
// A record's history

export const HISTORY_LIMIT = 50;

export const historyQueries = {
  /** The audit log's entries about one record, newest first. */
  forRecord: (recordId: string) =>
    queryOptions({
      queryKey: [...ADMIN_QUERY_ROOT, 'audit-log', 'record', recordId],
      queryFn: ({ signal }) =>
        api.get<ListResponse<AuditEntry>>(auditEndpoints.list, {
          signal,
          query: { filters: [`recordId~${recordId}`], limit: HISTORY_LIMIT },
        }),
    }),
};
