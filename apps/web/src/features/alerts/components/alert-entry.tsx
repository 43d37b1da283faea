// One alert as a care team reads it, wherever alerts are listed (the admin home, the alerts page, a record's
// page): its severity, a title from the reading (the shared alertTitle), whom and what it concerns, when,
// who acknowledged or closed it and when, and the actions of an open alert (acknowledge; close with a note,
// which becomes its closingData), through the admin's calls or a command center's (decision 079).
import { Anchor, Badge, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import i18next from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { alertOrigin, alertTitle } from '@careplane/shared/alerts/alert-title';
import type { Alert } from '@careplane/shared/alerts/alerts.contract';
import { formatDateTime } from '@careplane/shared/common/formats';
import { MAX_TEXT } from '@careplane/shared/common/primitives';
import { iotDeviceName, personName, textOf } from '@careplane/shared/common/record-labels';
import { paths } from '@/config/paths.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { useLanguage } from '@/lib/i18n/language.ts';
import { useSession } from '@/lib/session.ts';
import { useKeptAlertActionsOf } from '@/lib/offline/use-outbox.ts';
import type { AlertActionsVia } from '@/lib/offline/outbox.ts';
import { useOnline } from '@/lib/offline/online.ts';
import { offlineTexts } from '@/lib/offline/texts.ts';
import { useAcknowledgeAlert, useCloseAlert } from '../api/alerts.queries.ts';

export const severityColor = { info: 'blue', warning: 'orange', critical: 'red' } as const;

/** Who acted: the reader themself, the person named, or without a name when the list gives none. */
const someone = (user: Alert['closedByUser'], id: string | null, me: string | undefined) =>
  id && id === me
    ? i18next.t('alerts:entry.you')
    : user
      ? personName(user) || i18next.t('alerts:entry.aUser')
      : id
        ? i18next.t('alerts:entry.aUser')
        : i18next.t('alerts:entry.someone');

/** A severity in the reader's language. */
export const severityText = (severity: Alert['severity']) => enumLabel('alertSeverity', severity);

function closingNote(closingData: Alert['closingData']) {
  if (!closingData) return '';
  return (
    textOf(closingData.note) ||
    textOf(closingData.notes) ||
    textOf(closingData.reason).replaceAll('_', ' ') ||
    JSON.stringify(closingData)
  );
}

/**
 * Where the names lead: the admin to the records; the care team to the person's page in their command center
 * (decision 102), the device's name to its chart there. A name does not link to the page it is read on.
 */
function useSubjectLinks(alert: Alert, via: AlertActionsVia) {
  const onPageOf = useParams().userId;
  if (via === 'admin') {
    return {
      user: alert.user ? paths.admin.users.detail.to(alert.user.id) : null,
      device: alert.iotDevice ? paths.admin.iotDevices.detail.to(alert.iotDevice.id) : null,
    };
  }
  const person = alert.user?.id;
  return {
    user: person && person !== onPageOf ? paths.commandCenter.to(person) : null,
    device: person && alert.iotDevice ? paths.commandCenter.to(person, alert.iotDevice.id) : null,
  };
}

/** Whom and what the alert concerns, each a link where the reader may follow it. */
function Subject({ alert, via }: { alert: Alert; via: AlertActionsVia }) {
  const { t } = useTranslation('alerts');
  const links = useSubjectLinks(alert, via);
  const deviceName = alert.iotDevice ? textOf(alert.iotDevice.model) || iotDeviceName(alert.iotDevice) : '';
  return (
    <Group gap={6} wrap="wrap">
      {alert.user ? (
        links.user ? (
          <Anchor component={Link} to={links.user} size="sm" fw={600}>
            {personName(alert.user)}
          </Anchor>
        ) : (
          <Text size="sm" fw={600} component="span">
            {personName(alert.user)}
          </Text>
        )
      ) : null}
      {alert.iotDevice ? (
        <Text size="sm" c="dimmed" component="span">
          {alert.user ? t('entry.via') : t('entry.from')}
          {links.device ? (
            <Anchor
              component={Link}
              to={links.device}
              // The care team's link brings the chart into view at every tap (on a phone it is far below).
              state={via === 'admin' ? undefined : paths.commandCenter.locate}
              size="sm"
            >
              {deviceName}
            </Anchor>
          ) : (
            deviceName
          )}
        </Text>
      ) : null}
      {!alert.user && !alert.iotDevice ? (
        <Text size="sm" c="dimmed" component="span">
          {t('entry.noPatient')}
        </Text>
      ) : null}
    </Group>
  );
}

export function AlertEntry({
  alert,
  compact = false,
  via = 'admin',
}: {
  alert: Alert;
  compact?: boolean;
  /** Whose calls act on it: the admin's, or the care team's on their command center's alerts. */
  via?: AlertActionsVia;
}) {
  const me = useSession((state) => state.user?.id);
  const acknowledge = useAcknowledgeAlert(via);
  const close = useCloseAlert(via);
  const { t } = useTranslation('alerts');
  const [closing, setClosing] = useState(false);
  const [note, setNote] = useState('');
  // The note is asked for where the person is looking: the field takes the focus, which scrolls it into view
  // (a long list left it below the screen's edge).
  const noteField = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (closing) noteField.current?.focus();
  }, [closing]);
  const failure = acknowledge.error ?? close.error;
  const closeButton = useRef<HTMLButtonElement>(null);
  const entry = useRef<HTMLDivElement>(null);
  const keepFocusHere = () => {
    const focused = document.activeElement;
    const lost = !focused || focused === document.body || entry.current?.contains(focused);
    if (lost) closeButton.current?.focus();
  };
  const language = useLanguage();
  const title = alertTitle(alert, language);
  // Who sent a manual alert: the reader, or the person the list names (by name only, decision 104).
  const sender =
    alert.createdByUserId && alert.createdByUserId === me
      ? t('entry.you')
      : alert.createdByUser
        ? personName(alert.createdByUser) || undefined
        : undefined;
  const origin = alertOrigin(alert, language, sender);
  /** A tap on an action: which alert, and its title for the notices. */
  const tap = () => ({ id: alert.id, title });
  // What this user did to the alert on this device and is not sent yet (decision 107): said in place of the
  // button it came from, so nobody taps it twice or wonders whether it went.
  const kept = useKeptAlertActionsOf(alert.id);
  const online = useOnline();
  const keptAcknowledge = kept.some((entry) => entry.action === 'acknowledge');
  const keptClose = kept.some((entry) => entry.action === 'close');
  // A close kept on this device takes the place of the form it was sent from, and the focus with it: the line
  // that says it was kept takes the focus, so a keyboard or screen reader is not left at the top of the page.
  const keptCloseLine = useRef<HTMLParagraphElement>(null);
  const hadKeptClose = useRef(keptClose);
  useEffect(() => {
    if (keptClose && !hadKeptClose.current) {
      const focused = document.activeElement;
      if (!focused || focused === document.body) keptCloseLine.current?.focus();
    }
    hadKeptClose.current = keptClose;
  }, [keptClose]);
  return (
    <Stack gap={4} component="li" aria-label={title} ref={entry}>
      <Group gap="xs" wrap="wrap">
        <Badge color={severityColor[alert.severity]} variant="light">
          {severityText(alert.severity)}
        </Badge>
        <Text size="sm" fw={700}>
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(alert.timestamp)}
        </Text>
        <Text size="xs" c="dimmed">
          {alert.isActive
            ? alert.acknowledgedAt
              ? t('entry.openAcknowledged')
              : t('entry.open')
            : t('entry.closed')}
        </Text>
      </Group>
      <Subject alert={alert} via={via} />
      {origin && !compact ? (
        <Text size="xs" c="dimmed">
          {origin}
        </Text>
      ) : null}
      {alert.acknowledgedAt ? (
        <Text size="xs">
          {alert.acknowledgedByUserId && alert.acknowledgedByUserId === me
            ? // The reader's own: said as a person says it ("คุณรับทราบแล้ว…"), not with "you" put for a name.
              t('entry.acknowledgedByYou', { time: formatDateTime(alert.acknowledgedAt) })
            : t('entry.acknowledgedBy', {
                name: someone(alert.acknowledgedByUser, alert.acknowledgedByUserId, me),
                time: formatDateTime(alert.acknowledgedAt),
              })}
        </Text>
      ) : null}
      {!alert.isActive ? (
        // A note is a person's words: a long unbroken one (a link, a code) wraps instead of leaving the card.
        <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
          {[
            t('entry.closed'),
            alert.closedByUserId
              ? t('entry.closedBy', { name: someone(alert.closedByUser, alert.closedByUserId, me) })
              : '',
            alert.closedAt ? t('entry.closedOn', { time: formatDateTime(alert.closedAt) }) : '',
            alert.closingData ? t('entry.closingNote', { note: closingNote(alert.closingData) }) : '',
          ].join('')}
        </Text>
      ) : null}
      {alert.isActive && !keptClose ? (
        closing ? (
          <Stack gap={4}>
            <Textarea
              ref={noteField}
              label={t('entry.whatWasDone')}
              // Close stays unavailable until there is a note: the field says why.
              description={t('entry.noteNeeded')}
              required
              value={note}
              onChange={(event) => setNote(event.currentTarget.value)}
              // Said, not cut: a pasted note longer than the API takes keeps every word until it is shortened.
              error={
                note.trim().length > MAX_TEXT
                  ? t('entry.noteTooLong', { max: MAX_TEXT, count: note.trim().length })
                  : undefined
              }
              autosize
              minRows={2}
              maxRows={12}
            />
            <Group gap="xs">
              <Button
                size="xs"
                disabled={!note.trim() || note.trim().length > MAX_TEXT}
                loading={close.isPending}
                onClick={() => close.mutate({ ...tap(), note: note.trim() })}
              >
                {t('entry.closeAlert')}
              </Button>
              <Button size="xs" variant="subtle" onClick={() => setClosing(false)}>
                {t('entry.cancel')}
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group gap="xs">
            {alert.acknowledgedAt || keptAcknowledge ? null : (
              <Button
                size="xs"
                variant="light"
                loading={acknowledge.isPending}
                // The button goes once acknowledged: the focus goes on to Close…, the next thing to do, unless
                // the reader has moved on meanwhile (an acknowledgement that waited for the network).
                onClick={() => acknowledge.mutate(tap(), { onSuccess: keepFocusHere })}
              >
                {t('entry.acknowledge')}
              </Button>
            )}
            <Button size="xs" variant="light" ref={closeButton} onClick={() => setClosing(true)}>
              {t('entry.close')}
            </Button>
          </Group>
        )
      ) : null}
      {kept.map((entry) => (
        <Text
          key={entry.key}
          size="xs"
          c="orange.9"
          role="status"
          tabIndex={-1}
          ref={entry.action === 'close' ? keptCloseLine : undefined}
        >
          {offlineTexts.queued(entry.label, online)}
        </Text>
      ))}
      {failure ? (
        <Text size="xs" c="red.8" role="alert">
          {failure.message}
        </Text>
      ) : null}
    </Stack>
  );
}
