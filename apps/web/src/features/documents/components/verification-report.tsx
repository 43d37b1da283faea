// The verifier's answer in plain words: the verdict on top, then each signature with who signed, when, what it
// covers and what was changed after it (each change allowed by the signature or not). Every time on the page is
// in the viewer's time zone, named, so that the verdict and the cards never disagree about the hour.
import { Alert, Badge, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { formatDateTimeWithZone, viewerTimeZone } from '@careplane/shared/common/formats';
import type {
  SignatureChange,
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

const permissionText: Record<number, string> = {
  1: 'no changes',
  2: 'form filling and signing',
  3: 'form filling, signing and annotations',
};

const nameOf = (signature: SignatureReport | undefined) =>
  signature?.signer?.commonName ?? 'an unknown signer';

function whoSigned(signature: SignatureReport): string {
  const id = signature.signer?.username ?? signature.signer?.email;
  return id ? `${nameOf(signature)} (${id})` : nameOf(signature);
}

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** "Revision 2 of 3 filled in form field "Name"", or the description alone when no revision is known. */
function changeText(change: SignatureChange, revisions: number | undefined, separator = ' '): string {
  return change.revision === null
    ? upperFirst(change.description)
    : `Revision ${change.revision} of ${revisions ?? '?'}${separator}${change.description}`;
}

function Check({
  ok,
  yes,
  no,
  failColor = 'red',
}: {
  ok: boolean;
  yes: string;
  no: string;
  /** How a "no" shows: red for a failure, gray for what is only information. */
  failColor?: string;
}) {
  return (
    <List.Item>
      <Group gap="xs" wrap="nowrap">
        <Badge color={ok ? 'teal' : failColor} variant="light" miw={48} style={{ flexShrink: 0 }}>
          {ok ? 'yes' : 'no'}
        </Badge>
        <Text size="sm">{ok ? yes : no}</Text>
      </Group>
    </List.Item>
  );
}

function Fact({ badge, text, color = 'blue' }: { badge: string; text: string; color?: string }) {
  return (
    <List.Item>
      <Group gap="xs" wrap="nowrap">
        <Badge color={color} variant="light" miw={48} style={{ flexShrink: 0 }}>
          {badge}
        </Badge>
        <Text size="sm">{text}</Text>
      </Group>
    </List.Item>
  );
}

/** What the signature covers: the whole file, or its revision (normal for every signature but the last). */
function Coverage({ signature }: { signature: SignatureReport }) {
  const covers = signature.covers;
  if (!covers) return null;
  if (signature.coversWholeFile) {
    return (
      <Check
        ok
        yes={`It covers the whole file${covers.revisions > 1 ? ` (revision ${covers.revision} of ${covers.revisions})` : ''}`}
        no=""
      />
    );
  }
  return covers.revision === null ? (
    <Fact badge="part" text="It covers the start of the file, which is not a revision that can be read" />
  ) : (
    <Fact
      badge="part"
      text={`It covers revision ${covers.revision} of ${covers.revisions}: the file as it was when signed`}
    />
  );
}

function LaterChanges({ signature }: { signature: SignatureReport }) {
  if (signature.changesAfter.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        Later changes
      </Text>
      <List spacing={4} listStyleType="none" p={0} aria-label={`Changes after signature ${signature.index}`}>
        {signature.changesAfter.map((change, i) => (
          <List.Item key={i}>
            <Group gap="xs" wrap="nowrap">
              <Badge
                color={change.allowed ? 'teal' : 'red'}
                variant="light"
                miw={48}
                style={{ flexShrink: 0 }}
              >
                {change.allowed ? 'allowed' : 'not allowed'}
              </Badge>
              <Text size="sm">{changeText(change, signature.covers?.revisions, ': ')}</Text>
            </Group>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

function SignatureCard({ signature, timeZone }: { signature: SignatureReport; timeZone: string }) {
  const signer = signature.signer;
  const notAllowed = signature.changesAfter.filter((change) => !change.allowed);
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
          <Text size="sm" data-testid="signing-time">
            {signature.signingTime ? formatDateTimeWithZone(signature.signingTime, timeZone) : 'time unknown'}
          </Text>
        </Group>
        {signature.changedAfterSigning ? (
          <Alert color="red" title={`Changed after ${nameOf(signature)} signed`} role="alert">
            <List size="sm" spacing={2}>
              {notAllowed.map((change, i) => (
                <List.Item key={i}>{changeText(change, signature.covers?.revisions)}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        <List spacing={4} listStyleType="none" p={0}>
          <Check ok={signature.intact} yes="The signed bytes are intact" no="The signed bytes do not hold" />
          <Coverage signature={signature} />
          {signature.certification ? (
            <Fact
              badge="certifies"
              text={`A certification signature: after it, it allows ${permissionText[signature.certification.permission] ?? 'no changes'}`}
            />
          ) : null}
          <Check
            ok={signature.chainsToPlatformCa}
            yes="Its certificate was issued by the Careplane CA"
            no="Its certificate was not issued by the Careplane CA"
          />
          <Check
            ok={signature.knownToPlatform}
            yes="Careplane holds this signed version"
            no="Careplane does not hold this signed version"
            failColor="gray"
          />
        </List>
        <LaterChanges signature={signature} />
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
  return upperFirst(summary.slice(title.length + 2));
}

/**
 * The verdict's title and words. The server's summary gives its times in UTC; where the verdict has times (who
 * signed when) or names a signer, the words are made here from the report, with times in the viewer's zone.
 */
function verdictOf(
  report: VerificationReport,
  timeZone: string,
): { title: string; color: string; detail: string } {
  const { status, summary, changedAfter } = report.verdict;
  const signatures = report.signatures;
  if (status === 'modified-after-signing' && changedAfter) {
    const signature = signatures.find((entry) => entry.index === changedAfter.signature);
    const name = nameOf(signature);
    const later = signatures.filter((entry) => entry.index > changedAfter.signature).length;
    const afterwards = later
      ? ` ${later === 1 ? 'The later signature vouches' : 'Later signatures vouch'} only for what ${later === 1 ? 'its signer' : 'their signers'} signed, not for what ${name} signed.`
      : '';
    if (changedAfter.revision === null) {
      return {
        title: `Cannot tell what changed after ${name} signed`,
        color: 'red',
        detail: `The changes ${changedAfter.description}.${afterwards}`,
      };
    }
    const revisions = signature?.covers?.revisions;
    return {
      title: `Changed after ${name} signed`,
      color: 'red',
      detail: `Revision ${changedAfter.revision} of ${revisions ?? '?'} ${changedAfter.description}.${afterwards}`,
    };
  }
  const verdict = verdicts[status];
  if (status === 'authentic' && signatures.length > 0) {
    const signed = signatures
      .map(
        (entry) =>
          `${whoSigned(entry)} on ${formatDateTimeWithZone(entry.signingTime, timeZone) || 'an unknown date'}`,
      )
      .join(', then by ');
    const last = signatures[signatures.length - 1]!;
    const between = signatures[0]!.changesAfter.filter(
      (change) =>
        change.kind !== 'signature' &&
        change.kind !== 'validation-data' &&
        change.revision !== null &&
        change.revision <= (last.covers?.revision ?? 0),
    );
    const betweenText = between.length
      ? ` Between the signatures, changes the signatures allow: ${between
          .map(
            (change) =>
              `revision ${change.revision} of ${last.covers?.revisions ?? '?'} ${change.description}`,
          )
          .join('; ')}.`
      : '';
    return { ...verdict, detail: `Signed by ${signed}.${betweenText}` };
  }
  return { ...verdict, detail: detailOf(summary, verdict.title) };
}

export function VerificationReportView({
  report,
  fileName,
  timeZone = viewerTimeZone(),
}: {
  report: VerificationReport;
  fileName: string;
  /** The zone every time is shown in: the viewer's unless given. */
  timeZone?: string;
}) {
  const verdict = verdictOf(report, timeZone);
  return (
    <Stack gap="md" data-testid="verification-report">
      <Alert color={verdict.color} title={verdict.title} role="status" data-testid="verdict">
        <Text size="sm">{verdict.detail}</Text>
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
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Title order={2} size="h4">
              Signatures
            </Title>
            <Text size="xs" c="dimmed" data-testid="time-zone">
              Times in {timeZone}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            Allowed after signing: {report.allowedChanges.description}.
          </Text>
          {report.signatures.map((signature) => (
            <SignatureCard key={signature.index} signature={signature} timeZone={timeZone} />
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}
