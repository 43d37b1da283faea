// An action taken on a phone without a network and sent once it is back says how long it was kept, by the phone's
// own clock, which need not agree with the server's: the server records the action's time as its own time less
// that (decision 076 for prescriptions, decision 105 for alerts).
import { z } from 'zod';

/** The longest a phone keeps an action for later: as long as a prescription action's key answers (decision 046). */
export const MAX_KEPT_ACTION_DAYS = 30;
const MAX_KEPT_SECONDS = MAX_KEPT_ACTION_DAYS * 24 * 3600;

/** How long the action was kept before this send, in whole seconds. */
export const keptForSecondsSchema = z.number().int().min(0).max(MAX_KEPT_SECONDS);

/**
 * The seconds from `takenAt` to `now` (milliseconds), as the server accepts them: never negative nor past `most`
 * (the kept actions' longest by default; a call may take less).
 */
export const keptForSecondsSince = (takenAt: number, now = Date.now(), most = MAX_KEPT_SECONDS) =>
  Math.min(Math.max(0, Math.round((now - takenAt) / 1000)), most);
