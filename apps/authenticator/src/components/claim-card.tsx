// A QR sign-in link was scanned or opened: say which site asks, let the user pick the identity, and only on
// confirmation claim the session (the auth server then starts a sign-in that appears among the requests).
import { Alert, Button, Card, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { hostOf, originOf } from '../lib/server.ts';
import { displayName, type StoredIdentity } from '../lib/vault.ts';

interface Props {
  link: string;
  issuer: string;
  identities: StoredIdentity[];
  onConfirm: (identity: StoredIdentity) => Promise<void>;
  onCancel: () => void;
}

export function ClaimCard({ link, issuer, identities, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  const usable = identities.filter((identity) => identity.issuer === issuer);
  const [chosen, setChosen] = useState(usable[0]?.keyId ?? '');
  const [busy, setBusy] = useState(false);
  const site = hostOf(link);
  const sameServer = originOf(link) !== null && originOf(link) === originOf(issuer);
  const identity = usable.find((candidate) => candidate.keyId === chosen);

  const confirm = async () => {
    if (!identity) return;
    setBusy(true);
    try {
      await onConfirm(identity);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder shadow="sm" padding="lg" component="section" aria-labelledby="claim-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="claim-title">
          {t('claim.title', { site })}
        </Title>
        {!sameServer ? (
          <Alert color="red" role="alert" title={t('claim.otherServerTitle')}>
            {t('claim.otherServer', { site, host: hostOf(issuer) })}
          </Alert>
        ) : usable.length === 0 ? (
          <Alert color="orange" role="alert">
            {t('claim.noIdentity', { host: hostOf(issuer) })}
          </Alert>
        ) : (
          <>
            <Text>
              <Trans i18nKey="claim.explain" values={{ site }} components={{ strong: <strong /> }} />
            </Text>
            {usable.length > 1 ? (
              <Radio.Group value={chosen} onChange={setChosen} label={t('claim.signInAsLabel')} size="md">
                <Stack gap="xs" mt="xs">
                  {usable.map((candidate) => (
                    <Radio
                      key={candidate.keyId}
                      value={candidate.keyId}
                      label={`${displayName(candidate)} (${candidate.username})`}
                    />
                  ))}
                </Stack>
              </Radio.Group>
            ) : (
              <Text>
                <Trans
                  i18nKey="claim.signInAs"
                  values={{ name: identity ? displayName(identity) : '', username: identity?.username ?? '' }}
                  components={{ strong: <strong /> }}
                />
              </Text>
            )}
          </>
        )}
        <Group grow>
          <Button variant="default" size="lg" onClick={onCancel} disabled={busy}>
            {t('claim.cancel')}
          </Button>
          {sameServer && identity && (
            <Button size="lg" loading={busy} onClick={() => void confirm()}>
              {t('claim.continue')}
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
