// Enumeration values of IoT devices in the reader's language (`iot:enums.<group>.<value>`); a value the
// catalog does not know reads as words, as before.
import i18next from 'i18next';
import { enumText, textOf } from '@careplane/shared/common/record-labels';

type EnumGroup = 'connectionType' | 'trustLevel' | 'dataType';

export function iotEnum(group: EnumGroup, value: unknown): string {
  const text = enumText(value);
  const key = `iot:enums.${group}.${textOf(value)}`;
  return text && i18next.exists(key) ? (i18next.t as (key: string) => string)(key) : text;
}
