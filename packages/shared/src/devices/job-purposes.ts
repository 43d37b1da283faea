// The purposes the server writes on a job itself for the care team's two actions. They are stored in English; the
// console shows them in the reader's language (apps/web/src/lib/i18n/job-purpose.ts). A purpose a person wrote is
// shown as written, and so is the specification's default for a job created without one (DEFAULT_JOB_PURPOSE):
// the texts the specification quotes stay in its words in every language (lib/i18n/spec-texts.ts).

export const CARE_TEAM_ALERT_PURPOSE = 'Alert sent to the user by the care team';
export const CARE_TEAM_REBOOT_PURPOSE = "Reboot of the user's device requested by the care team";

/** Each purpose the server writes, by the name the console's catalogs give its words. */
export const serverJobPurposes = {
  [CARE_TEAM_ALERT_PURPOSE]: 'careTeamAlert',
  [CARE_TEAM_REBOOT_PURPOSE]: 'careTeamReboot',
} as const;
export type ServerJobPurpose = (typeof serverJobPurposes)[keyof typeof serverJobPurposes];
