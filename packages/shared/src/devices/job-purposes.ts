// The purposes the server writes on a job itself: the specification's default for a job created without one, and
// the care team's two actions. They are stored in English, as the specification words the default; the console
// shows them in the reader's language (apps/web/src/lib/i18n/job-purpose.ts). A purpose a person wrote is shown
// as written.
import { DEFAULT_JOB_PURPOSE } from '../common/enums.ts';

export const CARE_TEAM_ALERT_PURPOSE = 'Alert sent to the user by the care team';
export const CARE_TEAM_REBOOT_PURPOSE = "Reboot of the user's device requested by the care team";

/** Each purpose the server writes, by the name the console's catalogs give its words. */
export const serverJobPurposes = {
  [DEFAULT_JOB_PURPOSE]: 'none',
  [CARE_TEAM_ALERT_PURPOSE]: 'careTeamAlert',
  [CARE_TEAM_REBOOT_PURPOSE]: 'careTeamReboot',
} as const;
export type ServerJobPurpose = (typeof serverJobPurposes)[keyof typeof serverJobPurposes];
