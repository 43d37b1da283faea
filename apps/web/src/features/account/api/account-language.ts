// The account's language on a console opened before it was chosen (on another device, or before this tab was
// last loaded): the signed-in pages read the profile when they start and take its language into the session's
// copy, which the console follows (followSessionLanguage, decision 047). The rule stays languageFor's: the
// account's language once it holds one; none leaves this device's choice, then the browser's. The rest of the
// profile is the account page's to take (it reads the whole of it).
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { sessionStore } from '@/lib/session.ts';
import { accountQueries } from './account.queries.ts';

export function useAccountLanguage() {
  const me = useQuery(accountQueries.me());
  const id = me.data?.id;
  const language = me.data?.language;
  useEffect(() => {
    if (id === undefined || language === undefined) return;
    const user = sessionStore.getState().user;
    if (user?.id === id && user.language !== language) sessionStore.refreshUser({ ...user, language });
  }, [id, language]);
}
