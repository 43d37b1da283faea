// A runner job's page: purpose, device, status, timing, its commands and their results (exit codes and
// output). A job the device has not finished refreshes itself; one not yet started can be cancelled.
import { Badge, Button, Code, List, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@careplane/shared/common/formats';
import { textOf } from '@careplane/shared/common/record-labels';
import {
  canTransitionJob,
  isFinishedJobStatus,
  type DeviceJob,
} from '@careplane/shared/devices/devices.contract';
import {
  DetailField,
  DetailSection,
  FieldGrid,
  RecordLink,
} from '@/lib/resource-kit/detail/detail-parts.tsx';
import { ResourceDetail } from '@/lib/resource-kit/detail/resource-detail.tsx';
import { deviceJobQueries, useCancelJob } from '../api/devices.queries.ts';
import { deviceJobResource } from '../device-jobs.resource.ts';
import { jobStatusColors } from './device-jobs-section.tsx';
import { notify } from '@/lib/notify.ts';

const REFRESH_MS = 5000;

function Output({ label, text }: { label: string; text: string }) {
  if (!text) return null;
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Code
        block
        style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 320, overflow: 'auto' }}
      >
        {text}
      </Code>
    </Stack>
  );
}

function JobSections({ job }: { job: DeviceJob }) {
  const results = job.results;
  return (
    <>
      <DetailSection title="Job">
        <FieldGrid>
          <DetailField label="Status">
            <Badge color={jobStatusColors[job.status] ?? 'gray'} variant="light">
              {job.status}
            </Badge>
          </DetailField>
          <DetailField label="Device">
            {job.device ? <RecordLink resource="devices" record={job.device} /> : null}
          </DetailField>
          <DetailField label="Not before">{formatDateTime(job.notBefore)}</DetailField>
          <DetailField label="Created">{formatDateTime(job.createdAt)}</DetailField>
          <DetailField label="Updated">{formatDateTime(job.updatedAt)}</DetailField>
          <DetailField label="Created by">
            {job.createdByUser ? <RecordLink resource="users" record={job.createdByUser} /> : null}
          </DetailField>
        </FieldGrid>
      </DetailSection>
      <DetailSection title="Commands">
        <List type="ordered" size="sm" spacing={4}>
          {job.commands.map((command, index) => (
            <List.Item key={index}>
              <Code>{command}</Code>
            </List.Item>
          ))}
        </List>
      </DetailSection>
      <DetailSection title="Results">
        {results.length ? (
          <Stack gap="md">
            <Table.ScrollContainer minWidth={560}>
              <Table verticalSpacing="xs" aria-label="Results">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Command</Table.Th>
                    <Table.Th>Exit code</Table.Th>
                    <Table.Th>Started</Table.Th>
                    <Table.Th>Finished</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {results.map((result, index) => (
                    <Table.Tr key={index}>
                      <Table.Td>
                        <Code>{textOf(result.command)}</Code>
                      </Table.Td>
                      <Table.Td>
                        {typeof result.exitCode === 'number' ? (
                          <Badge color={result.exitCode === 0 ? 'teal' : 'red'} variant="light">
                            {result.exitCode}
                          </Badge>
                        ) : (
                          'stopped'
                        )}
                      </Table.Td>
                      <Table.Td>{formatDateTime(textOf(result.startedAt) || undefined)}</Table.Td>
                      <Table.Td>{formatDateTime(textOf(result.finishedAt) || undefined)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {results.map((result, index) => (
              <Stack key={index} gap="xs">
                <Output label={`Output of ${textOf(result.command)}`} text={textOf(result.stdout)} />
                <Output label={`Errors of ${textOf(result.command)}`} text={textOf(result.stderr)} />
              </Stack>
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {isFinishedJobStatus(job.status) ? 'The device reported no results.' : 'No results yet.'}
          </Text>
        )}
      </DetailSection>
    </>
  );
}

export function DeviceJobDetail({ id }: { id: string }) {
  const cancel = useCancelJob();
  // While the job is under way its page follows it.
  useQuery({
    ...deviceJobQueries.detail(id, deviceJobResource.detailRelations),
    refetchInterval: (query) =>
      query.state.data && !isFinishedJobStatus(query.state.data.status) ? REFRESH_MS : false,
  });
  return (
    <ResourceDetail
      resource={deviceJobResource}
      id={id}
      subtitle={(job) => `${job.commands.length} command${job.commands.length === 1 ? '' : 's'}`}
      actions={(job) =>
        canTransitionJob(job.status, 'CANCELLED') ? (
          <Button
            variant="light"
            color="yellow"
            loading={cancel.isPending}
            onClick={() =>
              cancel.mutate(job.id, {
                onSuccess: () => notify({ message: 'The job was cancelled.' }),
                onError: (error) =>
                  notify({
                    color: 'red',
                    title: 'Could not cancel the job.',
                    message: error.message,
                  }),
              })
            }
          >
            Cancel job
          </Button>
        ) : null
      }
    >
      {(job) => <JobSections job={job} />}
    </ResourceDetail>
  );
}
