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
import { useTranslation } from 'react-i18next';
import { assuranceLevels, type AssuranceLevel } from '@careplane/shared/common/enums';
import { formatDateTime } from '@careplane/shared/common/formats';
import type { User } from '@careplane/shared/users/users.contract';
import { specTexts } from '@/lib/i18n/spec-texts.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { sessionStore } from '@/lib/session.ts';
import { accountQueries } from '../api/account.queries.ts';
import { UserAvatar } from './user-avatar.tsx';

export const PROFILE_ERROR = specTexts.couldNotGetUserProfile;

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

function PreviousSignIn({ userId }: { userId: string }) {
  const { t } = useTranslation('account');
  const last = useQuery(accountQueries.previousSignIn(userId));
  if (last.isPending) return <Loader size="xs" />;
  if (last.isError) return <>{t('notAvailable')}</>;
  return <>{last.data ? formatDateTime(last.data.at) : t('noSignIn')}</>;
}

/** A role in the reader's language; an unknown role as words. */
const roleText = (role: string): string => enumLabel('role', role);

const isKnownLevel = (level: string): level is AssuranceLevel =>
  (assuranceLevels as readonly string[]).includes(level);

function Profile({ user }: { user: User }) {
  const { t } = useTranslation('account');
  // The level as the identity provider names it; in the reader's language when it is one of the known ones.
  const level = user.identityAssuranceLevel;
  const assurance = level && isKnownLevel(level) ? t(`assurance.${level}`) : level;
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
          <Field label={t('fields.firstName')}>{user.firstName}</Field>
          <Field label={t('fields.lastName')}>{user.lastName}</Field>
          <Field label={t('fields.username')}>{user.username}</Field>
          <Field label={t('fields.email')}>{user.email}</Field>
          <Field label={t('fields.phone')}>{user.phoneNumber}</Field>
          <Field label={t('fields.identityAssuranceLevel')}>{assurance}</Field>
          <Field label={t('fields.roles')}>
            {user.roles.length || user.localRoles.length ? (
              <Group gap={4}>
                {user.roles.map((role) => (
                  <Badge key={`g-${role}`} variant="filled">
                    {roleText(role)}
                  </Badge>
                ))}
                {user.localRoles.map((role) => (
                  <Badge key={`l-${role}`} variant="light">
                    {roleText(role)}
                  </Badge>
                ))}
              </Group>
            ) : null}
          </Field>
          <Field label={t('fields.previousSignIn')}>
            <PreviousSignIn userId={user.id} />
          </Field>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

export function AccountProfile() {
  const { t } = useTranslation('account');
  const me = useQuery(accountQueries.me());
  // The account page reads the user afresh: roles given since the sign-in open their areas at once.
  useEffect(() => {
    if (me.data) sessionStore.refreshUser(me.data);
  }, [me.data]);
  if (me.isPending) {
    return (
      <Stack w="100%" gap="sm" aria-busy="true" aria-label={t('loading')}>
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
            {t('tryAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  return <Profile user={me.data} />;
}
