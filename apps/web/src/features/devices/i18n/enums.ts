// Enumeration values of devices and their jobs in the reader's language (`devices:enums.<group>.<value>`); a
// value the catalog does not know reads as before.
import i18next from 'i18next';
import { enumText, textOf } from '@careplane/shared/common/record-labels';

type EnumGroup = 'role' | 'jobStatus';

export function deviceEnum(group: EnumGroup, value: unknown): string {
  const text = group === 'jobStatus' ? textOf(value) : enumText(value);
  const key = `devices:enums.${group}.${textOf(value)}`;
  return text && i18next.exists(key) ? (i18next.t as (key: string) => string)(key) : text;
}
