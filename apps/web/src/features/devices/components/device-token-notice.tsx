// A device token, shown once: when the device is created or given a new token. The agent on the device
// needs it; the server keeps only its hash.
import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CopyTextButton } from '@/lib/resource-kit/copy-text-button.tsx';

export function DeviceTokenNotice({ token, onDone }: { token: string; onDone: () => void }) {
  const { t } = useTranslation('devices');
  return (
    <Alert color="orange" title={t('token.title')} role="status">
      <Stack gap="xs">
        <Text size="sm">{t('token.explain')}</Text>
        <Code block data-testid="device-token" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {token}
        </Code>
        <Group gap="xs" align="flex-start">
          <CopyTextButton
            size="xs"
            value={token}
            label={t('token.copy')}
            copiedLabel={t('token.copied')}
            failedLabel={t('token.copyFailed')}
          />
          <Button size="xs" variant="default" onClick={onDone}>
            {t('token.done')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
