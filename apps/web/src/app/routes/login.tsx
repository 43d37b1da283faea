// /login: the sign-in panel alone, in the centred layout with the footer.
import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LoginPanel } from '@/features/auth/components/login-panel.tsx';
import { Brand } from '../layouts/brand.tsx';
import { CenteredLayout } from '../layouts/centered-layout.tsx';
import { paths } from '@/config/paths.ts';

export function Component() {
  const { t } = useTranslation();
  return (
    <CenteredLayout>
      <Stack gap="lg" align="center" w="100%" maw={420}>
        <Brand to={paths.home.to()} />
        <Stack gap={4} align="center" ta="center">
          <Title order={1} size="h2">
            {t('login.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('login.intro')}
          </Text>
        </Stack>
        <LoginPanel />
      </Stack>
    </CenteredLayout>
  );
}
