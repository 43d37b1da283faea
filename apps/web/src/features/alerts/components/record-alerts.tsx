// The alerts of one user or IoT device, on its page: severity, state, what opened it, and the actions of an
// open alert (acknowledge; close with a note, which becomes its closingData).
import { Alert as Notice, Badge, Button, Group, Loader, Stack, Text, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Alert } from '@careplane/shared/alerts/alerts.contract';
import { formatDateTime } from '@careplane/shared/common/formats';
import { textOf } from '@careplane/shared/common/record-labels';
import { DetailSection } from '@/lib/resource-kit/detail/detail-parts.tsx';
import {
  alertQueries,
  recordAlertsRequest,
  useAcknowledgeAlert,
  useCloseAlert,
} from '../api/alerts.queries.ts';

const severityColor = { info: 'blue', warning: 'orange', critical: 'red' } as const;

function describe(alert: Alert) {
  const reason = textOf(alert.data.reason);
  if (reason === 'out_of_bounds') return `${textOf(alert.data.dataType).replaceAll('_', ' ')} out of bounds`;
  if (reason === 'alert_reading') return 'Alert from the device';
  return textOf(alert.data.message) || reason.replaceAll('_', ' ') || 'Alert';
}

function AlertItem({ alert }: { alert: Alert }) {
  const acknowledge = useAcknowledgeAlert();
  const close = useCloseAlert();
  const [closing, setClosing] = useState(false);
  const [note, setNote] = useState('');
  const failure = acknowledge.error ?? close.error;
  return (
    <Stack gap={4} component="li">
      <Group gap="xs" wrap="wrap">
        <Badge color={severityColor[alert.severity]} variant="light">
          {alert.severity}
        </Badge>
        <Text size="sm" fw={600}>
          {describe(alert)}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(alert.timestamp)}
        </Text>
        <Text size="xs" c="dimmed">
          {alert.isActive ? (alert.acknowledgedAt ? 'Open, acknowledged' : 'Open') : 'Closed'}
        </Text>
      </Group>
      {!alert.isActive && alert.closingData ? (
        <Text size="xs">
          Closing note: {textOf(alert.closingData.note) || JSON.stringify(alert.closingData)}
        </Text>
      ) : null}
      {alert.isActive ? (
        closing ? (
          <Stack gap={4}>
            <Textarea
              label="What was done"
              value={note}
              onChange={(event) => setNote(event.currentTarget.value)}
              autosize
              minRows={2}
            />
            <Group gap="xs">
              <Button
                size="xs"
                disabled={!note.trim()}
                loading={close.isPending}
                onClick={() => close.mutate({ id: alert.id, note: note.trim() })}
              >
                Close alert
              </Button>
              <Button size="xs" variant="subtle" onClick={() => setClosing(false)}>
                Cancel
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group gap="xs">
            {alert.acknowledgedAt ? null : (
              <Button
                size="xs"
                variant="light"
                loading={acknowledge.isPending}
                onClick={() => acknowledge.mutate(alert.id)}
              >
                Acknowledge
              </Button>
            )}
            <Button size="xs" variant="light" onClick={() => setClosing(true)}>
              Close…
            </Button>
          </Group>
        )
      ) : null}
      {failure ? (
        <Text size="xs" c="red.8" role="alert">
          {failure.message}
        </Text>
      ) : null}
    </Stack>
  );
}

/** `filter`: `user.id~<id>` or `iotDevice.id~<id>`. */
export function RecordAlerts({ filter }: { filter: string }) {
  const alerts = useQuery(alertQueries.list(recordAlertsRequest(filter)));
  return (
    <DetailSection title={`Alerts${alerts.data ? ` (${alerts.data.total})` : ''}`}>
      {alerts.isPending ? (
        <Loader size="sm" role="status" aria-label="Loading the alerts" />
      ) : alerts.isError ? (
        <Notice color="red" title="Could not load the alerts.">
          {alerts.error.message}
        </Notice>
      ) : alerts.data.items.length ? (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Alerts">
          {alerts.data.items.map((alert) => (
            <AlertItem key={alert.id} alert={alert} />
          ))}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          No alerts.
        </Text>
      )}
    </DetailSection>
  );
}
