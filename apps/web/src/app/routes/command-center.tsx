// /command-center: a supervisor's view of their command centers, with the top bar.
import { Box, Container, Group } from '@mantine/core';
import { paths } from '@/config/paths.ts';
import { CommandCenterView } from '@/features/command-centers/command-center-view.tsx';
import { Brand } from '../layouts/brand.tsx';
import { mainContentProps, SkipLink } from '../layouts/skip-link.tsx';
import { AppFooter } from '../layouts/centered-layout.tsx';
import { TopBarSession } from '../layouts/top-bar.tsx';

export function Component() {
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box
        component="header"
        px="md"
        py="sm"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group justify="space-between" wrap="nowrap">
          <Brand to={paths.account.to()} compact />
          <TopBarSession />
        </Group>
      </Box>
      <Container component="main" {...mainContentProps} size="xl" py="xl" w="100%" style={{ flex: 1 }}>
        <CommandCenterView />
      </Container>
      <AppFooter />
    </Box>
  );
}
