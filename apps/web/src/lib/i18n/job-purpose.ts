// A job's purpose in the language shown: one the server wrote itself for the care team's actions
// (packages/shared/src/devices/job-purposes.ts) in the reader's words; one a person wrote, and the specification's
// default, as written. Call from a
// component that uses useTranslation, so it re-renders when the language changes.
import i18next from 'i18next';
import { serverJobPurposes } from '@careplane/shared/devices/job-purposes';

export function jobPurposeText(purpose: string): string {
  const known = Object.hasOwn(serverJobPurposes, purpose)
    ? serverJobPurposes[purpose as keyof typeof serverJobPurposes]
    : undefined;
  return known ? i18next.t(`kit:jobPurpose.${known}`) : purpose;
}
