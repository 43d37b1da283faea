// Runs the session timer while signed in and opens the expiry dialog of spec §8 when it fires. The dialog's
// title, text and confirm button are the spec's words (English in both languages); its Cancel and the notice
// after it speak the console's language.
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { specTexts } from '@/lib/i18n/spec-texts.ts';
import { nowInSeconds, sessionStore, signOut, useSession } from '@/lib/session.ts';
import { EXPIRY_DIALOG_BELOW_SECONDS, startSessionTimer } from '@/lib/session-timer.ts';
import { endExpiredSession } from '../api/guard.ts';
import { actionOutbox } from '@/lib/offline/action-outbox.ts';
import { refreshSession } from '../api/refresh.ts';

/** How many actions the signed-in person keeps on this device, not sent yet (decision 076). */
function keptActionsCount(): number {
  const userId = sessionStore.getState().user?.id;
  return userId ? actionOutbox.entries().filter((entry) => entry.userId === userId).length : 0;
}

/** The sentence that tells a person signed out that their kept actions wait for their next sign-in here. */
const keptAfterText = (count: number) => i18next.t('kit:session.keptAfter', { count });

export function SessionWatcher() {
  const approved = useSession((state) => state.loginStatus === 'approved');
  const token = useSession((state) => state.accessToken);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!approved || !token) return;
    // After the dialog the time left still counts down on Disconnect; at none the session ends by itself:
    // signed out, at the front page, saying so, rather than a page whose every request is refused.
    let countdown: ReturnType<typeof setInterval> | undefined;
    const countDown = () => {
      countdown = setInterval(() => {
        const left = (sessionStore.getState().accessTokenExpiration ?? 0) - nowInSeconds();
        sessionStore.set({ timeOutIn: Math.max(0, left) });
        if (left > 0) return;
        clearInterval(countdown);
        modals.close('session-expiry');
        const kept = keptActionsCount();
        endExpiredSession(kept ? keptAfterText(kept) : undefined);
        queryClient.clear();
        void navigate(paths.home.to());
      }, 1000);
    };
    const stop = startSessionTimer({
      store: sessionStore,
      refresh: refreshSession,
      onExpiring: () => {
        countDown();
        modals.openConfirmModal({
          modalId: 'session-expiry',
          title: specTexts.sessionExpiredTitle,
          children: <Text size="sm">{specTexts.sessionExpiredText}</Text>,
          labels: { confirm: specTexts.understood, cancel: i18next.t('kit:cancel') },
          closeOnClickOutside: false,
          closeOnEscape: false,
          withCloseButton: false,
          onConfirm: () => {
            const kept = keptActionsCount();
            signOut(queryClient);
            void navigate(paths.home.to());
            if (kept) notifications.show({ color: 'yellow', message: keptAfterText(kept), autoClose: false });
          },
          onCancel: () =>
            notifications.show({
              id: 'session-ending',
              color: 'yellow',
              title: i18next.t('kit:session.endingTitle'),
              message: i18next.t('kit:session.endingText', { seconds: EXPIRY_DIALOG_BELOW_SECONDS }),
              autoClose: 10_000,
            }),
        });
      },
    });
    return () => {
      stop();
      clearInterval(countdown);
    };
    // A refreshed token starts a new timer; the old one has stopped by then.
  }, [approved, token, navigate, queryClient]);

  return null;
}
