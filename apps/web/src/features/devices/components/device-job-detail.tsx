// A runner job's page: purpose, device, status, timing, its commands and their results (exit codes and
// output). A job the device has not finished refreshes itself; one not yet started can be cancelled.
import { Badge, Button, Code, List, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
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
import { deviceJobQueries } from '../api/devices.queries.ts';
import { deviceJobResource } from '../device-jobs.resource.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { jobStatusColors } from './device-jobs-section.tsx';
import { useCancelJobAction } from './cancel-job.tsx';

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
  const { t } = useTranslation('devices');
  return (
    <>
      <DetailSection title={t('jobDetail.job')}>
        <FieldGrid>
          <DetailField label={t('jobDetail.status')}>
            <Badge color={jobStatusColors[job.status] ?? 'gray'} variant="light">
              {enumLabel('jobStatus', job.status)}
            </Badge>
          </DetailField>
          <DetailField label={t('jobDetail.device')}>
            {job.device ? <RecordLink resource="devices" record={job.device} /> : null}
          </DetailField>
          <DetailField label={t('jobDetail.notBefore')}>{formatDateTime(job.notBefore)}</DetailField>
          <DetailField label={t('jobDetail.created')}>{formatDateTime(job.createdAt)}</DetailField>
          <DetailField label={t('jobDetail.updated')}>{formatDateTime(job.updatedAt)}</DetailField>
          <DetailField label={t('jobDetail.createdBy')}>
            {job.createdByUser ? <RecordLink resource="users" record={job.createdByUser} /> : null}
          </DetailField>
        </FieldGrid>
      </DetailSection>
      <DetailSection title={t('jobDetail.commands')}>
        <List type="ordered" size="sm" spacing={4}>
          {job.commands.map((command, index) => (
            <List.Item key={index}>
              <Code>{command}</Code>
            </List.Item>
          ))}
        </List>
      </DetailSection>
      <DetailSection title={t('jobDetail.results')}>
        {results.length ? (
          <Stack gap="md">
            <Table.ScrollContainer minWidth={560}>
              <Table verticalSpacing="xs" aria-label={t('jobDetail.results')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('jobDetail.command')}</Table.Th>
                    <Table.Th>{t('jobDetail.exitCode')}</Table.Th>
                    <Table.Th>{t('jobDetail.started')}</Table.Th>
                    <Table.Th>{t('jobDetail.finished')}</Table.Th>
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
                          t('jobDetail.stopped')
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
                <Output
                  label={t('jobDetail.outputOf', { command: textOf(result.command) })}
                  text={textOf(result.stdout)}
                />
                <Output
                  label={t('jobDetail.errorsOf', { command: textOf(result.command) })}
                  text={textOf(result.stderr)}
                />
              </Stack>
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {job.status === 'CANCELLED'
              ? t('jobDetail.cancelledBeforeResults')
              : isFinishedJobStatus(job.status)
                ? t('jobDetail.noResultsReported')
                : t('jobDetail.noResultsYet')}
          </Text>
        )}
      </DetailSection>
    </>
  );
}

export function DeviceJobDetail({ id }: { id: string }) {
  const cancel = useCancelJobAction();
  const { t } = useTranslation('devices');
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
      subtitle={(job) => t('jobDetail.commandCount', { count: job.commands.length })}
      actions={(job) =>
        canTransitionJob(job.status, 'CANCELLED') ? (
          <Button variant="light" color="yellow" loading={cancel.pending} onClick={() => cancel.ask(job)}>
            {t('jobDetail.cancelJob')}
          </Button>
        ) : null
      }
    >
      {(job) => <JobSections job={job} />}
    </ResourceDetail>
  );
}
