// The one-time enrollment of a new user (the answer of the admin's create): the code, the link and its QR
// code, which the new person opens or scans with their phone to bind it. The server never shows it again.
import { Alert, Anchor, Button, Code, CopyButton, Group, Image, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatDateTime } from '@careplane/shared/common/formats';
import type { Enrollment } from '@careplane/shared/users/account.contract';

/** The spec's dark and light QR colours. */
const QR_COLORS = { dark: '#0b3c49', light: '#ffffff' } as const;

async function qrSvg(text: string) {
  const { toString } = await import('qrcode');
  return toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: QR_COLORS });
}

export function EnrollmentNotice({ enrollment, onDone }: { enrollment: Enrollment; onDone: () => void }) {
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
    <Alert color="teal" title="Enroll the phone of the new user now" role="status">
      <Group align="flex-start" gap="lg" wrap="wrap">
        {qr ? <Image src={qr} w={176} h={176} alt="QR code of the enrollment link" radius="sm" /> : null}
        <Stack gap="xs" style={{ flex: '1 1 260px', minWidth: 0 }}>
          <Text size="sm">
            The new user scans this QR code with the Careplane app, or opens the link on their phone. It is
            shown only now: copy it before leaving this page.
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={600}>
              Code
            </Text>
            <Code data-testid="enrollment-code">{enrollment.code}</Code>
            <CopyButton value={enrollment.code}>
              {({ copied, copy }) => (
                <Button size="compact-xs" variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy code'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Anchor
            href={enrollment.link}
            size="sm"
            style={{ overflowWrap: 'anywhere' }}
            data-testid="enrollment-link"
          >
            {enrollment.link}
          </Anchor>
          <Text size="sm" c="dimmed">{`Valid until ${formatDateTime(enrollment.expiresAt)}`}</Text>
          <Group>
            <CopyButton value={enrollment.link}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
            <Button size="xs" variant="default" onClick={onDone}>
              Done
            </Button>
          </Group>
        </Stack>
      </Group>
    </Alert>
  );
}
