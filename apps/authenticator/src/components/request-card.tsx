// One request waiting for the user's decision: who asks, the code to compare, what is asked.
import { Badge, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useId, useState, type ReactNode } from 'react';
import type { PendingRequest } from '@careplane/shared/authenticator/protocol';
import { formatRemaining, useNow } from '../lib/use-now.ts';
import { displayName, type StoredIdentity } from '../lib/vault.ts';

interface Props {
  request: PendingRequest;
  identity: StoredIdentity;
  onDecide: (decision: 'approve' | 'deny') => Promise<void>;
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <div>{children}</div>
    </div>
  );
}

export function RequestCard({ request, identity, onDecide }: Props) {
  const now = useNow();
  const titleId = useId();
  const [busy, setBusy] = useState<'approve' | 'deny' | null>(null);
  const login = request.kind === 'login';
  const title = login ? `Sign in to ${request.clientName}` : `${request.clientName} asks for your approval`;

  const decide = async (decision: 'approve' | 'deny') => {
    setBusy(decision);
    try {
      await onDecide(decision);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card withBorder shadow="sm" padding="lg" component="article" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Badge color={login ? 'cyan' : 'grape'} variant="light" size="lg">
            {login ? 'Sign-in' : 'Authorization'}
          </Badge>
          <Text size="sm" c="dimmed">
            Expires in {formatRemaining(request.expiresAt, now)}
          </Text>
        </Group>
        <Title order={3} id={titleId} size="h4">
          {title}
        </Title>
        <Text size="sm">
          As <strong>{displayName(identity)}</strong> ({identity.username})
        </Text>

        {request.bindingMessage ? (
          <Field label="Code on the screen where you sign in">
            <Text size="xl" fw={700} ff="monospace" data-testid="binding-message">
              {request.bindingMessage}
            </Text>
            <Text size="sm">Approve only if that screen shows the same code.</Text>
          </Field>
        ) : (
          <Text size="sm">No code was shown. Approve only if you started this yourself just now.</Text>
        )}

        <Field label="Requested by">
          <Text>
            {request.clientName}{' '}
            <Text span c="dimmed" size="sm">
              ({request.clientId})
            </Text>
          </Text>
        </Field>

        {login ? (
          <Field label="Asked">
            <Text>Sign-in{text(request.details.scope) ? ` (${text(request.details.scope)})` : ''}</Text>
          </Field>
        ) : (
          <>
            <Field label="Action">
              <Text fw={600}>{text(request.details.action) ?? 'unnamed action'}</Text>
            </Field>
            {text(request.details.description) && (
              <Field label="Description">
                <Text>{text(request.details.description)}</Text>
              </Field>
            )}
            {text(request.details.resource) && (
              <Field label="Resource">
                <Text style={{ overflowWrap: 'anywhere' }}>{text(request.details.resource)}</Text>
              </Field>
            )}
            {text(request.details.digest) && (
              <Field label="Digest (SHA-256)">
                <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {text(request.details.digest)}
                </Code>
              </Field>
            )}
          </>
        )}

        <Group grow mt="xs">
          <Button
            color="red"
            variant="outline"
            size="lg"
            loading={busy === 'deny'}
            disabled={busy !== null}
            onClick={() => void decide('deny')}
          >
            Deny
          </Button>
          <Button
            color="teal"
            size="lg"
            loading={busy === 'approve'}
            disabled={busy !== null}
            onClick={() => void decide('approve')}
          >
            Approve
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
