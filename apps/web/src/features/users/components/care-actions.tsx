// Care actions on a user (spec §2): send an alert (an alert for the user and a notify job carrying its message
// on each of the user's devices) and request a reboot of the user's devices. Both ask first (decision 038):
// the alert for its message, the reboot naming the devices it restarts. The answer's jobs are linked; a user
// without a device answers 409, whose message shows here.
import { Alert, Anchor, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { personName, titleOf } from '@careplane/shared/common/record-labels';
import type { DeviceJob } from '@careplane/shared/devices/devices.contract';
import type { User } from '@careplane/shared/users/users.contract';
import { paths } from '@/config/paths.ts';
import { SendAlertDialog } from '@/lib/care/send-alert-dialog.tsx';
import { DetailSection } from '@/lib/resource-kit/detail/detail-parts.tsx';
import { useRebootDevices, useSendAlert } from '../api/users.queries.ts';

/** "Restart 2 devices: Terminal of Somchai, Hub?" */
export function rebootQuestion(deviceNames: readonly string[]) {
  const count = deviceNames.length === 1 ? '1 device' : `${deviceNames.length} devices`;
  return `Restart ${count}: ${deviceNames.join(', ')}?`;
}

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
  const [asking, setAsking] = useState<'alert' | 'reboot' | null>(null);
  const devices = user.assignedDevices ?? [];
  const deviceNames = devices.map((device) => titleOf(device) || device.id);
  const name = personName(user) || 'this user';
  return (
    <DetailSection title="Care actions">
      <Group gap="sm">
        <Button variant="light" color="orange" loading={alert.isPending} onClick={() => setAsking('alert')}>
          Send alert
        </Button>
        <Button
          variant="light"
          loading={reboot.isPending}
          disabled={!devices.length}
          title={devices.length ? undefined : 'No device is assigned to this user'}
          onClick={() => setAsking('reboot')}
        >
          Reboot devices
        </Button>
      </Group>
      {devices.length ? null : (
        <Text size="sm" c="dimmed">
          No device is assigned, so there is nothing to reboot.
        </Text>
      )}
      <SendAlertDialog
        opened={asking === 'alert'}
        name={name}
        sending={alert.isPending}
        error={alert.isError ? alert.error.message : null}
        onClose={() => setAsking(null)}
        onSend={(message) => alert.mutate({ userId: user.id, message }, { onSuccess: () => setAsking(null) })}
      />
      <Modal opened={asking === 'reboot'} onClose={() => setAsking(null)} title="Reboot devices" centered>
        <Stack gap="sm">
          <Text size="sm">{rebootQuestion(deviceNames)}</Text>
          <Text size="sm" c="dimmed">
            {`${name} cannot use ${devices.length === 1 ? 'it' : 'them'} while ${devices.length === 1 ? 'it restarts' : 'they restart'}.`}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setAsking(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={reboot.isPending}
              onClick={() => reboot.mutate(user.id, { onSettled: () => setAsking(null) })}
            >
              {devices.length === 1 ? 'Restart device' : 'Restart devices'}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Stack gap="sm" aria-live="polite">
        {alert.isSuccess ? (
          <Alert color="teal" title="Alert sent">
            <JobLinks jobs={alert.data.jobs} />
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
