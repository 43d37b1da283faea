// The signed-in user's profile (spec §2 "/account"): names, username, email, phone, roles, identity
// assurance level, last sign-in.
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { formatDateTime } from '@careplane/shared/common/formats';
import type { User } from '@careplane/shared/users/users.contract';
import { sessionStore } from '@/lib/session.ts';
import { accountQueries } from '../api/account.queries.ts';
import { UserAvatar } from './user-avatar.tsx';

export const PROFILE_ERROR = 'Could not get user profile.';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children || '—'}
      </Text>
    </Stack>
  );
}

function LastSignIn({ userId }: { userId: string }) {
  const last = useQuery(accountQueries.lastSignIn(userId));
  if (last.isPending) return <Loader size="xs" />;
  if (last.isError) return <>Not available</>;
  return <>{last.data ? formatDateTime(last.data.at) : 'No sign-in recorded'}</>;
}

function Profile({ user }: { user: User }) {
  const name = [user.title, user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
  return (
    <Card withBorder radius="md" padding="lg" w="100%">
      <Stack gap="lg">
        <Group gap="md" wrap="nowrap">
          <UserAvatar name={`${user.firstName ?? ''} ${user.lastName ?? ''}`.trim() || user.username} />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Title order={1} size="h2">
              {name}
            </Title>
            <Text c="dimmed" size="sm" truncate>
              {user.username}
            </Text>
          </Stack>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Field label="First name">{user.firstName}</Field>
          <Field label="Last name">{user.lastName}</Field>
          <Field label="Username">{user.username}</Field>
          <Field label="Email">{user.email}</Field>
          <Field label="Phone">{user.phoneNumber}</Field>
          <Field label="Identity assurance level">{user.identityAssuranceLevel}</Field>
          <Field label="Roles">
            {user.roles.length || user.localRoles.length ? (
              <Group gap={4}>
                {user.roles.map((role) => (
                  <Badge key={`g-${role}`} variant="filled">
                    {role}
                  </Badge>
                ))}
                {user.localRoles.map((role) => (
                  <Badge key={`l-${role}`} variant="light">
                    {role}
                  </Badge>
                ))}
              </Group>
            ) : null}
          </Field>
          <Field label="Last sign-in">
            <LastSignIn userId={user.id} />
          </Field>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

export function AccountProfile() {
  const me = useQuery(accountQueries.me());
  // The account page reads the user afresh: roles given since the sign-in open their areas at once.
  useEffect(() => {
    if (me.data) sessionStore.refreshUser(me.data);
  }, [me.data]);
  if (me.isPending) {
    return (
      <Stack w="100%" gap="sm" aria-busy="true" aria-label="Loading the profile">
        <Skeleton h={72} />
        <Skeleton h={200} />
      </Stack>
    );
  }
  if (me.isError) {
    return (
      <Alert color="red" title={PROFILE_ERROR} role="alert" w="100%">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{me.error.message}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void me.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  return <Profile user={me.data} />;
}
