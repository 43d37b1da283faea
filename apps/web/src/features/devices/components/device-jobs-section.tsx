// The newest runner jobs of a device, with their status, a cancel action for those not yet running, and the
// way to give it a new one.
import { Anchor, Badge, Button, Group, List, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@careplane/shared/common/formats';
import { canTransitionJob, type DeviceJob } from '@careplane/shared/devices/devices.contract';
import { paths } from '@/config/paths.ts';
import { DetailSection } from '@/lib/resource-kit/detail/detail-parts.tsx';
import { deviceJobQueries } from '../api/devices.queries.ts';
import { useCancelJobAction } from './cancel-job.tsx';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { jobPurposeText } from '@/lib/i18n/job-purpose.ts';

export const jobStatusColors: Record<string, string> = {
  NEW: 'gray',
  ACCEPTED: 'blue',
  RUNNING: 'cyan',
  SUCCEEDED: 'teal',
  FAILED: 'red',
  CANCELLED: 'yellow',
  TIMED_OUT: 'orange',
};

/** Cancels a job that has not started running (NEW or ACCEPTED), once confirmed; the device's next report is
 * then refused. */
function CancelJobButton({ job }: { job: DeviceJob }) {
  const cancel = useCancelJobAction();
  const { t } = useTranslation('devices');
  if (!canTransitionJob(job.status, 'CANCELLED')) return null;
  return (
    <Button
      size="compact-xs"
      variant="subtle"
      color="yellow.9"
      loading={cancel.pending}
      aria-label={t('jobs.cancelNamed', { purpose: jobPurposeText(job.purpose) })}
      onClick={() => cancel.ask(job)}
    >
      {t('jobs.cancel')}
    </Button>
  );
}

export function DeviceJobsSection({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation('devices');
  const filter = `device.id~${deviceId}`;
  const jobs = useQuery(deviceJobQueries.list({ filters: [filter], sort: ['createdAt:desc'], limit: 5 }));
  const all = `${paths.admin.deviceJobs.list.to()}?${new URLSearchParams({ filters: filter }).toString()}`;
  return (
    <DetailSection
      title={t('jobs.title')}
      actions={
        <Button
          size="xs"
          variant="light"
          component={Link}
          to={`${paths.admin.deviceJobs.add.to()}?device=${deviceId}`}
        >
          {t('jobs.newJob')}
        </Button>
      }
    >
      {jobs.isPending ? (
        <Text size="sm">{t('jobs.loading')}</Text>
      ) : jobs.isError ? (
        <Text size="sm" c="red.8">
          {jobs.error.message}
        </Text>
      ) : jobs.data.items.length ? (
        <>
          <List spacing={6} size="sm" listStyleType="none" p={0}>
            {jobs.data.items.map((job) => (
              <List.Item key={job.id}>
                <Group gap="xs" wrap="nowrap">
                  <Badge
                    color={jobStatusColors[job.status] ?? 'gray'}
                    variant="light"
                    w={100}
                    style={{ flexShrink: 0 }}
                  >
                    {enumLabel('jobStatus', job.status)}
                  </Badge>
                  <Anchor component={Link} to={paths.admin.deviceJobs.detail.to(job.id)} size="sm" truncate>
                    {jobPurposeText(job.purpose)}
                  </Anchor>
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">
                    {formatDateTime(job.createdAt)}
                  </Text>
                  <CancelJobButton job={job} />
                </Group>
              </List.Item>
            ))}
          </List>
          <Anchor component={Link} to={all} size="sm">
            {t('jobs.allOfDevice', { total: jobs.data.total })}
          </Anchor>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {t('jobs.none')}
        </Text>
      )}
    </DetailSection>
  );
}
