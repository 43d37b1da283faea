// How Mantine's date pickers write dates, in the console's language: spec §9's DD.MM.YYYY (with HH:mm for a
// moment), and in Thai the year in the Buddhist era (2026 → 2569) as every other date on screen
// (shared/common/formats.ts, decision 047): the field's text, the calendar's month and year headings, the years
// of a decade and the decade itself. Only what is shown changes: the pickers' values, and what is sent to the
// server, stay common-era dates.
import type { CalendarAriaLabels, DateFormatter } from '@mantine/dates';
import i18next from 'i18next';
import type { Language } from '@careplane/shared/i18n/language-tags';

/** The Thai solar calendar counts from 543 BCE. */
const BUDDHIST_ERA_OFFSET = 543;

/** The pickers' dates are strings, `YYYY-MM-DD` or `YYYY-MM-DD HH:mm:ss`. */
type PickerDate = string;

const partsOf = (date: PickerDate) => {
  const [year = '', month = '', day = ''] = date.slice(0, 10).split('-');
  return { year: Number(year), month, day, time: date.slice(11, 16) };
};
const buddhistYear = (date: PickerDate) => String(partsOf(date).year + BUDDHIST_ERA_OFFSET);

// th-TH's calendar is the Buddhist one: "มกราคม 2569".
const thaiMonthAndYear = new Intl.DateTimeFormat('th-TH', { month: 'long', year: 'numeric' });

export interface DatePickerFormats {
  valueFormat: string | ((date: PickerDate) => string);
  monthLabelFormat?: (date: PickerDate) => string;
  yearLabelFormat?: (date: PickerDate) => string;
  yearsListFormat?: (date: PickerDate) => string;
  decadeLabelFormat?: (start: PickerDate, end: PickerDate) => string;
  /** The calendar's own buttons named (the arrows had no name for a screen reader). */
  ariaLabels: CalendarAriaLabels;
}

const calendarButtons = (): CalendarAriaLabels => ({
  previousMonth: i18next.t('kit:calendar.previousMonth'),
  nextMonth: i18next.t('kit:calendar.nextMonth'),
  previousYear: i18next.t('kit:calendar.previousYear'),
  nextYear: i18next.t('kit:calendar.nextYear'),
  previousDecade: i18next.t('kit:calendar.previousDecade'),
  nextDecade: i18next.t('kit:calendar.nextDecade'),
  monthLevelControl: i18next.t('kit:calendar.chooseMonth'),
  yearLevelControl: i18next.t('kit:calendar.chooseYear'),
});

/** The formats of a date picker (`withTime`: a date and time picker), as props of Mantine's pickers. */
export function datePickerFormats(language: Language, withTime = false): DatePickerFormats {
  const ariaLabels = calendarButtons();
  if (language !== 'th') return { valueFormat: withTime ? 'DD.MM.YYYY HH:mm' : 'DD.MM.YYYY', ariaLabels };
  return {
    ariaLabels,
    valueFormat: (date) => {
      const { month, day, time } = partsOf(date);
      const text = `${day}.${month}.${buddhistYear(date)}`;
      return withTime && time ? `${text} ${time}` : text;
    },
    monthLabelFormat: (date) => {
      const { year, month } = partsOf(date);
      return thaiMonthAndYear.format(new Date(year, Number(month) - 1, 1));
    },
    yearLabelFormat: buddhistYear,
    yearsListFormat: buddhistYear,
    decadeLabelFormat: (start, end) => `${buddhistYear(start)} – ${buddhistYear(end)}`,
  };
}

/** A picker's value as `YYYY-MM-DD`: pickers hold strings, a Date is read in local time. */
function pickerDateOf(value: unknown): PickerDate | null {
  if (typeof value === 'string') return value || null;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}

/**
 * The formats of a picker input that holds one or more dates (Mantine's DatePickerInput, whose value format
 * is a string): in Thai a formatter writes each date with its Buddhist-era year.
 */
export function datePickerInputFormats(
  language: Language,
): Omit<DatePickerFormats, 'valueFormat'> & { valueFormat: string; valueFormatter?: DateFormatter } {
  const { valueFormat, ...calendar } = datePickerFormats(language);
  if (typeof valueFormat === 'string') return { valueFormat, ...calendar };
  const one = (value: unknown) => {
    const date = pickerDateOf(value);
    return date ? valueFormat(date) : '';
  };
  return {
    ...calendar,
    valueFormat: 'DD.MM.YYYY',
    valueFormatter: ({ type, date, labelSeparator }) => {
      if (type === 'range' && Array.isArray(date)) {
        const [start, end] = date.map(one);
        return start ? `${start} ${labelSeparator} ${end ?? ''}`.trimEnd() : '';
      }
      if (type === 'multiple' && Array.isArray(date)) return date.map(one).filter(Boolean).join(', ');
      return one(date);
    },
  };
}

/**
 * A year as typed into a date field: in Thai a year past 2400 is a Buddhist-era year (what the field shows),
 * counted back to the common era; any other year is taken as written.
 */
export const typedYear = (year: number, language: Language): number =>
  language === 'th' && year > 2400 ? year - BUDDHIST_ERA_OFFSET : year;
