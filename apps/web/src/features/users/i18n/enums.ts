// Enumeration values of users and patients in the reader's language (`users:enums.<group>.<value>`); a value
// the catalog does not know reads as words, as before.
import i18next from 'i18next';
import { enumText, textOf } from '@careplane/shared/common/record-labels';

type EnumGroup = 'role' | 'patientStatus' | 'registrationStatus' | 'gender' | 'identityDocumentType';

export function userEnum(group: EnumGroup, value: unknown): string {
  const text = enumText(value);
  const key = `users:enums.${group}.${textOf(value)}`;
  return text && i18next.exists(key) ? (i18next.t as (key: string) => string)(key) : text;
}
