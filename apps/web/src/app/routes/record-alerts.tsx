// A user's and an IoT device's pages with their alerts below: the features stay apart, the app composes them.
import { useParams } from 'react-router';
import { RecordAlerts } from '@/features/alerts/components/record-alerts.tsx';
import { IotDeviceDetailPage } from '@/features/iot/routes.tsx';
import { UserDetailPage } from '@/features/users/routes.tsx';

export function UserPageWithAlerts() {
  const { id } = useParams();
  return <UserDetailPage related={id ? <RecordAlerts filter={`user.id~${id}`} /> : null} />;
}

export function IotDevicePageWithAlerts() {
  const { id } = useParams();
  return <IotDeviceDetailPage related={id ? <RecordAlerts filter={`iotDevice.id~${id}`} /> : null} />;
}
