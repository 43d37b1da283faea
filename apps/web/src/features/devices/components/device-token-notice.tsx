// A device token, shown once: when the device is created or given a new token. The agent on the device
// needs it; the server keeps only its hash.
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

export function DeviceTokenNotice({ token, onDone }: { token: string; onDone: () => void }) {
  return (
    <Alert color="orange" title="Copy the device token now: it is shown only once" role="status">
      <Stack gap="xs">
        <Text size="sm">
          Give this token to the agent on the device. It is not stored in readable form and cannot be shown
          again; if it is lost, issue a new one.
        </Text>
        <Code block data-testid="device-token" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {token}
        </Code>
        <Group gap="xs">
          <CopyButton value={token}>
            {({ copied, copy }) => (
              <Button size="xs" onClick={copy} color={copied ? 'teal' : undefined}>
                {copied ? 'Copied' : 'Copy token'}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" variant="default" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
