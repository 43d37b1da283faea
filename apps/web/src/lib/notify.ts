// Notifications of the console: Mantine's, with a named close button (axe-core: a button needs a name). On a
// phone a new notice takes the place of the passing ones before it (three quick actions stacked three notices
// over half the screen); a notice that stays until closed (a refusal) stays.
import { notifications, notificationsStore, type NotificationData } from '@mantine/notifications';
import i18next from 'i18next';
import { PHONE_SCREEN } from './screen-widths.ts';

export function notify(data: NotificationData) {
  if (typeof window.matchMedia === 'function' && window.matchMedia(PHONE_SCREEN).matches) {
    const { notifications: shown, queue } = notificationsStore.getState();
    for (const notice of [...shown, ...queue]) {
      if (notice.autoClose !== false && notice.id) notifications.hide(notice.id);
    }
  }
  return notifications.show({
    ...data,
    closeButtonProps: { 'aria-label': i18next.t('kit:closeNotification') },
  });
}
