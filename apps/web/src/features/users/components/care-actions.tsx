// Care actions on a user (spec §2): send an alert (an alert for the user and a notify job on each of the
// user's devices) and request a reboot of the user's devices. The answer's jobs are linked; a user without
// a device answers 409, whose message shows here.
import { Alert, Anchor, Button, Group, List, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { DeviceJob } from '@careplane/shared/devices/devices.contract';
import type { User } from '@careplane/shared/users/users.contract';
import { paths } from '@/config/paths.ts';
import { DetailSection } from '@/lib/resource-kit/detail/detail-parts.tsx';
import { useRebootDevices, useSendAlert } from '../api/users.queries.ts';

function JobLinks({ jobs }: { jobs: readonly DeviceJob[] }) {
  if (!jobs.length) return <Text size="sm">No device is assigned, so no job was created.</Text>;
  return (
    <List size="sm">
      {jobs.map((job) => (
        <List.Item key={job.id}>
          <Anchor component={Link} to={paths.admin.deviceJobs.detail.to(job.id)}>
            {`${job.commands.join('; ')} (${job.status})`}
          </Anchor>
        </List.Item>
      ))}
    </List>
  );
}

export function CareActions({ user }: { user: User }) {
  const alert = useSendAlert();
  const reboot = useRebootDevices();
  return (
    <DetailSection title="Care actions">
      <Group gap="sm">
        <Button
          variant="light"
          color="orange"
          loading={alert.isPending}
          onClick={() => alert.mutate(user.id)}
        >
          Send alert
        </Button>
        <Button variant="light" loading={reboot.isPending} onClick={() => reboot.mutate(user.id)}>
          Reboot devices
        </Button>
      </Group>
      <Stack gap="sm" aria-live="polite">
        {alert.isSuccess ? (
          <Alert color="teal" title="Alert sent">
            <JobLinks jobs={alert.data.jobs} />
          </Alert>
        ) : null}
        {alert.isError ? (
          <Alert color="red" title="Could not send the alert." role="alert">
            {alert.error.message}
          </Alert>
        ) : null}
        {reboot.isSuccess ? (
          <Alert color="teal" title="Reboot requested">
            <JobLinks jobs={reboot.data.jobs} />
          </Alert>
        ) : null}
        {reboot.isError ? (
          <Alert color="red" title="Could not request a reboot." role="alert">
            {reboot.error.message}
          </Alert>
        ) : null}
        {alert.isSuccess || reboot.isSuccess ? (
          <Anchor component={Link} to={paths.admin.deviceJobs.list.to()} size="sm">
            All device jobs
          </Anchor>
        ) : null}
      </Stack>
    </DetailSection>
  );
}
