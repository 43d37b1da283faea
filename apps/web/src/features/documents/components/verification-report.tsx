// The verifier's answer in plain words: the verdict on top, then each signature with who signed, when, what it
// covers and what was changed after it (each change allowed by the signature or not). Every time on the page is
// in the viewer's time zone, named, so that the verdict and the cards never disagree about the hour.
import { Alert, Badge, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTimeWithZone, viewerTimeZone } from '@careplane/shared/common/formats';
import type {
  SignatureChange,
  SignatureReport,
  VerdictStatus,
  VerificationReport,
} from '@careplane/shared/documents/documents.contract';
import { Fingerprint } from './document-status.tsx';
import { formatBytes } from './pdf-dropzone.tsx';

const t = i18next.t.bind(i18next);

const verdictColors: Record<VerdictStatus, string> = {
  authentic: 'teal',
  'modified-after-signing': 'yellow',
  untrusted: 'orange',
  unsupported: 'gray',
  tampered: 'red',
  unsigned: 'gray',
  unreadable: 'red',
};

/**
 * The server's summary (always English, times in UTC) starts with the verdict's English title, which is cut
 * off where the page shows its own title above it (detailOf).
 */
const serverTitles: Record<VerdictStatus, string> = {
  authentic: 'Authentic and untampered',
  'modified-after-signing': 'Changed after the last signature',
  untrusted: 'Intact, but not vouched for by Careplane',
  unsupported: 'Not verifiable',
  tampered: 'Tampered or damaged',
  unsigned: 'Not signed',
  unreadable: 'Not a readable PDF',
};

const permissionText = (level: number): string =>
  level === 1 || level === 2 || level === 3
    ? t(`documents:report.permissions.level${level}`)
    : t('documents:report.permissions.level1');

const nameOf = (signature: SignatureReport | undefined) =>
  signature?.signer?.commonName ?? t('documents:report.unknownSigner');

function whoSigned(signature: SignatureReport): string {
  const id = signature.signer?.username ?? signature.signer?.email;
  return id ? `${nameOf(signature)} (${id})` : nameOf(signature);
}

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** "Revision 2 of 3 filled in form field "Name"", or the description alone when no revision is known. */
function changeText(change: SignatureChange, revisions: number | undefined, listed = false): string {
  if (change.revision === null) return upperFirst(change.description);
  const values = { revision: change.revision, revisions: revisions ?? '?', description: change.description };
  return listed
    ? t('documents:report.revisionChangeListed', values)
    : t('documents:report.revisionChange', values);
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
          {ok ? t('documents:report.yes') : t('documents:report.no')}
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
        yes={
          covers.revisions > 1
            ? t('documents:report.coversWholeRevision', {
                revision: covers.revision,
                revisions: covers.revisions,
              })
            : t('documents:report.coversWhole')
        }
        no=""
      />
    );
  }
  return covers.revision === null ? (
    <Fact badge={t('documents:report.part')} text={t('documents:report.coversStart')} />
  ) : (
    <Fact
      badge={t('documents:report.part')}
      text={t('documents:report.coversRevision', { revision: covers.revision, revisions: covers.revisions })}
    />
  );
}

function LaterChanges({ signature }: { signature: SignatureReport }) {
  if (signature.changesAfter.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {t('documents:report.laterChanges')}
      </Text>
      <List
        spacing={4}
        listStyleType="none"
        p={0}
        aria-label={t('documents:report.changesAfter', { index: signature.index })}
      >
        {signature.changesAfter.map((change, i) => (
          <List.Item key={i}>
            <Group gap="xs" wrap="nowrap">
              <Badge
                color={change.allowed ? 'teal' : 'red'}
                variant="light"
                miw={48}
                style={{ flexShrink: 0 }}
              >
                {change.allowed ? t('documents:report.allowed') : t('documents:report.notAllowed')}
              </Badge>
              <Text size="sm">{changeText(change, signature.covers?.revisions, true)}</Text>
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
    <Card
      withBorder
      radius="md"
      padding="md"
      component="article"
      aria-label={t('documents:report.signature', { index: signature.index })}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={0}>
            <Text fw={700}>
              {signature.index}. {signer?.commonName ?? t('documents:report.unknownSignerTitle')}
            </Text>
            <Text size="xs" c="dimmed">
              {[signer?.username, signer?.email].filter(Boolean).join(' · ') ||
                t('documents:report.noUserName')}
            </Text>
          </Stack>
          <Text size="sm" data-testid="signing-time">
            {signature.signingTime
              ? formatDateTimeWithZone(signature.signingTime, timeZone)
              : t('documents:report.timeUnknown')}
          </Text>
        </Group>
        {signature.changedAfterSigning ? (
          <Alert
            color="red"
            title={t('documents:report.changedAfterSigned', { name: nameOf(signature) })}
            role="alert"
          >
            <List size="sm" spacing={2}>
              {notAllowed.map((change, i) => (
                <List.Item key={i}>{changeText(change, signature.covers?.revisions)}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        <List spacing={4} listStyleType="none" p={0}>
          <Check
            ok={signature.intact}
            yes={t('documents:report.intact')}
            no={t('documents:report.notIntact')}
          />
          <Coverage signature={signature} />
          {signature.certification ? (
            <Fact
              badge={t('documents:report.certifies')}
              text={t('documents:report.certification', {
                permission: permissionText(signature.certification.permission),
              })}
            />
          ) : null}
          <Check
            ok={signature.chainsToPlatformCa}
            yes={t('documents:report.chainsToCa')}
            no={t('documents:report.notChainsToCa')}
          />
          {signature.signerWithdrawn ? (
            // Its phone was revoked or is gone, and Careplane did not complete this signature (the problem says).
            <Check ok={false} yes="" no={t('documents:report.signerWithdrawn')} />
          ) : null}
          <Check
            ok={signature.knownToPlatform}
            yes={t('documents:report.known')}
            no={t('documents:report.notKnown')}
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
            {t('documents:report.serial', { serial: signer.serialNumber })}
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
    // Only a later signature nothing was changed after vouches for the file as it is (as the server's words).
    const later = signatures.filter((entry) => entry.index > changedAfter.signature);
    const vouching = later.filter((entry) => !entry.changedAfterSigning).length;
    const afterwards = vouching
      ? ` ${vouching === 1 ? t('documents:report.laterOne', { name }) : t('documents:report.laterMany', { name })}`
      : later.length
        ? ` ${later.length === 1 ? t('documents:report.alsoAfterOne') : t('documents:report.alsoAfterMany')}`
        : '';
    if (changedAfter.revision === null) {
      return {
        title: t('documents:report.cannotTell', { name }),
        color: 'red',
        detail: `${t('documents:report.changesDetail', { description: changedAfter.description })}${afterwards}`,
      };
    }
    const revisions = signature?.covers?.revisions;
    return {
      title: t('documents:report.changedAfterSigned', { name }),
      color: 'red',
      detail: `${t('documents:report.revisionChange', {
        revision: changedAfter.revision,
        revisions: revisions ?? '?',
        description: changedAfter.description,
      })}.${afterwards}`,
    };
  }
  const verdict = { title: t(`documents:report.verdicts.${status}`), color: verdictColors[status] };
  if (status === 'authentic' && signatures.length > 0) {
    const signed = signatures
      .map((entry) =>
        t('documents:report.signedOn', {
          who: whoSigned(entry),
          date: formatDateTimeWithZone(entry.signingTime, timeZone) || t('documents:report.unknownDate'),
        }),
      )
      .join(t('documents:report.thenBy'));
    const last = signatures[signatures.length - 1]!;
    const between = signatures[0]!.changesAfter.filter(
      (change) =>
        change.kind !== 'signature' &&
        change.kind !== 'validation-data' &&
        change.revision !== null &&
        change.revision <= (last.covers?.revision ?? 0),
    );
    const betweenText = between.length
      ? ` ${t('documents:report.between', {
          list: between
            .map((change) =>
              t('documents:report.betweenItem', {
                revision: change.revision,
                revisions: last.covers?.revisions ?? '?',
                description: change.description,
              }),
            )
            .join('; '),
        })}`
      : '';
    return { ...verdict, detail: `${t('documents:report.signedBy', { signed })}${betweenText}` };
  }
  return { ...verdict, detail: detailOf(summary, serverTitles[status]) };
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
  // Read in the language shown: the report renders again when it changes.
  useTranslation('documents');
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
        {report.signatures.length ? (
          // Whether Careplane completed this file: said of a signed file only (an unsigned one it never makes).
          <Badge color={report.fileKnownToPlatform ? 'teal' : 'gray'} variant="light">
            {report.fileKnownToPlatform
              ? t('documents:report.fileKnown')
              : t('documents:report.fileNotKnown')}
          </Badge>
        ) : null}
      </Group>
      {report.signatures.length ? (
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Title order={2} size="h4">
              {t('documents:report.signatures')}
            </Title>
            <Text size="xs" c="dimmed" data-testid="time-zone">
              {t('documents:report.timesIn', { zone: timeZone })}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            {t('documents:report.allowedAfter', { description: report.allowedChanges.description })}
          </Text>
          {report.signatures.map((signature) => (
            <SignatureCard key={signature.index} signature={signature} timeZone={timeZone} />
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}
