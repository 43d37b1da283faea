// One status action on a prescription. A plain one posts and refreshes the queues (offline, it is kept on the
// device and sent later: decision 046); Delivered and Return ask first, as they take the card off the driver's
// list (decision 066), and Hold and Return ask why, for the history (decision 083); issue and pickup ask a phone, and the button itself shows the approval in progress (code
// to compare, time left) until the phone answers. Offline, they say they need the network.
import { Button, Group, Loader, Paper, Stack, Text, Textarea } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  prescriptionTransitions,
  type PrescriptionAction,
} from '@careplane/shared/prescriptions/prescription-transitions';
import {
  actionsWithReason,
  MAX_ACTION_REASON,
  type PrescriptionSigningStarted,
  type PrescriptionSigningState,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { prescriptionStatuses, type PrescriptionStatus } from '@careplane/shared/common/enums';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { notify } from '@/lib/notify.ts';
import { conflictStatus } from '@/lib/offline/action-outbox.ts';
import { isOnline, useOnline } from '@/lib/offline/online.ts';
import { offlineTexts } from '@/lib/offline/texts.ts';
import { useSession } from '@/lib/session.ts';
import { custodyQueries, isSigningStarted, useAction } from '../api/custody.ts';

/** The label of an action's button, in the language shown. */
export const actionLabel = (action: PrescriptionAction) => i18next.t(`prescriptions:actions.${action}`);

/** The notice after an action went through, before what it was done to. */
function announceDone(action: PrescriptionAction, subject: string | undefined) {
  const done = i18next.t(`prescriptions:done.${action}`);
  notify({
    color: 'teal',
    message: subject
      ? i18next.t('prescriptions:notice.doneTo', { done, subject })
      : i18next.t('prescriptions:notice.done', { done }),
  });
}

/** A prescription another device moved while the action was on its way, as the list will show it. */
const movedMeanwhile = (status: PrescriptionStatus) =>
  i18next.t('prescriptions:notice.movedMeanwhile', { status: enumLabel('prescriptionStatus', status) });

/**
 * Why the server refused, as the person who tapped reads it: a prescription another device moved meanwhile
 * (409, the server names its status now) says so in words, else the server's own message.
 */
export function refusalText(error: Error): string {
  const status = conflictStatus(error);
  return status && (prescriptionStatuses as readonly string[]).includes(status)
    ? movedMeanwhile(status as PrescriptionStatus)
    : error.message;
}

/**
 * Why an action that asked a phone ended without happening: when the prescription had moved before the approval
 * came (another courier's pickup was completed first), in the same words as any action refused for that; else
 * the server's reason.
 */
function signingFailureText(state: PrescriptionSigningState | undefined): string {
  return state?.prescriptionStatus
    ? movedMeanwhile(state.prescriptionStatus)
    : state?.message || i18next.t('prescriptions:signing.failed');
}

/** One refusal notice per prescription and action: a later try that goes through takes it away. */
const refusalNotice = (id: string, action: PrescriptionAction) => `refused-${action}-${id}`;

/** The notice that stays until closed when the server refused an action: the card may change under it. */
function announceRefused(id: string, action: PrescriptionAction, subject: string | undefined, error: Error) {
  const label = actionLabel(action);
  notify({
    id: refusalNotice(id, action),
    color: 'red',
    autoClose: false,
    title: subject
      ? i18next.t('prescriptions:notice.refusedTo', { action: label, subject })
      : i18next.t('prescriptions:notice.refused', { action: label }),
    message: refusalText(error),
  });
}

/**
 * The action that ends the prescription's road for whoever takes it: the card leaves their list and they cannot
 * take it back. A tap asks first, so a thumb that slips from Return to Delivered changes nothing. (Return ends
 * the road too; it asks why, below, which is asking first.)
 */
const asksFirst = (action: PrescriptionAction): action is 'delivered' => action === 'delivered';

/**
 * Why a hold or a return happens, asked before it is sent: the pharmacy, the doctor and the nurse read it in the
 * history. Saying nothing is allowed (the API's reason is optional); the action's own button sends it.
 */
function ReasonPrompt({
  action,
  subject,
  close,
  run,
}: {
  action: 'hold' | 'return';
  subject: string | undefined;
  close: () => void;
  run: (reason: string | undefined) => void;
}) {
  const { t } = useTranslation('prescriptions');
  const [reason, setReason] = useState('');
  return (
    <Stack>
      <Text size="sm">{t(`confirm.${action}.text`, { subject: subject ?? '' })}</Text>
      <Textarea
        label={t('reason.label')}
        description={t('reason.hint')}
        maxLength={MAX_ACTION_REASON}
        autosize
        minRows={2}
        value={reason}
        onChange={(event) => setReason(event.currentTarget.value)}
        data-autofocus
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={close}>
          {t('confirm.cancel')}
        </Button>
        <Button
          onClick={() => {
            close();
            run(reason.trim() || undefined);
          }}
        >
          {actionLabel(action)}
        </Button>
      </Group>
    </Stack>
  );
}

const asksWhy = (action: PrescriptionAction): action is 'hold' | 'return' =>
  actionsWithReason.includes(action);

function confirmFirst(
  action: PrescriptionAction,
  subject: string | undefined,
  run: (reason?: string) => void,
) {
  const t = i18next.getFixedT(null, 'prescriptions');
  if (asksWhy(action)) {
    const id = modals.open({
      title: t(`confirm.${action}.title`),
      children: <ReasonPrompt action={action} subject={subject} close={() => modals.close(id)} run={run} />,
    });
    return;
  }
  if (!asksFirst(action)) return run();
  modals.openConfirmModal({
    title: t(`confirm.${action}.title`),
    children: <Text size="sm">{t(`confirm.${action}.text`, { subject: subject ?? '' })}</Text>,
    labels: { confirm: actionLabel(action), cancel: t('confirm.cancel') },
    onConfirm: () => run(),
  });
}

/**
 * A label that wraps onto more lines where it is longer than the button is wide (Thai, a phone), spaced so
 * that the marks above and below Thai letters of one line do not run into the next.
 */
const wrapping = { h: 'auto', styles: { label: { whiteSpace: 'normal', lineHeight: 1.4 } } } as const;

/** A touch target a thumb finds on a phone (44 px, as the platforms advise), or the compact one of a table. */
const sized = (big: boolean) =>
  big ? ({ ...wrapping, size: 'md', mih: 44, py: 6 } as const) : ({ size: 'xs' } as const);

function Following({
  id,
  started,
  onDone,
  big,
}: {
  id: string;
  started: PrescriptionSigningStarted & { until: number };
  onDone: (message: string | null) => void;
  big: boolean;
}) {
  const { t } = useTranslation('prescriptions');
  const state = useQuery(custodyQueries.signing(id, started.requestId, started.interval));
  const online = useOnline();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  useEffect(() => {
    const status = state.data?.status;
    // The approval's notice and refresh come from the request's follower (useAction), which outlives this button.
    if (status === 'signed') {
      onDone(null);
    } else if (status === 'denied' || status === 'expired') {
      onDone(t(`signing.${status}`));
    } else if (status === 'failed') {
      onDone(signingFailureText(state.data));
    }
  }, [state.data, onDone, t]);
  const left = Math.max(0, Math.round((started.until - now) / 1000));
  const me = useSession((state) => state.user?.id);
  // An admin who issues asks the prescriber's phone: say whose, so nobody waits at the wrong one.
  const phone =
    started.signerUserId === me
      ? t('signing.ownPhone')
      : t('signing.theirPhone', { name: started.signerName });
  const code = started.bindingMessage;
  return (
    <Stack gap={2}>
      {/* Not a disabled button: the code is what the signer compares on the phone, so it reads at full contrast
          and wraps on a narrow screen. */}
      <Paper
        withBorder
        radius="sm"
        px="sm"
        py={big ? 8 : 4}
        mih={big ? 44 : undefined}
        bg="var(--mantine-primary-color-light)"
        aria-live="polite"
        data-testid={`signing-${started.action}`}
      >
        <Group gap="xs" wrap="nowrap" align="center">
          <Loader size="xs" type="dots" aria-hidden />
          <Text size={big ? 'md' : 'sm'} fw={600} lh={1.35}>
            {left > 0
              ? t('signing.approveWithTime', { phone, code, seconds: left })
              : t('signing.approve', { phone, code })}
          </Text>
        </Group>
      </Paper>
      {!online ? (
        <Text size="xs" c="orange" role="status" data-testid="signing-offline">
          {t('signing.offline')}
        </Text>
      ) : state.isError ? (
        <Text size="xs" c="red" role="alert">
          {t('signing.checkFailed', { message: state.error.message })}
        </Text>
      ) : null}
    </Stack>
  );
}

export function ActionButton({
  id,
  action,
  status,
  onChanged,
  subject,
  large: big = false,
}: {
  id: string;
  action: PrescriptionAction;
  /** The prescription's status as shown: the action is taken on it, and applies only from it (decision 093). */
  status: PrescriptionStatus;
  /** Told once the action has changed the prescription (beyond the custody queues, which always refresh). */
  onChanged?: () => unknown;
  /** What the action is done to, for the notice that says it went through ("Picked up: Amoxicillin …"). */
  subject?: string;
  /** A phone-sized touch target. */
  large?: boolean;
}) {
  const mutation = useAction(id, action, {
    label: actionLabel(action),
    subject,
    status,
    applied: () => {
      notifications.hide(refusalNotice(id, action));
      announceDone(action, subject);
      return onChanged?.();
    },
    signed: () => {
      notifications.hide(refusalNotice(id, action));
      announceDone(action, subject);
      return onChanged?.();
    },
    refused: (error) => announceRefused(id, action, subject, error),
    // The phone was asked, but the action ended without it (another courier completed the pickup first).
    failed: (state) => announceRefused(id, action, subject, new Error(signingFailureText(state))),
    // Online, it was kept only to go after earlier kept actions: the notice that it was sent follows.
    kept: (entry) =>
      isOnline()
        ? undefined
        : notify({ color: 'yellow', message: offlineTexts.queuedNotice(entry.label, subject) }),
  });
  const online = useOnline();
  // A double tap sends once: the second tap comes before the button has been drawn as busy, so the button
  // remembers itself that it is sending (the first went through, the second would be refused as a conflict).
  const sending = useRef(false);
  const [started, setStarted] = useState<(PrescriptionSigningStarted & { until: number }) | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  if (started) {
    return (
      <Following
        id={id}
        started={started}
        big={big}
        onDone={(outcome) => {
          setStarted(null);
          setMessage(outcome);
        }}
      />
    );
  }
  if (!online && prescriptionTransitions[action].signs) {
    return (
      <Stack gap={2}>
        <Button
          {...sized(big)}
          {...wrapping}
          mih={big ? 44 : 30}
          py={4}
          // Read by a courier on the road, not only a greyed-out control: the hint below says why.
          c="dimmed"
          disabled
          data-testid={`needs-network-${action}`}
        >
          {offlineTexts.needsNetwork(actionLabel(action))}
        </Button>
        <Text size="xs" c="dimmed">
          {offlineTexts.needsNetworkHint}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap={2}>
      <Button
        {...sized(big)}
        variant={action === 'hold' || action === 'return' ? 'light' : 'filled'}
        loading={mutation.isPending}
        onClick={(event) => {
          event.stopPropagation();
          setMessage(null);
          if (sending.current) return;
          confirmFirst(action, subject, (reason) => {
            if (sending.current) return;
            sending.current = true;
            mutation.mutate(reason, {
              onSuccess: (answer) => {
                if (!isSigningStarted(answer)) return;
                // A try whose answer was lost had asked the phone already: this one follows the same request,
                // and the earlier "not done" would tell the signer to deny what they are about to approve.
                notifications.hide(refusalNotice(id, action));
                setStarted({ ...answer, until: Date.now() + answer.expiresIn * 1000 });
              },
              onSettled: () => {
                sending.current = false;
              },
            });
          });
        }}
      >
        {actionLabel(action)}
      </Button>
      {mutation.isError ? (
        <Text size="xs" c="red" role="alert">
          {refusalText(mutation.error)}
        </Text>
      ) : null}
      {message ? (
        <Text size="xs" c="orange" role="status">
          {message}
        </Text>
      ) : null}
    </Stack>
  );
}
