// The words of a record that depend on the reader's language: enumeration values, Yes and No, dates. List
// columns (common/list-columns.ts) are given one, so the console's table and the server's CSV export write
// the same columns each in its reader's language: English by default, as exports have always been written
// (decision 047). Apart from record-labels.ts, so a page that only names records does not load the Thai words.
import { enumWord, type EnumGroup } from '../i18n/enum-texts.ts';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/language-tags.ts';
import { formatDate, formatDateTime, type DateInput, type FormatStyle } from './formats.ts';

type Maybe<T> = T | null | undefined;

/** The words of records that depend on the reader's language: what list cells and CSV files are written in. */
export interface RecordLabels {
  language: Language;
  /** Yes or No (empty for neither). */
  yesNo: (value: Maybe<boolean>) => string;
  /** One value of an enumeration (common/enums.ts) as words. */
  enumText: (group: EnumGroup, value: unknown) => string;
  /** Several values of one enumeration, comma separated. */
  enumListText: (group: EnumGroup, values: Maybe<readonly unknown[]>) => string;
  /** DD.MM.YYYY. */
  date: (value: Maybe<DateInput>) => string;
  /** DD.MM.YYYY HH:mm with the zone's offset. */
  dateTime: (value: Maybe<DateInput>) => string;
}

const yesNoWords: Record<Language, readonly [yes: string, no: string]> = {
  en: ['Yes', 'No'],
  th: ['ใช่', 'ไม่ใช่'],
};

/**
 * The labels of a language. `dates` is the style dates are written in; without one they follow the formats'
 * default style (the console's language on screen; English and the common era on the server). `timeZone` is
 * the zone dates are read in (the runtime's without one: the browser's on screen, UTC on the server).
 */
export function recordLabels(
  language: Language = DEFAULT_LANGUAGE,
  dates?: FormatStyle,
  timeZone?: string,
): RecordLabels {
  const [yes, no] = yesNoWords[language];
  const enumTextOf = (group: EnumGroup, value: unknown) => enumWord(group, value, language);
  return {
    language,
    yesNo: (value) => (value === true ? yes : value === false ? no : ''),
    enumText: enumTextOf,
    enumListText: (group, values) =>
      (values ?? [])
        .map((value) => enumTextOf(group, value))
        .filter(Boolean)
        .join(', '),
    date: (value) => formatDate(value, timeZone, dates),
    dateTime: (value) => formatDateTime(value, timeZone, dates),
  };
}

/** English labels: the default of every column, and what an export without a language is written in. */
export const englishLabels: RecordLabels = recordLabels(DEFAULT_LANGUAGE);
