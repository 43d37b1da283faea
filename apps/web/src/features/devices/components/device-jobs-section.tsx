// The newest runner jobs of a device, with their status, and the way to give it a new one.
import { Anchor, Badge, Button, Group, List, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDateTime } from '@careplane/shared/common/formats';
import { paths } from '../../../config/paths.ts';
import { DetailSection } from '../../../lib/resource-kit/detail/detail-parts.tsx';
import { deviceJobQueries } from '../api/devices.queries.ts';

export const jobStatusColors: Record<string, string> = {
  NEW: 'gray',
  ACCEPTED: 'blue',
  RUNNING: 'cyan',
  SUCCEEDED: 'teal',
  FAILED: 'red',
  CANCELLED: 'yellow',
  TIMED_OUT: 'orange',
};

export function DeviceJobsSection({ deviceId }: { deviceId: string }) {
  const filter = `device.id~${deviceId}`;
  const jobs = useQuery(deviceJobQueries.list({ filters: [filter], sort: ['createdAt:desc'], limit: 5 }));
  const all = `${paths.admin.deviceJobs.list.to()}?${new URLSearchParams({ filters: filter }).toString()}`;
  return (
    <DetailSection
      title="Jobs"
      actions={
        <Button
          size="xs"
          variant="light"
          component={Link}
          to={`${paths.admin.deviceJobs.add.to()}?device=${deviceId}`}
        >
          New job
        </Button>
      }
    >
      {jobs.isPending ? (
        <Text size="sm">Loading…</Text>
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
                    {job.status}
                  </Badge>
                  <Anchor component={Link} to={paths.admin.deviceJobs.detail.to(job.id)} size="sm" truncate>
                    {job.purpose}
                  </Anchor>
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">
                    {formatDateTime(job.createdAt)}
                  </Text>
                </Group>
              </List.Item>
            ))}
          </List>
          <Anchor component={Link} to={all} size="sm">
            {`All jobs of this device (${jobs.data.total})`}
          </Anchor>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          No jobs yet.
        </Text>
      )}
    </DetailSection>
  );
}
