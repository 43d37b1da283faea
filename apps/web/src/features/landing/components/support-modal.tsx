// Support (spec §2): an invitation to message or email the configured support address.
import { Anchor, Modal, Stack, Text } from '@mantine/core';
import { getRuntimeConfig } from '@/lib/config.ts';

export function SupportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { supportEmail } = getRuntimeConfig();
  return (
    <Modal opened={opened} onClose={onClose} title="Support" centered>
      <Stack gap="sm">
        <Text>
          Questions about Careplane, the mobile app or signing in? Send us a message or an email and we will
          get back to you.
        </Text>
        <Text>
          Email:{' '}
          <Anchor href={`mailto:${supportEmail}`} fw={600}>
            {supportEmail}
          </Anchor>
        </Text>
        <Text size="sm" c="dimmed">
          Never send your phone&apos;s keys or anyone&apos;s health details by email.
        </Text>
      </Stack>
    </Modal>
  );
}
