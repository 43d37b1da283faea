// Care actions on a user (spec §2): send an alert (an alert for the user and a notify job carrying its message
// on each of the user's devices) and request a reboot of the user's devices. Both ask first (decision 038):
// the alert for its message, the reboot naming the devices it restarts. The answer's jobs are linked; a user
// without a device answers 409, whose message shows here.
import { Alert, Anchor, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import i18next from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  return i18next.t('users:care.rebootQuestion', { count: deviceNames.length, names: deviceNames.join(', ') });
}

function JobLinks({ jobs }: { jobs: readonly DeviceJob[] }) {
  const { t } = useTranslation('users');
  if (!jobs.length) return <Text size="sm">{t('care.noJob')}</Text>;
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
  const { t } = useTranslation('users');
  const [asking, setAsking] = useState<'alert' | 'reboot' | null>(null);
  const devices = user.assignedDevices ?? [];
  const deviceNames = devices.map((device) => titleOf(device) || device.id);
  const name = personName(user) || t('care.thisUser');
  return (
    <DetailSection title={t('care.title')}>
      <Group gap="sm">
        <Button variant="light" color="orange" loading={alert.isPending} onClick={() => setAsking('alert')}>
          {t('care.sendAlert')}
        </Button>
        <Button
          variant="light"
          loading={reboot.isPending}
          disabled={!devices.length}
          title={devices.length ? undefined : t('care.noDeviceTitle')}
          onClick={() => setAsking('reboot')}
        >
          {t('care.rebootDevices')}
        </Button>
      </Group>
      {devices.length ? null : (
        <Text size="sm" c="dimmed">
          {t('care.nothingToReboot')}
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
      <Modal
        opened={asking === 'reboot'}
        onClose={() => setAsking(null)}
        title={t('care.rebootDevices')}
        centered
      >
        <Stack gap="sm">
          <Text size="sm">{rebootQuestion(deviceNames)}</Text>
          <Text size="sm" c="dimmed">
            {t('care.rebootWhile', { name, count: devices.length })}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setAsking(null)}>
              {t('care.cancel')}
            </Button>
            <Button
              color="red"
              loading={reboot.isPending}
              onClick={() => reboot.mutate(user.id, { onSettled: () => setAsking(null) })}
            >
              {t('care.restart', { count: devices.length })}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Stack gap="sm" aria-live="polite">
        {alert.isSuccess ? (
          <Alert color="teal" title={t('care.alertSent')}>
            <JobLinks jobs={alert.data.jobs} />
          </Alert>
        ) : null}
        {reboot.isSuccess ? (
          <Alert color="teal" title={t('care.rebootRequested')}>
            <JobLinks jobs={reboot.data.jobs} />
          </Alert>
        ) : null}
        {reboot.isError ? (
          <Alert color="red" title={t('care.rebootFailed')} role="alert">
            {reboot.error.message}
          </Alert>
        ) : null}
        {alert.isSuccess || reboot.isSuccess ? (
          <Anchor component={Link} to={paths.admin.deviceJobs.list.to()} size="sm">
            {t('care.allJobs')}
          </Anchor>
        ) : null}
      </Stack>
    </DetailSection>
  );
}
