// /verify: anyone, signed in or not, checks that a PDF is authentic, untampered and signed.
import { Anchor, Box, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { VerifyPanel } from '../../features/documents/components/verify-panel.tsx';
import { useSession } from '../../lib/session.ts';
import { Brand } from '../layouts/brand.tsx';
import { AppFooter } from '../layouts/centered-layout.tsx';

export function Component() {
  const signedIn = useSession((state) => state.loginStatus === 'approved');
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box
        component="header"
        px="md"
        py="sm"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group justify="space-between" wrap="nowrap">
          <Brand to={paths.home.to()} />
          <Anchor component={Link} to={signedIn ? paths.documents.list.to() : paths.home.to()} size="sm">
            {signedIn ? 'Your documents' : 'Log in'}
          </Anchor>
        </Group>
      </Box>
      <Container component="main" size="sm" py="xl" w="100%" style={{ flex: 1 }}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} size="h2">
              Verify a document
            </Title>
            <Text size="sm" c="dimmed">
              Check that a PDF signed with Careplane is authentic and has not been changed, and see who signed
              it, when, and what was changed after each signature. No sign-in needed.
            </Text>
          </Stack>
          <VerifyPanel />
        </Stack>
      </Container>
      <AppFooter />
    </Box>
  );
}
