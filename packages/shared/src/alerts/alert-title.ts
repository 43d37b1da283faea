// What an alert is about, in the words of a care team: "Fall detected", "Heart rate 31 /min, below 40". Derived
// from the alert's data only (the reading, its data type, value and unit, and the bound it crossed), so the
// server, the console and any integration name an alert the same way. Decision 038. In Thai too: the title is
// told from the data when it is read, in the reader's language; the server stores the English one in
// `data.title` for readers without a language (decision 048).
import type { Language } from '../i18n/language-tags.ts';
import {
  amountText,
  dataTypeLabel,
  eventTitle,
  isRecord,
  measureOf,
  numberOf,
  shown,
  text,
} from '../iot/reading-text.ts';

/** The longest title; a longer message is cut with an ellipsis. */
export const MAX_ALERT_TITLE = 120;
const bounded = (title: string) =>
  title.length > MAX_ALERT_TITLE ? `${title.slice(0, MAX_ALERT_TITLE - 1).trimEnd()}…` : title;

/** The words of a title, per language. */
const words = {
  en: {
    below: (min: string) => `below ${min}`,
    above: (max: string) => `above ${max}`,
    outOfRange: 'out of range',
    measured: (label: string, amount: string, bound: string) => `${label} ${amount}, ${bound}`,
    bounded: (label: string, bound: string) => `${label} ${bound}`,
    outOfBounds: (label: string) => `${label} out of bounds`,
    reading: 'Reading',
    bloodPressure: (sys: string, dias: string, which: 'systolic' | 'diastolic', bound: string) =>
      `Blood pressure ${sys}/${dias} mmHg, ${which} ${bound}`,
    fromTeam: 'Alert from the care team',
    typeAlert: (label: string) => `${label} alert`,
    fromDevice: 'Alert from the device',
    alert: 'Alert',
    readingsOut: (count: number) => `${count} readings out of bounds`,
    readingOut: 'A reading out of bounds',
    raisedByDevice: 'Raised by the device',
    raisedTimes: (count: number) => `Raised by the device ${count} times`,
    sentByTeam: 'Sent by the care team',
    sentBy: (name: string) => `Sent by ${name}`,
  },
  th: {
    below: (min: string) => `ต่ำกว่า ${min}`,
    above: (max: string) => `สูงกว่า ${max}`,
    outOfRange: 'อยู่นอกช่วงที่กำหนด',
    measured: (label: string, amount: string, bound: string) => `${label} ${amount} ${bound}`,
    bounded: (label: string, bound: string) => `${label}${bound}`,
    outOfBounds: (label: string) => `${label}อยู่นอกเกณฑ์`,
    reading: 'ค่าที่วัดได้',
    bloodPressure: (sys: string, dias: string, which: 'systolic' | 'diastolic', bound: string) =>
      `ความดันโลหิต ${sys}/${dias} mmHg ค่า${which === 'systolic' ? 'ตัวบน' : 'ตัวล่าง'}${bound}`,
    fromTeam: 'การแจ้งเตือนจากทีมดูแล',
    typeAlert: (label: string) => `การแจ้งเตือน${label}`,
    fromDevice: 'การแจ้งเตือนจากอุปกรณ์',
    alert: 'การแจ้งเตือน',
    readingsOut: (count: number) => `ค่าที่วัดได้ ${count} ครั้งอยู่นอกเกณฑ์`,
    readingOut: 'ค่าที่วัดได้อยู่นอกเกณฑ์',
    raisedByDevice: 'แจ้งโดยอุปกรณ์',
    raisedTimes: (count: number) => `แจ้งโดยอุปกรณ์ ${count} ครั้ง`,
    sentByTeam: 'ส่งโดยทีมดูแล',
    sentBy: (name: string) => `ส่งโดย ${name}`,
  },
} satisfies Record<Language, unknown>;

/** "Heart rate 31 /min, below 40" from one field of `data.fields` (an out-of-bounds alert). */
function breachTitle(
  dataType: string,
  field: string,
  breach: Record<string, unknown>,
  reading: unknown,
  language: Language,
) {
  const say = words[language];
  const min = numberOf(breach.min);
  const max = numberOf(breach.max);
  const lowest = numberOf(breach.lowest);
  const highest = numberOf(breach.highest);
  const below = min !== undefined && lowest !== undefined && lowest < min;
  const value = below ? lowest : (highest ?? lowest);
  const measure = measureOf(dataType, field);
  const label = measure.label[language];
  // Temperatures are compared in °C whatever the reading's unit, and the values kept are in °C too.
  const readingUnit = isRecord(reading) ? text(reading.unit) : '';
  const unit = dataType === 'temperature' ? '°C' : readingUnit || measure.unit;
  const bound = below ? say.below(shown(min)) : max !== undefined ? say.above(shown(max)) : say.outOfRange;
  if (value === undefined) return { title: say.bounded(label, bound), bound };
  return { title: say.measured(label, amountText(value, unit, language), bound), bound };
}

function outOfBoundsTitle(data: Record<string, unknown>, language: Language) {
  const say = words[language];
  const dataType = text(data.dataType);
  const fields = isRecord(data.fields) ? Object.entries(data.fields).filter(([, v]) => isRecord(v)) : [];
  const [first] = fields;
  if (!first) return say.outOfBounds(dataTypeLabel(dataType, language) || say.reading);
  const { title, bound } = breachTitle(
    dataType,
    first[0],
    first[1] as Record<string, unknown>,
    data.reading,
    language,
  );
  if (dataType === 'blood_pressure' && isRecord(data.reading)) {
    const sys = numberOf(data.reading.sys);
    const dias = numberOf(data.reading.dias);
    if (sys !== undefined && dias !== undefined) {
      return say.bloodPressure(
        shown(sys),
        shown(dias),
        first[0] === 'dias' ? 'diastolic' : 'systolic',
        bound,
      );
    }
  }
  return title;
}

/**
 * The title of an alert, from its data, in a language (English by default):
 * - a reading outside its bounds (`reason: out_of_bounds`): the quantity, its value and unit, and the bound;
 * - an alert reading (`reason: alert_reading`): the event it reports ("Fall detected"), else its message;
 * - an alert written by hand (`message`), or an event described in the data itself (`type`);
 * - otherwise the data type, and at the very least "Alert".
 * Words a person wrote (a message, a note) stay as written.
 */
export function alertTitle(
  alert: { data: Record<string, unknown> | null | undefined },
  language: Language = 'en',
): string {
  const say = words[language];
  const data = isRecord(alert.data) ? alert.data : {};
  const reason = text(data.reason);
  if (reason === 'out_of_bounds') return bounded(outOfBoundsTitle(data, language));
  if (reason === 'alert_reading' && isRecord(data.reading)) {
    const title = eventTitle(data.reading, language);
    if (title) return bounded(title);
  }
  const manual = data.kind === 'manual' || data.type === 'manual';
  if (manual) return bounded(text(data.message) || say.fromTeam);
  const event = eventTitle(data, language);
  if (event) return bounded(event);
  // The title the server stored (its English for this data) is told anew; one a person wrote stays as written.
  const stored = text(data.title);
  const told = stored && language !== 'en' && stored === alertTitle({ data: { ...data, title: undefined } });
  const written = (told ? '' : stored) || text(data.note);
  if (written) return bounded(written);
  const dataType = text(data.dataType);
  if (dataType && dataType !== 'alert') return say.typeAlert(dataTypeLabel(dataType, language));
  if (reason === 'alert_reading') return say.fromDevice;
  return say.alert;
}

/**
 * How an alert was opened, for a line under its title; a manual one names who sent it when the reader may know
 * (`sender`), else the care team.
 */
export function alertOrigin(
  alert: { data: Record<string, unknown> | null | undefined },
  language: Language = 'en',
  sender?: string,
): string {
  const say = words[language];
  const data = isRecord(alert.data) ? alert.data : {};
  const reason = text(data.reason);
  if (reason === 'out_of_bounds') {
    const count = numberOf(data.count) ?? 1;
    return count > 1 ? say.readingsOut(count) : say.readingOut;
  }
  if (reason === 'alert_reading') {
    // A burst of the same event in one batch is one alert that counts them.
    const count = numberOf(data.count) ?? 1;
    return count > 1 ? say.raisedTimes(count) : say.raisedByDevice;
  }
  if (data.kind === 'manual' || data.type === 'manual') return sender ? say.sentBy(sender) : say.sentByTeam;
  return '';
}
