// Notifications of the admin area: Mantine's, with a named close button (axe-core: a button needs a name).
import { notifications, type NotificationData } from '@mantine/notifications';

export function notify(data: NotificationData) {
  return notifications.show({ ...data, closeButtonProps: { 'aria-label': 'Close the notification' } });
}
