// Every text of the console's offline work (decision 046), read from the kit catalog (`kit:offline.*`) in the
// language shown: the banner, the queued actions on their cards, the actions that need the network, and the
// notices once a queued action is sent. `label` is an action's button label ('Delivered'), `subject` what it
// was done to ('Metformin 500 mg …').
import i18next from 'i18next';
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import { prescriptionStatusLabel } from '@/lib/i18n/enum-labels.ts';
import { currentLanguage } from '@/lib/i18n/language.ts';
import { isOnline } from './online.ts';

/**
 * A prescription's status in a sentence: as the server writes it in English ('on hold'), by its label in Thai
 * (found by its value, 'on_hold').
 */
const statusInSentence = (status: string) =>
  currentLanguage() === 'en'
    ? status
    : prescriptionStatusLabel(status.replaceAll(' ', '_') as PrescriptionStatus);

export const offlineTexts = {
  get bannerOffline() {
    return i18next.t('kit:offline.bannerOffline');
  },
  bannerPending: (count: number) => i18next.t('kit:offline.bannerPending', { count }),
  get bannerSending() {
    return i18next.t('kit:offline.bannerSending');
  },
  /**
   * A kept action in place of its button. Offline it waits for the network; online (`online`, the browser's
   * word) it waits for the server to take it, or for an earlier action on the same record.
   */
  queued: (label: string, online: boolean) =>
    i18next.t(online ? 'kit:offline.queuedOnline' : 'kit:offline.queued', { label }),
  /** The notice that an action was kept, said when it is kept (online as for `queued`). */
  queuedNotice: (label: string, subject: string | undefined, online = isOnline()) =>
    online
      ? subject
        ? i18next.t('kit:offline.queuedNoticeOnline', { label, subject })
        : i18next.t('kit:offline.queuedNoticeOnlineBare', { label })
      : subject
        ? i18next.t('kit:offline.queuedNotice', { label, subject })
        : i18next.t('kit:offline.queuedNoticeBare', { label }),
  needsNetwork: (label: string) => i18next.t('kit:offline.needsNetwork', { label }),
  get needsNetworkHint() {
    return i18next.t('kit:offline.needsNetworkHint');
  },
  sent: (label: string, subject: string | undefined) =>
    subject
      ? i18next.t('kit:offline.sent', { label, subject })
      : i18next.t('kit:offline.sentBare', { label }),
  get conflictTitle() {
    return i18next.t('kit:offline.notApplied');
  },
  conflict: (label: string, status: string, subject?: string) =>
    subject
      ? i18next.t('kit:offline.conflictOn', { label, subject, status: statusInSentence(status) })
      : i18next.t('kit:offline.conflict', { label, status: statusInSentence(status) }),
  get rejectedTitle() {
    return i18next.t('kit:offline.notApplied');
  },
  rejected: (label: string, message: string, subject?: string) =>
    subject
      ? i18next.t('kit:offline.rejectedOn', { label, subject, message })
      : i18next.t('kit:offline.rejected', { label, message }),
  /** A sentence, then what the person wrote with an action that was not applied (a closing note), to pass on. */
  withNote: (text: string, note: string) =>
    i18next.t('kit:offline.withNote', { text: text.replace(/\.\s*$/, ''), note }),
  retrying: (message: string) => i18next.t('kit:offline.retrying', { message }),
  get signInToSend() {
    return i18next.t('kit:offline.signInToSend');
  },
};
