// The documents' queries: one factory, so that mutations and live signing invalidate through the same keys.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  documentEndpoints,
  type Document,
  type DocumentScope,
  type PartySuggestions,
  type SigningState,
} from '@careplane/shared/documents/documents.contract';
import type { ListResponse } from '@careplane/shared/common/http';
import { api, withMinimumDelay } from '@/lib/api-client.ts';

export const DOCUMENTS_PAGE_SIZE = 20;

export interface DocumentListFilters {
  scope: DocumentScope;
  /** Contains, in the title. */
  search: string;
  /** 1-based. */
  page: number;
}

export const documentQueries = {
  all: ['documents'] as const,
  lists: () => [...documentQueries.all, 'list'] as const,
  list: (filters: DocumentListFilters) =>
    queryOptions({
      queryKey: [...documentQueries.lists(), filters],
      queryFn: ({ signal }) =>
        withMinimumDelay(() =>
          api.get<ListResponse<Document>>(documentEndpoints.list, {
            signal,
            query: {
              filters: [`scope~${filters.scope}`],
              filtersLike: filters.search.trim() ? [`title~${filters.search.trim()}`] : undefined,
              limit: DOCUMENTS_PAGE_SIZE,
              offset: (filters.page - 1) * DOCUMENTS_PAGE_SIZE,
            },
          }),
        ),
      placeholderData: keepPreviousData,
    }),
  details: () => [...documentQueries.all, 'detail'] as const,
  detail: (id: string) =>
    queryOptions({
      queryKey: [...documentQueries.details(), id],
      queryFn: ({ signal }) =>
        withMinimumDelay(() => api.get<Document>(documentEndpoints.item(id), { signal })),
      retry: false,
    }),
  parties: (search: string) =>
    queryOptions({
      queryKey: [...documentQueries.all, 'parties', search.trim()],
      queryFn: ({ signal }) =>
        api.get<PartySuggestions>(documentEndpoints.parties, {
          signal,
          query: { search: search.trim() || undefined },
        }),
      staleTime: 60_000,
      placeholderData: keepPreviousData,
    }),
  /** A signature asked of the phone, polled every `interval` seconds until it is no longer pending. */
  signing: (id: string, requestId: string, interval: number) =>
    queryOptions({
      queryKey: [...documentQueries.all, 'signing', id, requestId],
      queryFn: ({ signal }) => api.get<SigningState>(documentEndpoints.signing(id, requestId), { signal }),
      refetchInterval: (query) =>
        query.state.data && query.state.data.status !== 'pending' ? false : Math.max(1, interval) * 1000,
      refetchIntervalInBackground: true,
      staleTime: 0,
      retry: 2,
    }),
};
