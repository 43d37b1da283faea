// A QR sign-in link was scanned or opened: say which site asks, let the user pick the identity, and only on
// confirmation claim the session (the auth server then starts a sign-in that appears among the requests).
import { Alert, Button, Card, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
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
          Sign in to {site}?
        </Title>
        {!sameServer ? (
          <Alert color="red" role="alert" title="Not a code of your server">
            This code belongs to {site}, but this authenticator works with {hostOf(issuer)}. Do not continue.
          </Alert>
        ) : usable.length === 0 ? (
          <Alert color="orange" role="alert">
            No identity of {hostOf(issuer)} is on this phone yet. Add one with your enrollment code first.
          </Alert>
        ) : (
          <>
            <Text>
              The site <strong>{site}</strong> shows this code to sign someone in. Continue only if you are
              signing in there yourself, right now.
            </Text>
            {usable.length > 1 ? (
              <Radio.Group value={chosen} onChange={setChosen} label="Sign in as" size="md">
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
                Sign in as <strong>{identity ? displayName(identity) : ''}</strong> ({identity?.username})
              </Text>
            )}
          </>
        )}
        <Group grow>
          <Button variant="default" size="lg" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          {sameServer && identity && (
            <Button size="lg" loading={busy} onClick={() => void confirm()}>
              Continue
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
