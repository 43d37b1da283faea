// The top bar of spec §2: shown only while approved, with the server address, the user's name, and
// Disconnect with the seconds left in the session.
import { Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.ts';
import { signOut } from '../../features/auth/api/sign-out.ts';
import { useSession } from '../../lib/session.ts';

export function useDisconnect() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () => {
    signOut(queryClient);
    void navigate(paths.home.to());
  };
}

export function TopBarSession() {
  const approved = useSession((state) => state.loginStatus === 'approved');
  const serverUrl = useSession((state) => state.appServerUrl);
  const firstName = useSession((state) => state.user?.firstName ?? '');
  const lastName = useSession((state) => state.user?.lastName ?? '');
  const secondsLeft = useSession((state) => state.timeOutIn);
  const disconnect = useDisconnect();
  if (!approved) return null;
  return (
    <Group gap="sm" wrap="nowrap" justify="flex-end" style={{ minWidth: 0 }}>
      <Text size="sm" c="dimmed" truncate visibleFrom="md" title="Server">
        {serverUrl}
      </Text>
      <Text size="sm" fw={600} truncate visibleFrom="sm" data-testid="top-bar-user">
        {`${firstName} ${lastName}`.trim()}
      </Text>
      <Button size="xs" variant="light" color="red" onClick={disconnect} style={{ flexShrink: 0 }}>
        {secondsLeft === null ? 'Disconnect' : `Disconnect (${secondsLeft} s)`}
      </Button>
    </Group>
  );
}
