// A resource's create and edit page: the record (when editing) loaded with the relations its form reads,
// the described form, and where to go once saved.
import { Skeleton, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ZodType } from 'zod';
import { isRecordId } from '@careplane/shared/common/primitives';
import { api } from '@/lib/api-client.ts';
import { RecordUnavailable } from '../detail/resource-detail.tsx';
import { PageHeader } from '../page-header.tsx';
import { invalidateResource, useUpdateRecord } from '../queries.ts';
import type { ResourceDescription } from '../resource.ts';
import { uiText } from '@/lib/i18n/translation.ts';
import type { FieldSpec } from './form-model.ts';
import { ResourceForm } from './resource-form.tsx';
import { notify } from '@/lib/notify.ts';

export interface ResourceEditProps<Item extends { id: string }> {
  resource: ResourceDescription<Item>;
  /** The record to edit; none creates one. */
  id?: string;
  fields: readonly FieldSpec[];
  createSchema?: ZodType;
  updateSchema?: ZodType;
  /** Relations the form reads from the record (its relation fields). */
  relations?: readonly string[];
  /** What the create answers is handed to the new record's page once (a token, an enrollment code). */
  keepCreatedAnswer?: boolean;
  createTitle?: string;
  /** Values a new record starts with. */
  start?: Record<string, unknown>;
}

export function ResourceEdit<Item extends { id: string }>({
  resource,
  id,
  fields,
  createSchema,
  updateSchema,
  relations = [],
  keepCreatedAnswer = false,
  createTitle,
  start,
}: ResourceEditProps<Item>) {
  const { t } = useTranslation('kit');
  const navigate = useNavigate();
  const noun = uiText(resource.noun);
  const client = useQueryClient();
  const wellFormed = id !== undefined && isRecordId(id);
  const record = useQuery({ ...resource.queries.detail(id ?? '', relations), enabled: wellFormed });
  const update = useUpdateRecord(resource.queries);

  const onSubmit = async (body: Record<string, unknown>, mode: 'create' | 'edit') => {
    if (mode === 'create') {
      const created = await api.post<Item>(resource.queries.endpoints.list, body);
      await invalidateResource(client, resource.queries.resource);
      notify({ color: 'teal', message: t('form.created', { noun }) });
      await navigate(resource.paths.detail(created.id), {
        state: keepCreatedAnswer ? { created } : undefined,
      });
      return;
    }
    const saved = await update.mutateAsync({ id: id!, body });
    // The record's page opens on what was saved, not on the copy read before the edit.
    await client.fetchQuery({ ...resource.queries.detail(saved.id, resource.detailRelations), staleTime: 0 });
    notify({ color: 'teal', message: t('form.saved', { noun }) });
    await navigate(resource.paths.detail(saved.id));
  };

  if (id && !wellFormed) return <RecordUnavailable resource={resource} />;
  if (id && record.isPending) {
    return (
      <Stack gap="md" role="status" aria-busy="true" aria-label={t('detail.loading', { noun })}>
        <Skeleton h={36} w="40%" />
        <Skeleton h={320} />
      </Stack>
    );
  }
  if (id && record.isError) return <RecordUnavailable resource={resource} error={record.error} />;
  const item = id ? record.data : undefined;
  return (
    <Stack gap="md">
      <PageHeader
        title={
          item
            ? t('form.editTitle', { name: resource.recordLabel(item) })
            : (createTitle ?? t('list.newRecord', { noun }))
        }
      />
      <ResourceForm
        key={item?.id ?? 'new'}
        fields={fields}
        record={item}
        start={start}
        createSchema={createSchema}
        updateSchema={updateSchema}
        onSubmit={onSubmit}
        cancelTo={item ? resource.paths.detail(item.id) : resource.paths.list()}
      />
    </Stack>
  );
}
