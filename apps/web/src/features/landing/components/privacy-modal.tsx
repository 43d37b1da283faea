// The privacy policy of spec §2, in full.
import { Anchor, List, Modal, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { getRuntimeConfig } from '@/lib/config.ts';

export const PRIVACY_EFFECTIVE_DATE = '01.12.2020';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

export function PrivacyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('help');
  const { supportEmail } = getRuntimeConfig();
  return (
    <Modal opened={opened} onClose={onClose} title={t('privacy.title')} size="lg" centered>
      <Stack gap="md">
        <Text>{t('privacy.intro')}</Text>
        <Section title={t('privacy.routine.title')}>
          <Text>{t('privacy.routine.lead')}</Text>
          <List size="sm" spacing={2}>
            <List.Item>{t('privacy.routine.ip')}</List.Item>
            <List.Item>{t('privacy.routine.browser')}</List.Item>
            <List.Item>{t('privacy.routine.timestamps')}</List.Item>
            <List.Item>{t('privacy.routine.referrer')}</List.Item>
          </List>
          <Text>{t('privacy.routine.use')}</Text>
        </Section>
        <Section title={t('privacy.cookies.title')}>
          <Text>{t('privacy.cookies.text')}</Text>
        </Section>
        <Section title={t('privacy.links.title')}>
          <Text>{t('privacy.links.text')}</Text>
        </Section>
        <Section title={t('privacy.security.title')}>
          <Text>{t('privacy.security.text')}</Text>
        </Section>
        <Section title={t('privacy.changes.title')}>
          <Text>{t('privacy.changes.text', { date: PRIVACY_EFFECTIVE_DATE })}</Text>
        </Section>
        <Section title={t('privacy.contact.title')}>
          <Text>
            <Trans
              t={t}
              i18nKey="privacy.contact.text"
              values={{ email: supportEmail }}
              components={{ anchor: <Anchor href={`mailto:${supportEmail}`} /> }}
            />
          </Text>
        </Section>
      </Stack>
    </Modal>
  );
}
