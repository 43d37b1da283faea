// A record's history from the audit log: when, who (by name), what was done and which fields changed.
import { Alert, Badge, Loader, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@careplane/shared/common/formats';
import { historyQueries, referenceQueries } from '../queries.ts';
import type { HistoryWords } from '../resource.ts';
import { DetailSection, RecordLink } from './detail-parts.tsx';

const actionColors: Record<string, string> = { create: 'teal', update: 'blue', delete: 'red' };
const eventPhrase = {
  label: { whiteSpace: 'normal', overflow: 'visible' },
  root: { paddingBlock: 2 },
} as const;
const isKnownAction = (action: string): action is 'create' | 'update' | 'delete' => action in actionColors;

export function RecordHistory({
  recordId,
  fieldLabel = (key) => key,
  words = {},
}: {
  recordId: string;
  /** A changed field's name as the record's pages name it (its column title), never its key. */
  fieldLabel?: (key: string) => string;
  words?: HistoryWords | undefined;
}) {
  const { t } = useTranslation('kit');
  const history = useQuery(historyQueries.forRecord(recordId));
  const actorIds = [
    ...new Set(
      (history.data?.items ?? []).flatMap((entry) => (entry.actorUserId ? [entry.actorUserId] : [])),
    ),
  ];
  const actors = useQuery({ ...referenceQueries.byIds('users', actorIds), enabled: actorIds.length > 0 });
  const actorById = new Map((actors.data ?? []).map((actor) => [actor.id, actor]));
  const eventText = (action: string) =>
    words.event?.(action) ?? (isKnownAction(action) ? t(`history.actions.${action}`) : action);

  let body;
  if (history.isPending) body = <Loader size="sm" role="status" aria-label={t('history.loading')} />;
  else if (history.isError)
    body = (
      <Alert color="red" title={t('history.couldNotLoad')}>
        {history.error.message}
      </Alert>
    );
  else if (!history.data.items.length)
    body = (
      <Text size="sm" c="dimmed">
        {t('history.empty')}
      </Text>
    );
  else
    body = (
      <Table.ScrollContainer minWidth={560}>
        <Table striped verticalSpacing="xs" aria-label={t('history.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('history.when')}</Table.Th>
              <Table.Th>{t('history.who')}</Table.Th>
              <Table.Th>{t('history.what')}</Table.Th>
              <Table.Th>{t('history.fields')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {history.data.items.map((entry) => {
              const actor = entry.actorUserId ? actorById.get(entry.actorUserId) : undefined;
              return (
                <Table.Tr key={entry.id}>
                  <Table.Td style={{ whiteSpace: words.when ? undefined : 'nowrap' }}>
                    {words.when ? words.when(entry) : formatDateTime(entry.at)}
                  </Table.Td>
                  <Table.Td>
                    {actor ? (
                      <RecordLink resource="users" record={actor} />
                    ) : entry.actorUserId ? (
                      actors.isPending ? (
                        '…'
                      ) : (
                        t('history.deletedUser')
                      )
                    ) : (
                      (entry.actorSubject ?? t('history.system'))
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      variant="light"
                      color={actionColors[entry.action] ?? 'gray'}
                      // An event in the resource's words is a phrase: it reads as written and wraps.
                      {...(words.event ? { tt: 'none', h: 'auto', styles: eventPhrase } : {})}
                    >
                      {eventText(entry.action)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {Object.keys(entry.changes ?? {})
                      .filter((key) => !words.unlisted?.includes(key))
                      .map(fieldLabel)
                      .join(', ') || '—'}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  return <DetailSection title={t('history.title')}>{body}</DetailSection>;
}
