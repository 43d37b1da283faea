// Enumeration values as people read them, in the language shown: one table for every screen that shows them
// and for the server's CSV exports (packages/shared/src/i18n/enum-texts.ts); the raw value stays in URLs,
// filters and exports' queries. Call from a component that uses useTranslation, so it re-renders when the
// language changes.
import { enumWord, type EnumGroup } from '@careplane/shared/i18n/enum-texts';
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import { currentLanguage } from './language.ts';

/** One value of an enumeration in the language shown; a value the table does not know reads as words. */
export const enumLabel = (group: EnumGroup, value: unknown): string =>
  enumWord(group, value, currentLanguage());

/** A prescription's status as a heading or badge shows it: `Picked up`, in Thai `รับยาแล้ว`. */
export function prescriptionStatusLabel(status: PrescriptionStatus): string {
  const word = enumLabel('prescriptionStatus', status);
  return word.charAt(0).toUpperCase() + word.slice(1);
}
