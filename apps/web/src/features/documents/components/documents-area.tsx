// The Documents area: my documents, those shared with me, those waiting for my signature; a search on the
// title, pages, and the upload. Scope, search and page live in the URL.
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Paper,
  Skeleton,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime } from '@careplane/shared/common/formats';
import {
  documentScopes,
  type Document,
  type DocumentScope,
} from '@careplane/shared/documents/documents.contract';
import { PageControls } from '@/lib/resource-kit/list/page-controls.tsx';
import { DOCUMENTS_PAGE_SIZE, documentQueries } from '../api/documents.queries.ts';
import { DocumentStateBadge } from './document-status.tsx';
import { DocumentUpload } from './document-upload.tsx';

const isScope = (value: string | null): value is DocumentScope =>
  (documentScopes as readonly string[]).includes(value ?? '');

interface Props {
  /** Where a document opens. */
  detailPath: (id: string) => string;
  onOpen: (document: Document) => void;
}

function DocumentRow({ document, to }: { document: Document; to: string }) {
  const { t } = useTranslation('documents');
  const signatures = document.signingPartiesMetadata.length;
  return (
    <Paper withBorder p="sm" radius="md" component="li" style={{ listStyle: 'none' }}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Anchor component={Link} to={to} fw={600} style={{ overflowWrap: 'anywhere' }}>
            {document.title}
          </Anchor>
          <Text size="xs" c="dimmed">
            {document.owner ? `${document.owner.name} · ` : ''}
            {formatDateTime(document.createdAt)}
            {signatures ? ` · ${t('area.signatures', { count: signatures })}` : ''}
          </Text>
        </Stack>
        <DocumentStateBadge document={document} />
      </Group>
    </Paper>
  );
}

export function DocumentsArea({ detailPath, onOpen }: Props) {
  const { t } = useTranslation('documents');
  const [params, setParams] = useSearchParams();
  const scope: DocumentScope = isScope(params.get('scope')) ? (params.get('scope') as DocumentScope) : 'own';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [search, setSearch] = useState(params.get('q') ?? '');
  const [debounced] = useDebouncedValue(search, 300);
  const [uploading, setUploading] = useState(false);

  const update = (patch: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(patch)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  useEffect(() => {
    if ((params.get('q') ?? '') !== debounced) update({ q: debounced, page: null });
    // Only the debounced text drives the address (the page starts over with a new search).
  }, [debounced]);

  const list = useQuery(documentQueries.list({ scope, search: debounced, page }));

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('area.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('area.intro')}
          </Text>
        </Stack>
        <Button variant={uploading ? 'default' : 'filled'} onClick={() => setUploading((open) => !open)}>
          {uploading ? t('area.closeUpload') : t('area.upload')}
        </Button>
      </Group>
      {uploading ? (
        <Card withBorder radius="md" padding="md">
          <DocumentUpload onUploaded={onOpen} />
        </Card>
      ) : null}
      <Tabs
        value={scope}
        onChange={(value) => isScope(value) && update({ scope: value === 'own' ? null : value, page: null })}
      >
        <Tabs.List>
          {documentScopes.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {t(`area.scopes.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <TextInput
        label={t('area.search')}
        placeholder={t('area.searchPlaceholder')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={360}
      />
      {list.isPending ? (
        <Stack gap="xs" aria-busy="true" aria-label={t('area.loading')}>
          <Skeleton h={56} />
          <Skeleton h={56} />
          <Skeleton h={56} />
        </Stack>
      ) : list.isError ? (
        <Alert color="red" title={t('area.error')} role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{list.error.message}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void list.refetch()}>
              {t('area.tryAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : list.data.items.length === 0 ? (
        <Text c="dimmed">{debounced ? t('area.noMatch') : t(`area.empty.${scope}`)}</Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} aria-label={t(`area.scopes.${scope}`)}>
          {list.data.items.map((document) => (
            <DocumentRow key={document.id} document={document} to={detailPath(document.id)} />
          ))}
        </Stack>
      )}
      <PageControls
        total={list.data?.total}
        pageSize={DOCUMENTS_PAGE_SIZE}
        page={page}
        onChange={(value) => update({ page: value === 1 ? null : String(value) })}
      />
    </Stack>
  );
}
