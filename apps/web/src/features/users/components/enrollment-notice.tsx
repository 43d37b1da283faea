// A one-time enrollment (the answer of the admin's create, or of "Enroll a new phone"): the code, the link and
// its QR code, which the person opens or scans with their phone to bind it. The server never shows it again.
import { Alert, Anchor, Button, Code, Group, Image, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@careplane/shared/common/formats';
import type { Enrollment } from '@careplane/shared/users/account.contract';
import { CopyTextButton } from '@/lib/resource-kit/copy-text-button.tsx';

/** The spec's dark and light QR colours. */
const QR_COLORS = { dark: '#0b3c49', light: '#ffffff' } as const;

async function qrSvg(text: string) {
  const { toString } = await import('qrcode');
  return toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: QR_COLORS });
}

export function EnrollmentNotice({
  enrollment,
  onDone,
  another = false,
}: {
  enrollment: Enrollment;
  onDone: () => void;
  /** For a person who already has an account (another phone), not a new one. */
  another?: boolean;
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
