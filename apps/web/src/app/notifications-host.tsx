// The notifications' container, in its own chunk: AppProvider mounts it when the first notification is shown.
import { Notifications } from '@mantine/notifications';

export default function NotificationsHost() {
  return <Notifications position="top-right" />;
}
