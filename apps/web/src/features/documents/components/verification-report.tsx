// The verifier's answer in plain words: the verdict on top, then each signature with who signed, when, and
// each check (intact, whole file or a later revision, the Careplane CA, known to Careplane).
import { Alert, Badge, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { formatDateTime } from '@careplane/shared/common/formats';
import type {
  SignatureReport,
  VerdictStatus,
  VerificationReport,
} from '@careplane/shared/documents/documents.contract';
import { Fingerprint } from './document-status.tsx';
import { formatBytes } from './pdf-dropzone.tsx';

const verdicts: Record<VerdictStatus, { title: string; color: string }> = {
  authentic: { title: 'Authentic and untampered', color: 'teal' },
  'modified-after-signing': { title: 'Changed after the last signature', color: 'yellow' },
  untrusted: { title: 'Intact, but not vouched for by Careplane', color: 'orange' },
  unsupported: { title: 'Not verifiable', color: 'gray' },
  tampered: { title: 'Tampered or damaged', color: 'red' },
  unsigned: { title: 'Not signed', color: 'gray' },
  unreadable: { title: 'Not a readable PDF', color: 'red' },
};

function Check({ ok, yes, no }: { ok: boolean; yes: string; no: string }) {
  return (
    <List.Item>
      <Group gap="xs" wrap="nowrap">
        <Badge color={ok ? 'teal' : 'red'} variant="light" miw={48} style={{ flexShrink: 0 }}>
          {ok ? 'yes' : 'no'}
        </Badge>
        <Text size="sm">{ok ? yes : no}</Text>
      </Group>
    </List.Item>
  );
}

function SignatureCard({ signature }: { signature: SignatureReport }) {
  const signer = signature.signer;
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={`Signature ${signature.index}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={0}>
            <Text fw={700}>
              {signature.index}. {signer?.commonName ?? 'Unknown signer'}
            </Text>
            <Text size="xs" c="dimmed">
              {[signer?.username, signer?.email].filter(Boolean).join(' · ') ||
                'no user name in the certificate'}
            </Text>
          </Stack>
          <Text size="sm">
            {signature.signingTime ? formatDateTime(signature.signingTime) : 'time unknown'}
          </Text>
        </Group>
        <List spacing={4} listStyleType="none" p={0}>
          <Check ok={signature.intact} yes="The signed bytes are intact" no="The signed bytes do not hold" />
          <Check
            ok={signature.coversWholeFile}
            yes="It covers the whole file"
            no={
              signature.laterRevisionAdded
                ? 'A later revision was added after this signature'
                : 'It does not cover the whole file'
            }
          />
          <Check
            ok={signature.chainsToPlatformCa}
            yes="Its certificate was issued by the Careplane CA"
            no="Its certificate was not issued by the Careplane CA"
          />
          <Check
            ok={signature.knownToPlatform}
            yes="Careplane holds this signed version"
            no="Careplane does not hold this signed version"
          />
        </List>
        {signature.problems.length ? (
          <List size="sm" c="red" spacing={2}>
            {signature.problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        ) : null}
        {signer ? (
          <Text size="xs" c="dimmed">
            Certificate serial {signer.serialNumber}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/** The summary without the words the title already says ("Tampered or damaged: signature 1 …" → "Signature 1 …"). */
function detailOf(summary: string, title: string): string {
  if (!summary.toLowerCase().startsWith(`${title.toLowerCase()}: `)) return summary;
  const rest = summary.slice(title.length + 2);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

export function VerificationReportView({
  report,
  fileName,
}: {
  report: VerificationReport;
  fileName: string;
}) {
  const verdict = verdicts[report.verdict.status];
  return (
    <Stack gap="md" data-testid="verification-report">
      <Alert color={verdict.color} title={verdict.title} role="status" data-testid="verdict">
        <Text size="sm">{detailOf(report.verdict.summary, verdict.title)}</Text>
      </Alert>
      <Group gap="lg" wrap="wrap">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {fileName} · {formatBytes(report.size)}
        </Text>
        <Fingerprint sha256={report.fileSha256} />
        <Badge color={report.fileKnownToPlatform ? 'teal' : 'gray'} variant="light">
          {report.fileKnownToPlatform
            ? 'Careplane holds this exact file'
            : 'Careplane does not hold this exact file'}
        </Badge>
      </Group>
      {report.signatures.length ? (
        <Stack gap="sm">
          <Title order={2} size="h4">
            Signatures
          </Title>
          {report.signatures.map((signature) => (
            <SignatureCard key={signature.index} signature={signature} />
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}
