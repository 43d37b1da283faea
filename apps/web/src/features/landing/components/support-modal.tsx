// Support (spec §2): an invitation to message or email the configured support address.
import { Anchor, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { getRuntimeConfig } from '@/lib/config.ts';

export function SupportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('help');
  const { supportEmail } = getRuntimeConfig();
  return (
    <Modal opened={opened} onClose={onClose} title={t('support.title')} centered>
      <Stack gap="sm">
        <Text>{t('support.intro')}</Text>
        <Text>
          {t('support.email')}
          <Anchor href={`mailto:${supportEmail}`} fw={600}>
            {supportEmail}
          </Anchor>
        </Text>
        <Text size="sm" c="dimmed">
          {t('support.warning')}
        </Text>
      </Stack>
    </Modal>
  );
}
