// The spec's centred layouts: content in the middle of the screen, with the product name and version at the
// foot (CenteredLayout) or without (DefaultCenteredLayout); BlankLayout adds nothing.
import { Box, Center, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { APP_NAME, APP_VERSION } from '@careplane/shared/common/enums';
import { mainContentProps, SkipLink } from './skip-link.tsx';

export function AppFooter() {
  const { t } = useTranslation();
  return (
    <Box component="footer" py="md" ta="center">
      <Text size="sm" c="dimmed">
        {t('footer.version', { name: APP_NAME, version: APP_VERSION })}
      </Text>
    </Box>
  );
}

export function CenteredLayout({ children }: { children?: ReactNode }) {
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Center component="main" {...mainContentProps} style={{ flex: 1 }} p="md">
        {children ?? <Outlet />}
      </Center>
      <AppFooter />
    </Box>
  );
}

export function DefaultCenteredLayout({ children }: { children?: ReactNode }) {
  return (
    <>
      <SkipLink />
      <Center component="main" {...mainContentProps} mih="100dvh" p="md">
        {children ?? <Outlet />}
      </Center>
    </>
  );
}

export function BlankLayout({ children }: { children?: ReactNode }) {
  return <>{children ?? <Outlet />}</>;
}
