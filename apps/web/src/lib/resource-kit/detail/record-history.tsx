// A record's history from the audit log: when, who (by name), what was done and which fields changed.
import { Alert, Badge, Loader, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@careplane/shared/common/formats';
import { historyQueries, referenceQueries } from '../queries.ts';
import { DetailSection, RecordLink } from './detail-parts.tsx';

const actionColors: Record<string, string> = { create: 'teal', update: 'blue', delete: 'red' };

export function RecordHistory({ recordId }: { recordId: string }) {
  const history = useQuery(historyQueries.forRecord(recordId));
  const actorIds = [
    ...new Set(
      (history.data?.items ?? []).flatMap((entry) => (entry.actorUserId ? [entry.actorUserId] : [])),
    ),
  ];
  const actors = useQuery({ ...referenceQueries.byIds('users', actorIds), enabled: actorIds.length > 0 });
  const actorById = new Map((actors.data ?? []).map((actor) => [actor.id, actor]));

  let body;
  if (history.isPending) body = <Loader size="sm" role="status" aria-label="Loading the history" />;
  else if (history.isError)
    body = (
      <Alert color="red" title="Could not load the history.">
        {history.error.message}
      </Alert>
    );
  else if (!history.data.items.length)
    body = (
      <Text size="sm" c="dimmed">
        No changes recorded.
      </Text>
    );
  else
    body = (
      <Table.ScrollContainer minWidth={560}>
        <Table striped verticalSpacing="xs" aria-label="History">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>What</Table.Th>
              <Table.Th>Fields</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {history.data.items.map((entry) => {
              const actor = entry.actorUserId ? actorById.get(entry.actorUserId) : undefined;
              return (
                <Table.Tr key={entry.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.at)}</Table.Td>
                  <Table.Td>
                    {actor ? (
                      <RecordLink resource="users" record={actor} />
                    ) : entry.actorUserId ? (
                      actors.isPending ? (
                        '…'
                      ) : (
                        'A deleted user'
                      )
                    ) : (
                      (entry.actorSubject ?? 'The system')
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={actionColors[entry.action] ?? 'gray'}>
                      {entry.action}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{Object.keys(entry.changes ?? {}).join(', ') || '—'}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  return <DetailSection title="History">{body}</DetailSection>;
}
