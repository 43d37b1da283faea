// The public front page (spec §1, §2): top bar with Support and Privacy, what Careplane is, the Documents box
// and the way to sign in.
import { Anchor, Box, Button, Container, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '@/features/account/components/language-switch.tsx';
import { LoginPanel } from '@/features/auth/components/login-panel.tsx';
import { DocumentsInfo } from '@/features/landing/components/documents-info.tsx';
import { paths } from '@/config/paths.ts';
import { importWithReload } from '@/lib/chunk-reload.ts';
import { AppFooter } from '../layouts/centered-layout.tsx';
import { Brand } from '../layouts/brand.tsx';
import { mainContentProps, SkipLink } from '../layouts/skip-link.tsx';
import { Link } from 'react-router';
import classes from '../layouts/layouts.module.css';

// Mantine's Modal brings portals, focus trap, scroll lock and floating-ui: about 30 kB of gzip script that the
// first page only needs once Support or Privacy is opened (decision 029).
const SupportModal = lazy(
  importWithReload(async () => ({
    default: (await import('@/features/landing/components/support-modal.tsx')).SupportModal,
  })),
);
const PrivacyModal = lazy(
  importWithReload(async () => ({
    default: (await import('@/features/landing/components/privacy-modal.tsx')).PrivacyModal,
  })),
);

/** A dialog that is not loaded until it is first opened, then stays mounted so it can close with its transition. */
function useLazyDialog() {
  const [opened, handlers] = useDisclosure(false);
  const [wanted, setWanted] = useState(false);
  if (opened && !wanted) setWanted(true);
  return [opened, wanted, handlers] as const;
}

export function Component() {
  const { t } = useTranslation('landing');
  const [supportOpened, supportWanted, support] = useLazyDialog();
  const [privacyOpened, privacyWanted, privacy] = useLazyDialog();

  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box
        component="header"
        px="md"
        py="sm"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group justify="space-between" className={classes.container} wrap="nowrap">
          {/* On a phone the mark alone: with the name, Thai's ความเป็นส่วนตัว pushed the bar past 390 px. */}
          <Brand to={paths.home.to()} compact />
          {/* At 360 px in Thai the three do not fit one line: Privacy goes under Support, not past the edge. */}
          <Group gap="xs" justify="flex-end">
            <LanguageSwitch />
            <Button variant="subtle" size="compact-sm" onClick={support.open}>
              {t('support')}
            </Button>
            <Button variant="subtle" size="compact-sm" onClick={privacy.open}>
              {t('privacy')}
            </Button>
          </Group>
        </Group>
      </Box>

      <Container component="main" {...mainContentProps} size="lg" py="xl" style={{ flex: 1 }} w="100%">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
          <Stack gap="lg">
            <Stack gap="xs">
              <Title order={1}>{t('title')}</Title>
              <Text size="lg">{t('intro')}</Text>
            </Stack>
            <List spacing="xs" size="sm">
              <List.Item>{t('free')}</List.Item>
              <List.Item>{t('noPayment')}</List.Item>
              <List.Item>{t('asIs')}</List.Item>
            </List>
            <DocumentsInfo />
          </Stack>
          <Stack gap="md" align="center" className={classes.loginColumn}>
            <Stack gap={4} w="100%" maw={420}>
              <Title order={2} size="h3">
                {t('logIn')}
              </Title>
              <Text size="sm">
                {t('howToLogIn')}{' '}
                <Anchor component={Link} to={paths.login.to()} size="sm">
                  {t('openLoginPage')}
                </Anchor>
              </Text>
            </Stack>
            <LoginPanel />
          </Stack>
        </SimpleGrid>
      </Container>

      <AppFooter />
      <Suspense fallback={null}>
        {supportWanted ? <SupportModal opened={supportOpened} onClose={support.close} /> : null}
        {privacyWanted ? <PrivacyModal opened={privacyOpened} onClose={privacy.close} /> : null}
      </Suspense>
    </Box>
  );
}
