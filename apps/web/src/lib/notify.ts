// Notifications of the admin area: Mantine's, with a named close button (axe-core: a button needs a name).
import { notifications, type NotificationData } from '@mantine/notifications';
import i18next from 'i18next';

export function notify(data: NotificationData) {
  return notifications.show({
    ...data,
    closeButtonProps: { 'aria-label': i18next.t('kit:closeNotification') },
  });
}
