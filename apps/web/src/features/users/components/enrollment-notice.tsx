// A one-time enrollment (the answer of the admin's create, or of "Enroll a new phone"): the code, the link and
// its QR code, which the person opens or scans with their phone to bind it. The server never shows it again.
// While it is shown, the user's phones are asked again every few seconds: once the phone enrolls, the notice
// says so and no longer shows the used code, and the Phones section lists the new phone.
import { Alert, Anchor, Button, Code, Group, Image, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@careplane/shared/common/formats';
import type { Enrollment } from '@careplane/shared/users/account.contract';
import { CopyTextButton } from '@/lib/resource-kit/copy-text-button.tsx';
import { phoneQueries } from '../api/users.queries.ts';
import { phoneName } from './phone-name.ts';

/** How often the user's phones are asked while a code is shown. */
export const ENROLLMENT_WATCH_MS = 3_000;

/** The phone that enrolled since the code was issued (one not among `known`), while the code is valid. */
function useEnrolledPhone(userId: string, enrollment: Enrollment, known: ReadonlySet<string>) {
  const valid = new Date(enrollment.expiresAt).getTime() > Date.now();
  const phones = useQuery({
    ...phoneQueries.forUser(userId),
    refetchInterval: (query) =>
      valid && !query.state.data?.items.some((phone) => !known.has(phone.id)) ? ENROLLMENT_WATCH_MS : false,
    refetchOnWindowFocus: true,
  });
  return phones.data?.items.find((phone) => !known.has(phone.id) && !phone.revokedAt);
}

const NONE: ReadonlySet<string> = new Set();

/** The spec's dark and light QR colours. */
const QR_COLORS = { dark: '#0b3c49', light: '#ffffff' } as const;

async function qrSvg(text: string) {
  const { toString } = await import('qrcode');
  return toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: QR_COLORS });
}

export function EnrollmentNotice({
  userId,
  enrollment,
  onDone,
  another = false,
  known = NONE,
}: {
  /** Whose phone enrolls with the code. */
  userId: string;
  enrollment: Enrollment;
  onDone: () => void;
  /** For a person who already has an account (another phone), not a new one. */
  another?: boolean;
  /** The user's phones when the code was issued: a phone not among them enrolled with it. */
  known?: ReadonlySet<string>;
}) {
  const { t } = useTranslation('users');
  const enrolled = useEnrolledPhone(userId, enrollment, known);
  if (enrolled) {
    return (
      <Alert
        color="teal"
        title={t('enrollment.enrolledTitle')}
        role="status"
        withCloseButton
        onClose={onDone}
      >
        {t('enrollment.enrolled', { phone: phoneName(enrolled) })}
      </Alert>
    );
  }
  return <EnrollmentCode enrollment={enrollment} onDone={onDone} another={another} />;
}

function EnrollmentCode({
  enrollment,
  onDone,
  another,
}: {
  enrollment: Enrollment;
  onDone: () => void;
  another: boolean;
}) {
  const { t } = useTranslation('users');
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    qrSvg(enrollment.link).then(
      (svg) => live && setQr(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`),
      () => live && setQr(null),
    );
    return () => {
      live = false;
    };
  }, [enrollment.link]);
  return (
    <Alert color="teal" title={t(another ? 'enrollment.anotherTitle' : 'enrollment.title')} role="status">
      <Group align="flex-start" gap="lg" wrap="wrap">
        {qr ? <Image src={qr} w={176} h={176} alt={t('enrollment.qrAlt')} radius="sm" /> : null}
        <Stack gap="xs" style={{ flex: '1 1 260px', minWidth: 0 }}>
          <Text size="sm">{t(another ? 'enrollment.anotherExplain' : 'enrollment.explain')}</Text>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={600}>
              {t('enrollment.code')}
            </Text>
            <Code data-testid="enrollment-code">{enrollment.code}</Code>
            <CopyTextButton
              size="compact-xs"
              variant="light"
              value={enrollment.code}
              label={t('enrollment.copyCode')}
              copiedLabel={t('enrollment.copied')}
              failedLabel={t('enrollment.copyFailed')}
            />
          </Group>
          <Anchor
            href={enrollment.link}
            size="sm"
            style={{ overflowWrap: 'anywhere' }}
            data-testid="enrollment-link"
          >
            {enrollment.link}
          </Anchor>
          <Text size="sm" c="dimmed">
            {t('enrollment.validUntil', { time: formatDateTime(enrollment.expiresAt) })}
          </Text>
          <Group>
            <CopyTextButton
              size="xs"
              variant="light"
              value={enrollment.link}
              label={t('enrollment.copyLink')}
              copiedLabel={t('enrollment.copied')}
              failedLabel={t('enrollment.copyFailed')}
            />
            <Button size="xs" variant="default" onClick={onDone}>
              {t('enrollment.done')}
            </Button>
          </Group>
        </Stack>
      </Group>
    </Alert>
  );
}
