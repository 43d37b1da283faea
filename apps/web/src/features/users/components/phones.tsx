// The phones a user signs in and signs documents with (their authenticator keys): when each was enrolled and
// last used, revoking a lost one, which ends the user's sign-ins (decision 099), and, for an admin, a one-time
// code that enrolls another. The same section serves a person's own account page (`own`).
import { Alert, Badge, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime } from '@careplane/shared/common/formats';
import { personName } from '@careplane/shared/common/record-labels';
import type { Phone } from '@careplane/shared/users/account.contract';
import type { User } from '@careplane/shared/users/users.contract';
import { paths } from '@/config/paths.ts';
import { DetailSection } from '@/lib/resource-kit/detail/detail-parts.tsx';
import { signOut } from '@/lib/session.ts';
import { phoneQueries, useIssueEnrollment, useRevokePhone } from '../api/users.queries.ts';
import { EnrollmentNotice } from './enrollment-notice.tsx';
import { phoneName } from './phone-name.ts';

/** One line per phone; on a phone's screen its parts wrap below each other instead of scrolling sideways. */
function PhoneRows({ phones, onRevoke }: { phones: readonly Phone[]; onRevoke: (phone: Phone) => void }) {
  const { t } = useTranslation('users');
  return (
    <Stack gap={0} component="ul" aria-label={t('phones.title')} p={0} m={0} style={{ listStyle: 'none' }}>
      {phones.map((phone) => {
        const name = phoneName(phone);
        return (
          <Group
            key={phone.id}
            component="li"
            justify="space-between"
            align="center"
            gap="sm"
            py="sm"
            wrap="wrap"
            style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
          >
            <Stack gap={2} style={{ flex: '1 1 220px', minWidth: 0 }}>
              <Text size="sm" fw={600}>
                {name}
              </Text>
              <Text size="xs" c="dimmed">
                {t('phones.enrolledOn', { time: formatDateTime(phone.enrolledAt) })}
                {' · '}
                {phone.lastUsedAt
                  ? t('phones.lastUsedOn', { time: formatDateTime(phone.lastUsedAt) })
                  : t('phones.neverUsed')}
              </Text>
              <Text size="xs" c="dimmed" ff="monospace">
                {phone.id.slice(0, 16)}
              </Text>
            </Stack>
            <Group gap="sm" wrap="wrap">
              {phone.revokedAt ? (
                <Badge color="red" variant="light">
                  {t('phones.revokedOn', { time: formatDateTime(phone.revokedAt) })}
                </Badge>
              ) : (
                <>
                  <Badge color="teal" variant="light">
                    {t('phones.active')}
                  </Badge>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    aria-label={t('phones.revokeLabel', { phone: name })}
                    onClick={() => onRevoke(phone)}
                  >
                    {t('phones.revoke')}
                  </Button>
                </>
              )}
            </Group>
          </Group>
        );
      })}
    </Stack>
  );
}

export function PhonesSection({
  user,
  own = false,
  onIssued,
}: {
  user: User;
  own?: boolean;
  /** Told when a fresh code is issued here: it ends the person's earlier codes (decision 110). */
  onIssued?: (() => void) | undefined;
}) {
  const { t } = useTranslation('users');
  const phones = useQuery({
    ...(own ? phoneQueries.mine() : phoneQueries.forUser(user.id)),
    enabled: Boolean(user.masterId),
  });
  const revoke = useRevokePhone();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // One's own revocation ended this sign-in too: signed out here at once, at the front page, saying why.
  const signedOutHere = (phone: string) => {
    signOut(queryClient);
    void navigate(paths.home.to());
    notifications.show({
      color: 'teal',
      title: t('phones.ownRevokedTitle'),
      message: t('phones.ownRevokedSignedOut', { phone }),
      autoClose: false,
    });
  };
  const enroll = useIssueEnrollment();
  const [asking, setAsking] = useState<Phone | null>(null);
  const [revokedName, setRevokedName] = useState<string | null>(null);
  const [knownAtIssue, setKnownAtIssue] = useState<ReadonlySet<string>>(new Set());
  const name = personName(user) || user.username;
  const askingName = asking ? phoneName(asking) : '';
  const active = phones.data?.items.filter((phone) => !phone.revokedAt) ?? [];

  let body;
  if (!user.masterId) body = <Text size="sm">{t(own ? 'phones.ownNone' : 'phones.noIdentity')}</Text>;
  else if (phones.isPending) body = <Loader size="sm" role="status" aria-label={t('phones.loading')} />;
  else if (phones.isError)
    body = (
      <Alert color="red" title={t('phones.couldNotLoad')}>
        {phones.error.message}
      </Alert>
    );
  else if (!phones.data.items.length)
    body = <Text size="sm">{t(own ? 'phones.ownNone' : 'phones.none')}</Text>;
  else
    body = (
      <PhoneRows
        phones={phones.data.items}
        onRevoke={(phone) => {
          revoke.reset();
          setAsking(phone);
          // Another phone may have enrolled since the list loaded: the only-phone warning counts afresh.
          void phones.refetch();
        }}
      />
    );

  return (
    <DetailSection
      title={t(own ? 'phones.ownTitle' : 'phones.title')}
      actions={
        own ? null : (
          <Button
            size="xs"
            variant="light"
            loading={enroll.isPending}
            onClick={() => {
              setKnownAtIssue(new Set(phones.data?.items.map((phone) => phone.id)));
              enroll.mutate(user.id, { onSuccess: () => onIssued?.() });
            }}
          >
            {t('phones.enrollAnother')}
          </Button>
        )
      }
    >
      <Text size="sm" c="dimmed">
        {t(own ? 'phones.ownExplain' : 'phones.explain')}
      </Text>
      {body}
      <Stack gap="sm" aria-live="polite">
        {revokedName ? (
          <Alert color="teal" withCloseButton onClose={() => setRevokedName(null)}>
            {t('phones.revoked', { phone: revokedName })}
          </Alert>
        ) : null}
        {enroll.isSuccess ? (
          <EnrollmentNotice
            another
            userId={user.id}
            enrollment={enroll.data}
            known={knownAtIssue}
            onDone={() => enroll.reset()}
          />
        ) : null}
        {enroll.isError ? (
          <Alert color="red" title={t('phones.couldNotEnroll')} role="alert">
            {enroll.error.message}
          </Alert>
        ) : null}
      </Stack>
      <Modal
        opened={asking !== null}
        onClose={() => setAsking(null)}
        title={t('phones.revokeTitle', { phone: askingName })}
        centered
      >
        <Stack gap="sm">
          <Text size="sm">
            {own
              ? t('phones.ownRevokeText', { phone: askingName })
              : t('phones.revokeText', { phone: askingName, name })}
          </Text>
          {active.length === 1 && asking && !asking.revokedAt && !phones.isFetching ? (
            <Text size="sm" fw={600}>
              {t(own ? 'phones.ownLastPhone' : 'phones.lastPhone', { name })}
            </Text>
          ) : null}
          <Text size="sm" c="dimmed">
            {t('phones.revokeSignatures')}
          </Text>
          {revoke.isError ? (
            <Alert color="red" title={t('phones.couldNotRevoke')} role="alert">
              {revoke.error.message}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setAsking(null)}>
              {t('phones.cancel')}
            </Button>
            <Button
              color="red.8"
              loading={revoke.isPending}
              onClick={() => {
                if (!asking) return;
                revoke.mutate(
                  { userId: user.id, phoneId: asking.id, own },
                  {
                    onSuccess: () => {
                      setAsking(null);
                      if (own) return signedOutHere(askingName);
                      setRevokedName(askingName);
                    },
                  },
                );
              }}
            >
              {t('phones.confirmRevoke')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </DetailSection>
  );
}
