// One prescription of a queue as a card, made for a phone first (360–430 px) and laid out in columns on wider
// screens: what it holds, for whom, where it goes (full address, a map link, the recipient's phone to tap), how
// long it has been in its status, and the actions this user may take now as large buttons, or the actions kept
// on this device that wait for the network (decision 046).
import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { prescriptionStatusLabel } from '@/lib/i18n/enum-labels.ts';
import { formatWaited } from '@careplane/shared/common/formats';
import { telUri } from '@careplane/shared/common/phone-numbers';
import { addressLine, personName, textOf } from '@careplane/shared/common/record-labels';
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import {
  prescriptionTransitions,
  type PrescriptionAction,
} from '@careplane/shared/prescriptions/prescription-transitions';
import type { Prescription } from '@careplane/shared/prescriptions/prescriptions.contract';
import { prescriptionContentText } from '@careplane/shared/prescriptions/prescriptions.columns';
import { useOnline } from '@/lib/offline/online.ts';
import { offlineTexts } from '@/lib/offline/texts.ts';
import { useKeptActionsOf } from '@/lib/offline/use-outbox.ts';
import { ActionButton } from './action-button.tsx';
import { CustodyDetail } from './custody-detail.tsx';
import classes from './custody-card.module.css';

type Address = Record<string, unknown> | null | undefined;

/** A maps link for an address: its coordinates when it has them, else its words. */
export function mapLink(address: Address): string | undefined {
  if (!address) return undefined;
  const geo = address.geo as { lat?: unknown; lng?: unknown } | undefined;
  const query =
    typeof geo?.lat === 'number' && typeof geo.lng === 'number'
      ? `${geo.lat},${geo.lng}`
      : addressLine(address);
  return query ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}` : undefined;
}

/** The statuses named by an event (issued, picked up, delivered, returned), not by a state that lasts. */
const happened: readonly PrescriptionStatus[] = ['issued', 'picked_up', 'delivered', 'returned'];

/** Minutes tick on their own: a card left open keeps saying how long the prescription has waited. */
function useNow(everyMs = 60_000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

function Place({ label, address }: { label: string; address: Address }) {
  const { t } = useTranslation('prescriptions');
  const line = addressLine(address);
  const link = mapLink(address);
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm">{line || '—'}</Text>
      {link ? (
        <Anchor
          href={link}
          target="_blank"
          rel="noreferrer"
          size="sm"
          className={classes.tapTarget}
          aria-label={t('card.mapOf', { place: line })}
        >
          {t('card.openMap')}
        </Anchor>
      ) : null}
    </Stack>
  );
}

/**
 * The status the prescription will have once the actions this device keeps for it are sent (each applies from
 * the status the one before leads to), and the actions to offer from there: after a kept "Accept" offline, "Mark
 * ready" may be kept too. Signing actions (issue, pickup) are not offered after a kept one: they need the network,
 * and they come back with the list once the kept ones are sent.
 */
export function nextActions(
  status: PrescriptionStatus,
  kept: readonly { action: PrescriptionAction }[],
  actionsFrom: (status: PrescriptionStatus) => readonly PrescriptionAction[],
): { from: PrescriptionStatus; actions: readonly PrescriptionAction[] } {
  const last = kept.at(-1);
  if (!last) return { from: status, actions: actionsFrom(status) };
  const from = prescriptionTransitions[last.action].to;
  return { from, actions: actionsFrom(from).filter((action) => !prescriptionTransitions[action].signs) };
}

export function CustodyCard({
  prescription,
  actionsFrom,
  mine,
  open,
  onToggle,
}: {
  prescription: Prescription;
  /** The actions this user may take on the prescription in a status. */
  actionsFrom: (status: PrescriptionStatus) => readonly PrescriptionAction[];
  /** The patient's own prescription: who prescribed it instead of its recipient, no actions. */
  mine: boolean;
  open: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation('prescriptions');
  const now = useNow();
  const status = prescriptionStatusLabel(prescription.status);
  const content = prescriptionContentText(prescription);
  const person = mine ? prescription.issuer : prescription.recipient;
  const phone = textOf(person?.phoneNumber);
  const waited = formatWaited(now - new Date(prescription.updatedAt).getTime());
  const showPickup = prescription.status === 'ready' || prescription.status === 'picked_up';
  // What this device keeps for the prescription goes first; the buttons under it act from where it leads.
  const kept = useKeptActionsOf(prescription.id);
  const online = useOnline();
  const next = nextActions(prescription.status, kept, actionsFrom);
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={content} aria-current={open || undefined}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {content}
          </Text>
          <Badge variant="light" style={{ flexShrink: 0 }}>
            {status}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          {/* A status named by what happened reads as when it happened ("Picked up 2 min ago"); a state
              reads as how long it has lasted ("Ready for 2 min"). */}
          {happened.includes(prescription.status)
            ? t('card.endedAgo', { status, waited })
            : t('card.waited', { status, waited })}
        </Text>
        <Group gap="xs" wrap="wrap">
          <Text size="sm">
            <Text span size="xs" c="dimmed" fw={600}>
              {mine ? t('card.prescribedBy') : t('card.for')}
            </Text>
            {personName(person) || '—'}
          </Text>
          {phone ? (
            <Anchor
              href={telUri(phone)}
              size="sm"
              className={classes.tapTarget}
              aria-label={t('card.call', { name: personName(person), phone })}
            >
              {phone}
            </Anchor>
          ) : null}
        </Group>
        {showPickup ? <Place label={t('card.pickUpAt')} address={prescription.pickupAddress} /> : null}
        <Place label={t('card.deliverTo')} address={prescription.deliveryAddress} />
        {kept.length > 0 ? (
          <Stack gap={4}>
            {kept.map((entry) => (
              <Badge
                key={entry.key}
                color="yellow"
                variant="light"
                size="lg"
                data-testid="kept-action"
                styles={{ label: { whiteSpace: 'normal', textTransform: 'none' } }}
                h="auto"
                py={4}
              >
                {offlineTexts.queued(entry.label, online)}
              </Badge>
            ))}
          </Stack>
        ) : null}
        {next.actions.length > 0 ? (
          <Group gap="xs" grow preventGrowOverflow={false}>
            {next.actions.map((action) => (
              <ActionButton
                key={`${action}-${next.from}`}
                id={prescription.id}
                action={action}
                status={next.from}
                subject={content}
                large
              />
            ))}
          </Group>
        ) : null}
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={onToggle}
          aria-expanded={open}
          className={classes.tapTarget}
          style={{ alignSelf: 'flex-start' }}
        >
          {open ? t('card.hideDetails') : t('card.showDetails')}
        </Button>
        {open ? <CustodyDetail prescription={prescription} /> : null}
      </Stack>
    </Paper>
  );
}
