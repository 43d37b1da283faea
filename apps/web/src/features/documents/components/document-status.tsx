// How a document's state reads everywhere: a badge, and a fingerprint shown the way the phone shows it.
import { Badge, Code, CopyButton, Group, Text, Tooltip, UnstyledButton } from '@mantine/core';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { shortSha256 } from '@careplane/shared/common/formats';
import type { Document } from '@careplane/shared/documents/documents.contract';

export function documentState(document: Document): { label: string; color: string } {
  const signed = document.parties.filter((party) => party.state === 'signed').length;
  if (document.access.canSign && document.access.role === 'party') {
    return { label: i18next.t('documents:status.waitingForYou'), color: 'orange' };
  }
  if (document.isSigned) return { label: i18next.t('documents:status.signed'), color: 'teal' };
  if (document.parties.length > 0) {
    const pending = document.parties.length - signed;
    return signed === 0
      ? { label: i18next.t('documents:status.waitingFor', { count: pending }), color: 'yellow' }
      : {
          label: i18next.t('documents:status.signedBy', { signed, asked: document.parties.length }),
          color: 'yellow',
        };
  }
  if (document.signingPartiesMetadata.length > 0) {
    return { label: i18next.t('documents:status.signed'), color: 'teal' };
  }
  return { label: i18next.t('documents:status.notSigned'), color: 'gray' };
}

export function DocumentStateBadge({ document }: { document: Document }) {
  // Read in the language shown: the badge renders again when it changes.
  useTranslation('documents');
  const state = documentState(document);
  return (
    <Badge color={state.color} variant="light" data-testid="document-state">
      {state.label}
    </Badge>
  );
}

/** The SHA-256 shortened as the phone shows it; the whole value copies on click. */
export function Fingerprint({ sha256, testId }: { sha256: string; testId?: string }) {
  const { t } = useTranslation('documents');
  return (
    <CopyButton value={sha256}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('status.copied') : t('status.copyFull')} withArrow>
          <UnstyledButton onClick={copy} aria-label={t('status.copyAria', { sha256 })}>
            <Group gap={6} wrap="nowrap">
              <Code fw={700} data-testid={testId}>
                {shortSha256(sha256)}
              </Code>
              <Text size="xs" c="dimmed">
                {copied ? t('status.copiedShort') : t('status.copy')}
              </Text>
            </Group>
          </UnstyledButton>
        </Tooltip>
      )}
    </CopyButton>
  );
}
