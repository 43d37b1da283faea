// Runs the session timer while signed in and opens the expiry dialog of spec §8 when it fires.
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { sessionStore, useSession } from '@/lib/session.ts';
import { EXPIRY_DIALOG_BELOW_SECONDS, startSessionTimer } from '@/lib/session-timer.ts';
import { refreshSession } from '../api/refresh.ts';
import { signOut } from '../api/sign-out.ts';

export const EXPIRY_DIALOG = {
  title: 'Your session has expired',
  text: 'You will be redirected to front page. Login again to continue.',
  confirm: 'Understood',
  cancel: 'Cancel',
  remaining: `About ${EXPIRY_DIALOG_BELOW_SECONDS} seconds of your session are left. Save your work, then sign in again.`,
} as const;

export function SessionWatcher() {
  const approved = useSession((state) => state.loginStatus === 'approved');
  const token = useSession((state) => state.accessToken);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!approved || !token) return;
    return startSessionTimer({
      store: sessionStore,
      refresh: refreshSession,
      onExpiring: () =>
        modals.openConfirmModal({
          modalId: 'session-expiry',
          title: EXPIRY_DIALOG.title,
          children: <Text size="sm">{EXPIRY_DIALOG.text}</Text>,
          labels: { confirm: EXPIRY_DIALOG.confirm, cancel: EXPIRY_DIALOG.cancel },
          closeOnClickOutside: false,
          closeOnEscape: false,
          withCloseButton: false,
          onConfirm: () => {
            signOut(queryClient);
            void navigate(paths.home.to());
          },
          onCancel: () =>
            notifications.show({
              id: 'session-ending',
              color: 'yellow',
              title: 'Session ending',
              message: EXPIRY_DIALOG.remaining,
              autoClose: 10_000,
            }),
        }),
    });
    // A refreshed token starts a new timer; the old one has stopped by then.
  }, [approved, token, navigate, queryClient]);

  return null;
}
