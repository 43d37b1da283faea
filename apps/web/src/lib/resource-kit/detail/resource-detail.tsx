// A record's page: its name, Edit and Delete (with a confirmation that names it), the sections the resource
// describes, and its history. Loading, missing and failing records each say so.
import { Alert, Anchor, Button, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isRecordId } from '@careplane/shared/common/primitives';
import { ApiError } from '@/lib/api-client.ts';
import { PageHeader } from '../page-header.tsx';
import { useDeleteRecord } from '../queries.ts';
import { historyFieldLabel, type ResourceDescription } from '../resource.ts';
import { inSentence, uiText } from '@/lib/i18n/translation.ts';
import { confirmDelete } from './confirm.tsx';
import { RecordHistory } from './record-history.tsx';
import { notify } from '@/lib/notify.ts';

export interface ResourceDetailProps<Item extends { id: string }> {
  resource: ResourceDescription<Item>;
  id: string;
  subtitle?: (item: Item) => ReactNode;
  /** Actions beside Edit and Delete. */
  actions?: (item: Item) => ReactNode;
  children: (item: Item) => ReactNode;
  /** Whether the record can be deleted here (default yes), or which records can. */
  deletable?: boolean | ((item: Item) => boolean);
}

/**
 * A record that cannot be shown: one that does not exist (a 404, or an address whose id is not one) says so with
 * the way back to its list; one that failed to load says why.
 */
export function RecordUnavailable<Item extends { id: string }>({
  resource,
  error,
}: {
  resource: ResourceDescription<Item>;
  error?: Error;
}) {
  const { t } = useTranslation('kit');
  const noun = uiText(resource.noun);
  const missing = !error || (error instanceof ApiError && error.status === 404);
  return (
    <Stack gap="md">
      <PageHeader title={missing ? t('detail.noSuch', { noun }) : t('detail.theRecord', { noun })} />
      <Alert
        color={missing ? 'yellow' : 'red'}
        role="alert"
        title={missing ? t('detail.notFound', { noun }) : t('detail.couldNotLoad', { noun })}
      >
        <Stack gap="xs" align="flex-start">
          {missing ? null : <Text size="sm">{error.message}</Text>}
          <Anchor component={Link} to={resource.paths.list()} size="sm">
            {t('detail.backTo', { things: inSentence(uiText(resource.title)) })}
          </Anchor>
        </Stack>
      </Alert>
    </Stack>
  );
}

export function ResourceDetail<Item extends { id: string }>({
  resource,
  id,
  subtitle,
  actions,
  children,
  deletable = true,
}: ResourceDetailProps<Item>) {
  const { t } = useTranslation('kit');
  // An id that is not a uuid names no record: it is not asked for, and reads as one that does not exist.
  const wellFormed = isRecordId(id);
  const record = useQuery({ ...resource.queries.detail(id, resource.detailRelations), enabled: wellFormed });
  const remove = useDeleteRecord(resource.queries);
  const navigate = useNavigate();
  const noun = uiText(resource.noun);

  if (!wellFormed) return <RecordUnavailable resource={resource} />;
  if (record.isPending) {
    return (
      <Stack gap="md" role="status" aria-busy="true" aria-label={t('detail.loading', { noun })}>
        <Skeleton h={36} w="40%" />
        <Skeleton h={180} />
        <Skeleton h={120} />
      </Stack>
    );
  }
  if (record.isError) return <RecordUnavailable resource={resource} error={record.error} />;

  const item = record.data;
  const name = resource.recordLabel(item);
  const edit = resource.paths.edit?.(item.id);
  const onDelete = () =>
    confirmDelete({
      noun: noun,
      name,
      onConfirm: () =>
        remove.mutate(item.id, {
          onSuccess: () => {
            notify({ color: 'teal', message: t('detail.deleted', { noun, name }) });
            void navigate(resource.paths.list());
          },
          onError: (error) =>
            notify({
              color: 'red',
              title: t('detail.couldNotDelete', { noun }),
              message: error.message,
            }),
        }),
    });

  return (
    <Stack gap="md">
      <PageHeader
        title={name}
        subtitle={subtitle?.(item)}
        actions={
          <>
            {actions?.(item)}
            {edit ? (
              <Button component={Link} to={edit} variant="default">
                {t('detail.edit')}
              </Button>
            ) : null}
            {(typeof deletable === 'function' ? deletable(item) : deletable) ? (
              <Button color="red" variant="light" onClick={onDelete} loading={remove.isPending}>
                {t('detail.delete')}
              </Button>
            ) : null}
          </>
        }
      />
      {children(item)}
      <RecordHistory
        recordId={item.id}
        fieldLabel={(key) => historyFieldLabel(key, resource)}
        words={resource.history}
      />
    </Stack>
  );
}
