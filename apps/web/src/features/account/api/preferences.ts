// The signed-in user's own choices (PATCH /api/users/me/preferences): today the console's language.
import type { AccountPreferences } from '@careplane/shared/users/account.contract';
import { userEndpoints, type User } from '@careplane/shared/users/users.contract';
import { api } from '@/lib/api-client.ts';
import { sessionStore } from '@/lib/session.ts';

/** Stores the language on the account, so every device the user signs in on speaks it. */
export async function saveLanguagePreference(language: AccountPreferences['language']): Promise<User> {
  const user = await api.patch<User>(userEndpoints.preferences, { language } satisfies AccountPreferences);
  sessionStore.refreshUser(user);
  return user;
}
