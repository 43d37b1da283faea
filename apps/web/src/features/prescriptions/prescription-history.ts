// A prescription's history in words, as the areas and the admin's page tell it: the event of an entry (a status
// action as done, a phone signature asked and how it ended) and when it happened.
import type { TFunction } from 'i18next';
import { formatDateTime } from '@careplane/shared/common/formats';
import { isPrescriptionAction } from '@careplane/shared/prescriptions/prescription-transitions';
import {
  prescriptionSigningStatuses,
  type PrescriptionHistory,
} from '@careplane/shared/prescriptions/prescriptions.contract';

/** What the server records of a signature an action waited for: asked, then how it ended unless signed (the
 * signed action is recorded as the action itself). */
const SIGNING_OUTCOMES = [
  'requested',
  ...prescriptionSigningStatuses.filter(
    (status): status is 'denied' | 'expired' | 'failed' => status !== 'pending' && status !== 'signed',
  ),
] as const;

/**
 * A history entry's event in words: a status action as done, the phone signature an issue or a pickup waited for
 * (`issue-requested`, `pickup-denied`…), the record's creation and edits. An event the console has no words for
 * is shown as recorded rather than hidden.
 */
export function historyEventText(action: string, t: TFunction<'prescriptions'>): string {
  if (isPrescriptionAction(action)) return t(`done.${action}`);
  if (action === 'create' || action === 'update') return t(`event.${action}`);
  const [signed, outcome] = action.split(/-(?=[a-z]+$)/);
  if (isPrescriptionAction(signed) && SIGNING_OUTCOMES.some((known) => known === outcome))
    return t(`event.${outcome as (typeof SIGNING_OUTCOMES)[number]}`, { action: t(`actions.${signed}`) });
  return action;
}

/** Why a hold or a return happened, in quotes, when the one who took it said (else nothing). */
export function historyReasonText(
  entry: Pick<PrescriptionHistory['items'][number], 'changes'>,
): string | null {
  const reason = entry.changes?.reason;
  return typeof reason === 'string' && reason.trim() ? `“${reason.trim()}”` : null;
}

/**
 * When a history entry happened: the server's time of recording, or for an action kept on a phone without a
 * network for a minute or more, the time it was taken there and then when it reached the server (decision 076).
 */
export function historyTimeText(
  entry: Pick<PrescriptionHistory['items'][number], 'at' | 'changes'>,
  t: TFunction<'prescriptions'>,
): string {
  const performedAt = entry.changes?.performedAt;
  const late = typeof performedAt === 'string' ? Date.parse(entry.at) - Date.parse(performedAt) : Number.NaN;
  // Kept less than a minute (or not at all, or unreadable): the time of recording says it.
  if (typeof performedAt !== 'string' || !(late >= 60_000)) return formatDateTime(entry.at);
  return t('detail.performedOffline', {
    performed: formatDateTime(performedAt),
    recorded: formatDateTime(entry.at),
  });
}
