// The notifications' container, in its own chunk: AppProvider mounts it when the first notification is shown.
import { Notifications } from '@mantine/notifications';

export default function NotificationsHost() {
  // At the bottom, at most three at once: at the top they covered the bar and a work area's tabs, and on a
  // phone each action's notice stacked over the next.
  return <Notifications position="bottom-right" limit={3} />;
}
