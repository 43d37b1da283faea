// Pages of a signed-in user outside the work areas (Documents): the top bar with the session, links to the
// documents and the account, the page in a container, the footer.
import { Anchor, Box, Container, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { paths } from '@/config/paths.ts';
import { Brand } from './brand.tsx';
import { mainContentProps, SkipLink } from './skip-link.tsx';
import { AppFooter } from './centered-layout.tsx';
import { TopBarSession } from './top-bar.tsx';

export function UserLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box
        component="header"
        px="md"
        py="sm"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="md" wrap="nowrap">
            <Brand to={paths.account.to()} compact />
            {/* On a phone the bar holds the session (Areas, Disconnect) alone; its Areas menu has both links. */}
            <Group component="nav" gap="sm" wrap="nowrap" visibleFrom="xs" aria-label={t('userPages.label')}>
              <Anchor component={NavLink} to={paths.documents.list.to()} size="sm" fw={600}>
                {t('userPages.documents')}
              </Anchor>
              <Anchor component={NavLink} to={paths.account.to()} end size="sm" visibleFrom="sm">
                {t('userPages.account')}
              </Anchor>
            </Group>
          </Group>
          <TopBarSession />
        </Group>
      </Box>
      <Container component="main" {...mainContentProps} size="md" py="xl" w="100%" style={{ flex: 1 }}>
        {children}
      </Container>
      <AppFooter />
    </Box>
  );
}
