// /account: the signed-in user's own page, with the top bar.
import { Anchor, Box, Container, Group, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { isAdmin } from '@careplane/shared/auth/roles';
import { commandCenterTeamRoles } from '@careplane/shared/command-centers/command-centers.contract';
import { paths } from '../../config/paths.ts';
import { AccountProfile } from '../../features/account/components/account-profile.tsx';
import { useSession } from '../../lib/session.ts';
import { Brand } from '../layouts/brand.tsx';
import { AppFooter } from '../layouts/centered-layout.tsx';
import { TopBarSession } from '../layouts/top-bar.tsx';

export function Component() {
  const admin = useSession((state) => isAdmin(state.user));
  const careTeam = useSession((state) =>
    (commandCenterTeamRoles as readonly string[]).some((role) => state.user?.localRoles?.includes(role)),
  );
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
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
      <Container component="main" size="sm" py="xl" w="100%" style={{ flex: 1 }}>
        <Stack gap="md">
          <AccountProfile />
          <Anchor component={Link} to={paths.documents.list.to()}>
            Your documents: store, share and sign PDFs
          </Anchor>
          {careTeam ? (
            <Anchor component={Link} to={paths.commandCenter.to()}>
              Go to your command center
            </Anchor>
          ) : null}
          {admin ? (
            <Anchor component={Link} to={paths.admin.root.to()}>
              Go to the admin area
            </Anchor>
          ) : null}
        </Stack>
      </Container>
      <AppFooter />
    </Box>
  );
}
