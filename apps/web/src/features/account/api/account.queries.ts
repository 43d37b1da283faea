// The signed-in user's own records: profile, avatar, last sign-in (spec §7).
import { queryOptions } from '@tanstack/react-query';
import type { AuditListResponse } from '@careplane/shared/audit/audit.contract';
import type { AvatarQuery } from '@careplane/shared/users/account.contract';
import type { User } from '@careplane/shared/users/users.contract';
import { api, withMinimumDelay } from '@/lib/api-client.ts';

/** The audit action a sign-in (POST /api/auth) is recorded under. */
export const SIGN_IN_AUDIT_ACTION = 'sign-in';

/** Pixels, each between 16 and 512 (the server's avatarQuerySchema); none gives its default. */
export type AvatarSize = AvatarQuery;

export const accountQueries = {
  all: ['account'] as const,
  me: () =>
    queryOptions({
      queryKey: [...accountQueries.all, 'me'],
      queryFn: ({ signal }) => withMinimumDelay(() => api.get<User>('/api/users/me', { signal })),
    }),
  avatar: (size: AvatarSize = {}) =>
    queryOptions({
      queryKey: [...accountQueries.all, 'avatar', size],
      queryFn: ({ signal }) =>
        api.get<Blob>('/api/users/me/avatar', {
          signal,
          as: 'blob',
          query: { width: size.width, height: size.height },
        }),
      retry: false,
      staleTime: 5 * 60_000,
    }),
  /**
   * The sign-in before this session's own (the newest is the one that opened this page): a sign-in the person
   * does not remember is one someone else made.
   */
  previousSignIn: (userId: string) =>
    queryOptions({
      queryKey: [...accountQueries.all, 'previous-sign-in', userId],
      queryFn: async ({ signal }) => {
        const answer = await withMinimumDelay(() =>
          api.get<AuditListResponse>('/api/users/logs', {
            signal,
            query: { filters: [`actorUserId~${userId}`, `action~${SIGN_IN_AUDIT_ACTION}`], limit: 2 },
          }),
        );
        return answer.items[1] ?? null;
      },
      retry: false,
    }),
};
