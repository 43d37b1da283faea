// Links to the mobile app in Google Play and the App Store, as configured (decisions §8).
import { Group, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { getRuntimeConfig } from '@/lib/config.ts';

function Badge({ href, small, name }: { href: string | null; small: string; name: string }) {
  const { t } = useTranslation('landing');
  const content = (
    <>
      <Text span size="10px" lh={1.1} display="block" c="gray.3">
        {small}
      </Text>
      <Text span fw={700} size="md" lh={1.1} display="block" c="white">
        {name}
      </Text>
    </>
  );
  const style = {
    background: '#111',
    borderRadius: 8,
    padding: '6px 14px',
    minWidth: 150,
    border: '1px solid #444',
    opacity: href ? 1 : 0.55,
  } as const;
  if (!href) {
    return (
      <div style={style} aria-disabled="true" title={t('stores.notYet')}>
        {content}
      </div>
    );
  }
  return (
    <UnstyledButton component="a" href={href} target="_blank" rel="noopener noreferrer" style={style}>
      {content}
    </UnstyledButton>
  );
}

export function StoreBadges() {
  const { t } = useTranslation('landing');
  const { googlePlayUrl, appStoreUrl } = getRuntimeConfig();
  return (
    <Group gap="sm">
      <Badge href={googlePlayUrl} small={t('stores.getItOn')} name="Google Play" />
      <Badge href={appStoreUrl} small={t('stores.downloadOnThe')} name="App Store" />
      {!googlePlayUrl && !appStoreUrl ? (
        <Text size="xs" c="dimmed">
          {t('stores.notPublished')}
        </Text>
      ) : null}
    </Group>
  );
}
