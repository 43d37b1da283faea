// What an alert is about, in the words of a care team: "Fall detected", "Heart rate 31 /min, below 40". Derived
// from the alert's data only (the reading, its data type, value and unit, and the bound it crossed), so the
// server, the console and any integration name an alert the same way. Decision 038. In Thai too: the title is
// told from the data when it is read, in the reader's language; the server stores the English one in
// `data.title` for readers without a language (decision 048).
import type { Language } from '../i18n/language-tags.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const numberOf = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** A number as a care team reads it: at most one decimal. */
const shown = (value: number) => String(Math.round(value * 10) / 10);

/** The longest title; a longer message is cut with an ellipsis. */
export const MAX_ALERT_TITLE = 120;
const bounded = (title: string) =>
  title.length > MAX_ALERT_TITLE ? `${title.slice(0, MAX_ALERT_TITLE - 1).trimEnd()}…` : title;

/** "heart_rate" → "Heart rate", "SPO2" stays. */
const sentence = (raw: string) => {
  const words = raw.replaceAll(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : '';
};

interface Measure {
  /** How the title names it, per language. */
  label: Record<Language, string>;
  /** The unit when the reading names none. */
  unit: string;
}

const m = (en: string, th: string, unit: string): Measure => ({ label: { en, th }, unit });

/** The measured quantities of each data type and field (the bounds' field names, decision 038). */
const measures: Record<string, Record<string, Measure>> = {
  heart_rate: { rate: m('Heart rate', 'ชีพจร', '/min') },
  temperature: { value: m('Temperature', 'อุณหภูมิ', '°C') },
  battery: { level: m('Battery', 'แบตเตอรี่', '%') },
  pressure: { value: m('Pressure', 'ความดัน', '') },
  blood_pressure: {
    sys: m('Systolic blood pressure', 'ความดันโลหิตตัวบน', 'mmHg'),
    dias: m('Diastolic blood pressure', 'ความดันโลหิตตัวล่าง', 'mmHg'),
  },
  spo2: { value: m('SpO2', 'SpO2', '%'), level: m('SpO2', 'SpO2', '%') },
  oxygen_saturation: { value: m('SpO2', 'SpO2', '%'), level: m('SpO2', 'SpO2', '%') },
};

/** The words of a title, per language. */
const words = {
  en: {
    below: (min: string) => `below ${min}`,
    above: (max: string) => `above ${max}`,
    outOfRange: 'out of range',
    unit: (unit: string) => unit,
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
    sentByTeam: 'Sent by the care team',
  },
  th: {
    below: (min: string) => `ต่ำกว่า ${min}`,
    above: (max: string) => `สูงกว่า ${max}`,
    outOfRange: 'อยู่นอกช่วงที่กำหนด',
    unit: (unit: string) => (unit === '/min' ? 'ครั้ง/นาที' : unit),
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
    sentByTeam: 'ส่งโดยทีมดูแล',
  },
} satisfies Record<Language, unknown>;

/** What an alert reading (an event a device raised) reports, by its `type`. */
const eventTitles: Record<string, Record<Language, string>> = {
  fall: { en: 'Fall detected', th: 'ตรวจพบการหกล้ม' },
  fall_detected: { en: 'Fall detected', th: 'ตรวจพบการหกล้ม' },
  panic_button: { en: 'Alarm button pressed', th: 'มีการกดปุ่มขอความช่วยเหลือ' },
  sos: { en: 'Alarm button pressed', th: 'มีการกดปุ่มขอความช่วยเหลือ' },
  low_battery: { en: 'Battery low', th: 'แบตเตอรี่ใกล้หมด' },
  heart_rate_high: { en: 'Heart rate high', th: 'ชีพจรสูง' },
  heart_rate_low: { en: 'Heart rate low', th: 'ชีพจรต่ำ' },
  temperature_high: { en: 'Temperature high', th: 'อุณหภูมิสูง' },
  temperature_low: { en: 'Temperature low', th: 'อุณหภูมิต่ำ' },
  device_offline: { en: 'Device offline', th: 'อุปกรณ์ขาดการเชื่อมต่อ' },
  no_movement: { en: 'No movement', th: 'ไม่พบการเคลื่อนไหว' },
  wandering: { en: 'Left the safe area', th: 'ออกนอกพื้นที่ปลอดภัย' },
};

const dataTypeLabel = (dataType: string, language: Language) => {
  if (dataType === 'blood_pressure') return language === 'th' ? 'ความดันโลหิต' : 'Blood pressure';
  return Object.values(measures[dataType] ?? {})[0]?.label[language] ?? sentence(dataType);
};

function measureOf(dataType: string, field: string): Measure {
  return (
    measures[dataType]?.[field] ?? {
      label: {
        en: `${dataTypeLabel(dataType, 'en')} ${field.replaceAll('_', ' ')}`.trim(),
        th: `${dataTypeLabel(dataType, 'th')} ${field.replaceAll('_', ' ')}`.trim(),
      },
      unit: '',
    }
  );
}

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
  const unit = say.unit(dataType === 'temperature' ? '°C' : readingUnit || measure.unit);
  const bound = below ? say.below(shown(min)) : max !== undefined ? say.above(shown(max)) : say.outOfRange;
  if (value === undefined) return { title: say.bounded(label, bound), bound };
  const amount = unit === '%' ? `${shown(value)}%` : `${shown(value)}${unit ? ` ${unit}` : ''}`;
  return { title: say.measured(label, amount, bound), bound };
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

function eventTitle(event: Record<string, unknown>, language: Language) {
  const type = text(event.type).toLowerCase();
  return eventTitles[type]?.[language] ?? (sentence(type) || text(event.message));
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

/** How an alert was opened, for a line under its title. */
export function alertOrigin(
  alert: { data: Record<string, unknown> | null | undefined },
  language: Language = 'en',
): string {
  const say = words[language];
  const data = isRecord(alert.data) ? alert.data : {};
  const reason = text(data.reason);
  if (reason === 'out_of_bounds') {
    const count = numberOf(data.count) ?? 1;
    return count > 1 ? say.readingsOut(count) : say.readingOut;
  }
  if (reason === 'alert_reading') return say.raisedByDevice;
  if (data.kind === 'manual' || data.type === 'manual') return say.sentByTeam;
  return '';
}
