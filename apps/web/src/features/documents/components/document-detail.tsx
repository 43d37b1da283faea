// One document: its file and fingerprint, who is asked to sign and who signed when, the downloads, and what
// the caller may do (sign with the phone, share, delete).
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@careplane/shared/common/formats';
import type { Document } from '@careplane/shared/documents/documents.contract';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { ApiError } from '@/lib/api-client.ts';
import { useSession } from '@/lib/session.ts';
import { downloadDocument } from '../api/documents-files.ts';
import { useDeleteDocument } from '../api/documents.mutations.ts';
import { documentQueries } from '../api/documents.queries.ts';
import { DocumentStateBadge, Fingerprint } from './document-status.tsx';
import { formatBytes } from './pdf-dropzone.tsx';
import { ShareModal } from './share-modal.tsx';
import { SignButton } from './sign-button.tsx';

/** The signer's role as people read it: owner and party from this API, else the role as recorded. */
function roleText(role: string): string {
  return role === 'owner' || role === 'party' || role === 'admin'
    ? i18next.t(`documents:enums.signerRole.${role}`)
    : role;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

function Downloads({ document }: { document: Document }) {
  const { t } = useTranslation('documents');
  const download = useMutation({
    mutationFn: (which: 'original' | 'signed') => downloadDocument(document.id, which),
    onSuccess: (name) => notifications.show({ color: 'teal', message: t('detail.savedAs', { name }) }),
    onError: (error) =>
      notifications.show({ color: 'red', title: t('files.downloadFailed'), message: error.message }),
  });
  return (
    <Group gap="xs">
      <Button
        variant="default"
        disabled={!document.file}
        loading={download.isPending && download.variables === 'original'}
        onClick={() => download.mutate('original')}
      >
        {t('detail.downloadOriginal')}
      </Button>
      <Button
        variant={document.signedFile ? 'filled' : 'default'}
        disabled={!document.signedFile}
        loading={download.isPending && download.variables === 'signed'}
        onClick={() => download.mutate('signed')}
      >
        {t('detail.downloadSigned')}
      </Button>
    </Group>
  );
}

function Signing({ document }: { document: Document }) {
  const { t } = useTranslation('documents');
  const userId = useSession((state) => state.user?.id);
  const mine = document.signingPartiesMetadata.find((entry) => entry.userId === userId);
  if (document.access.canSign) return <SignButton document={document} />;
  if (document.access.hasSigned) {
    return (
      <Text size="sm" data-testid="signed-by-me">
        {mine ? t('detail.signedByMeOn', { date: formatDateTime(mine.signedAt) }) : t('detail.signedByMe')}
      </Text>
    );
  }
  if (!document.file) return <Text size="sm">{t('detail.noFile')}</Text>;
  return (
    <Text size="sm" c="dimmed">
      {t('detail.onlyParties')}
    </Text>
  );
}

function Parties({ document }: { document: Document }) {
  const { t } = useTranslation('documents');
  if (document.parties.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('detail.nobodyAsked')}
      </Text>
    );
  }
  return (
    <Stack gap={6} component="ul" p={0} m={0}>
      {document.parties.map((party) => (
        <Group
          key={party.userId}
          component="li"
          justify="space-between"
          wrap="nowrap"
          style={{ listStyle: 'none' }}
        >
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm">{party.name}</Text>
            {party.signedAt ? (
              <Text size="xs" c="dimmed">
                {formatDateTime(party.signedAt)}
              </Text>
            ) : null}
          </Stack>
          <Badge
            color={party.state === 'signed' ? 'teal' : 'yellow'}
            variant="light"
            style={{ flexShrink: 0 }}
          >
            {party.state === 'signed' ? t('detail.partySigned') : t('detail.partyPending')}
          </Badge>
        </Group>
      ))}
    </Stack>
  );
}

function Signatures({ document }: { document: Document }) {
  const { t } = useTranslation('documents');
  if (document.signingPartiesMetadata.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('detail.noSignature')}
      </Text>
    );
  }
  return (
    <Stack gap="sm" component="ol" p={0} m={0} data-testid="signatures">
      {document.signingPartiesMetadata.map((entry, index) => (
        <Stack
          key={`${entry.userId ?? 'unknown'}-${entry.signedAt}`}
          gap={0}
          component="li"
          style={{ listStyle: 'none' }}
        >
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm" fw={600}>
              {index + 1}. {entry.name}
            </Text>
            <Text size="sm">{formatDateTime(entry.signedAt)}</Text>
          </Group>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {[
              entry.role ? roleText(entry.role) : null,
              entry.username,
              entry.certificateSerial ? t('detail.certificate', { serial: entry.certificateSerial }) : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}

interface Props {
  id: string;
  onDeleted: () => void;
}

export function DocumentDetail({ id, onDeleted }: Props) {
  const { t } = useTranslation('documents');
  const query = useQuery(documentQueries.detail(id));
  const [sharing, share] = useDisclosure(false);
  const remove = useDeleteDocument(id);

  if (query.isPending) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label={t('detail.loading')}>
        <Skeleton h={48} />
        <Skeleton h={160} />
      </Stack>
    );
  }
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Alert color="red" title={missing ? t('detail.notFound') : t('detail.error')} role="alert">
        <Text size="sm">{missing ? t('detail.notFoundText') : query.error.message}</Text>
      </Alert>
    );
  }
  const document = query.data;
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('detail.confirmTitle'),
      children: <Text size="sm">{t('detail.confirmText', { title: document.title })}</Text>,
      labels: { confirm: t('detail.confirm'), cancel: t('detail.keep') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(undefined, { onSuccess: onDeleted }),
    });

  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {document.title}
          </Title>
          <DocumentStateBadge document={document} />
        </Group>
        <Text size="sm" c="dimmed">
          {document.owner
            ? t('detail.uploadedBy', { name: document.owner.name, date: formatDateTime(document.createdAt) })
            : t('detail.uploadedOn', { date: formatDateTime(document.createdAt) })}
        </Text>
      </Stack>

      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Field label={t('detail.file')}>
              {document.file ? formatBytes(document.file.size) : t('detail.none')}
            </Field>
            <Field label={t('detail.fingerprint')}>
              {document.file ? (
                <Fingerprint sha256={document.file.sha256} testId="document-fingerprint" />
              ) : (
                '—'
              )}
            </Field>
            {document.signedFile ? (
              <Field label={t('detail.signedVersion')}>
                <Group gap="xs">
                  <Text size="sm">{formatBytes(document.signedFile.size)}</Text>
                  <Fingerprint sha256={document.signedFile.sha256} />
                </Group>
              </Field>
            ) : null}
          </SimpleGrid>
          <Downloads document={document} />
        </Stack>
      </Card>

      <Card withBorder radius="md" padding="lg">
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('detail.yourSignature')}
          </Title>
          <Signing document={document} />
        </Stack>
      </Card>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder radius="md" padding="lg">
          <Stack gap="sm">
            <Group justify="space-between">
              <Title order={2} size="h4">
                {t('detail.askedToSign')}
              </Title>
              {document.access.canShare ? (
                <Button size="xs" variant="light" onClick={share.open}>
                  {t('detail.share')}
                </Button>
              ) : null}
            </Group>
            <Parties document={document} />
          </Stack>
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('detail.signatures')}
            </Title>
            <Signatures document={document} />
          </Stack>
        </Card>
      </SimpleGrid>

      <Group justify="space-between" wrap="wrap">
        <Anchor component={Link} to={paths.verify.to()} size="sm">
          {t('detail.verifyLink')}
        </Anchor>
        {document.access.canDelete ? (
          <Button color="red" variant="subtle" onClick={confirmDelete} loading={remove.isPending}>
            {t('detail.delete')}
          </Button>
        ) : null}
      </Group>
      {sharing ? <ShareModal document={document} opened={sharing} onClose={share.close} /> : null}
    </Stack>
  );
}
