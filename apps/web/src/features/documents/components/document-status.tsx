// How a document's state reads everywhere: a badge, and a fingerprint shown the way the phone shows it.
import { Badge, Code, CopyButton, Group, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { shortSha256 } from '@careplane/shared/common/formats';
import type { Document } from '@careplane/shared/documents/documents.contract';

export function documentState(document: Document): { label: string; color: string } {
  const signed = document.parties.filter((party) => party.state === 'signed').length;
  if (document.access.canSign && document.access.role === 'party') {
    return { label: 'Waiting for your signature', color: 'orange' };
  }
  if (document.isSigned) return { label: 'Signed', color: 'teal' };
  if (document.parties.length > 0) {
    const pending = document.parties.length - signed;
    return signed === 0
      ? { label: `Waiting for ${pending} signature${pending === 1 ? '' : 's'}`, color: 'yellow' }
      : { label: `Signed by ${signed} of ${document.parties.length} asked`, color: 'yellow' };
  }
  if (document.signingPartiesMetadata.length > 0) return { label: 'Signed', color: 'teal' };
  return { label: 'Not signed', color: 'gray' };
}

export function DocumentStateBadge({ document }: { document: Document }) {
  const state = documentState(document);
  return (
    <Badge color={state.color} variant="light" data-testid="document-state">
      {state.label}
    </Badge>
  );
}

/** The SHA-256 shortened as the phone shows it; the whole value copies on click. */
export function Fingerprint({ sha256, testId }: { sha256: string; testId?: string }) {
  return (
    <CopyButton value={sha256}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : 'Copy the full SHA-256'} withArrow>
          <UnstyledButton onClick={copy} aria-label={`SHA-256 ${sha256}, copy`}>
            <Group gap={6} wrap="nowrap">
              <Code fw={700} data-testid={testId}>
                {shortSha256(sha256)}
              </Code>
              <Text size="xs" c="dimmed">
                {copied ? 'copied' : 'copy'}
              </Text>
            </Group>
          </UnstyledButton>
        </Tooltip>
      )}
    </CopyButton>
  );
}
