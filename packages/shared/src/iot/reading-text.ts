// A reading in the words of a care team: "Heart rate 72 /min", "Blood pressure 128/82 mmHg", "Battery 40%",
// "Fall detected", in English or Thai. The vocabulary (what each data type measures, in which unit, what an
// alert reading reports) is the one alert titles speak too (alerts/alert-title.ts), so a reading and the alert
// it raised name the quantity alike.
import { alertSeverities } from '../common/enums.ts';
import { enumWord } from '../i18n/enum-texts.ts';
import type { Language } from '../i18n/language-tags.ts';

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
export const numberOf = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** A number as a care team reads it: at most one decimal. */
export const shown = (value: number) => String(Math.round(value * 10) / 10);

/** "heart_rate" → "Heart rate", "SPO2" stays. */
export const sentence = (raw: string) => {
  const words = raw.replaceAll(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : '';
};

export interface Measure {
  /** How a reading or an alert names it, per language. */
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

/** A unit as the reader's language writes it ("/min" is "ครั้ง/นาที" in Thai). */
export const unitText = (unit: string, language: Language) =>
  language === 'th' && unit === '/min' ? 'ครั้ง/นาที' : unit;

/** "72 /min", "40%", "36.8 °C": a value and its unit. */
export const amountText = (value: number, unit: string, language: Language) => {
  const said = unitText(unit, language);
  return said === '%' ? `${shown(value)}%` : `${shown(value)}${said ? ` ${said}` : ''}`;
};

/** What a data type is called: "Heart rate", "Blood pressure". */
export const dataTypeLabel = (dataType: string, language: Language) => {
  if (dataType === 'blood_pressure') return language === 'th' ? 'ความดันโลหิต' : 'Blood pressure';
  return Object.values(measures[dataType] ?? {})[0]?.label[language] ?? sentence(dataType);
};

/** What one field of a data type measures, and in which unit. */
export function measureOf(dataType: string, field: string): Measure {
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

/** What an alert reading (an event a device raised) reports, by its `type`. */
const eventTitles: Record<string, Record<Language, string>> = {
  fall: { en: 'Fall detected', th: 'ตรวจพบการหกล้ม' },
  fall_detected: { en: 'Fall detected', th: 'ตรวจพบการหกล้ม' },
  panic_button: { en: 'Alarm button pressed', th: 'มีการกดปุ่มขอความช่วยเหลือ' },
  sos: { en: 'Alarm button pressed', th: 'มีการกดปุ่มขอความช่วยเหลือ' },
  sos_button: { en: 'Alarm button pressed', th: 'มีการกดปุ่มขอความช่วยเหลือ' },
  device_removed: { en: 'Device taken off', th: 'ถอดอุปกรณ์ออกจากตัว' },
  low_battery: { en: 'Battery low', th: 'แบตเตอรี่ใกล้หมด' },
  heart_rate_high: { en: 'Heart rate high', th: 'ชีพจรสูง' },
  heart_rate_low: { en: 'Heart rate low', th: 'ชีพจรต่ำ' },
  temperature_high: { en: 'Temperature high', th: 'อุณหภูมิสูง' },
  temperature_low: { en: 'Temperature low', th: 'อุณหภูมิต่ำ' },
  device_offline: { en: 'Device offline', th: 'อุปกรณ์ขาดการเชื่อมต่อ' },
  no_movement: { en: 'No movement', th: 'ไม่พบการเคลื่อนไหว' },
  wandering: { en: 'Left the safe area', th: 'ออกนอกพื้นที่ปลอดภัย' },
};

/**
 * The kind of event an alert reading reports, as the device names it: its `type`, or `kind` as some devices
 * write it; lower case, '' when it names none. (It tells events apart; a title is told from `type` alone, as a
 * `kind` may be anything a device or a person chose.)
 */
export function eventType(event: Record<string, unknown>) {
  return (text(event.type) || text(event.kind)).trim().toLowerCase();
}

/** The event an alert reading reports ("Fall detected"), else its type in words, else its message. */
export function eventTitle(event: Record<string, unknown>, language: Language) {
  const type = text(event.type).toLowerCase();
  return eventTitles[type]?.[language] ?? (sentence(type) || text(event.message));
}

/** Fields that say when and which, never what was measured. */
const bookkeeping = new Set(['timestamp', 'id', 'unit', 'type', 'message']);

/**
 * Fields that are no measurement but that devices send often beside one, with words for them and for their usual
 * values: an alarm's "severity": "high" reads "ระดับความรุนแรง สูง" in Thai, not "Severity high". An alert's own
 * severities (info, warning, critical) read as the alerts say them (enum-texts).
 */
const fieldWords: Record<
  string,
  { label: Record<Language, string>; value: (value: string, language: Language) => string | undefined }
> = {
  severity: {
    label: { en: 'Severity', th: 'ระดับความรุนแรง' },
    value: (value, language) =>
      (alertSeverities as readonly string[]).includes(value)
        ? enumWord('alertSeverity', value, language)
        : severityWords[value]?.[language],
  },
};
const severityWords: Record<string, Record<Language, string>> = {
  low: { en: 'low', th: 'ต่ำ' },
  medium: { en: 'medium', th: 'ปานกลาง' },
  moderate: { en: 'moderate', th: 'ปานกลาง' },
  high: { en: 'high', th: 'สูง' },
};

/**
 * The fields of a reading this vocabulary has no measure for: "Steps 5,200, Posture lying", by their names unless
 * there are words for them.
 */
function otherFields(data: Record<string, unknown>, known: readonly string[], language: Language) {
  return Object.entries(data)
    .filter(([field, value]) => !bookkeeping.has(field) && !known.includes(field) && value !== null)
    .map(([field, value]) => {
      const words = fieldWords[field];
      const said =
        typeof value === 'number'
          ? shown(value)
          : typeof value === 'string'
            ? (words?.value(value.toLowerCase(), language) ?? value)
            : JSON.stringify(value);
      return `${words?.label[language] ?? sentence(field)} ${said}`;
    });
}

/** The unit a reading gives for itself, as people write it: "C" → "°C". */
function readingUnit(data: Record<string, unknown>, fallback: string) {
  const unit = text(data.unit);
  if (!unit) return fallback;
  return /^[CF]$/i.test(unit) ? `°${unit.toUpperCase()}` : unit;
}

/**
 * The unit readings of a data type's field are written in, in a language: the one a reading gives for itself
 * (as people write it), else the quantity's own ("/min" for a heart rate, "ครั้ง/นาที" in Thai).
 */
export function unitOf(
  dataType: string,
  field: string,
  reading: Record<string, unknown> | null | undefined,
  language: Language,
) {
  return unitText(readingUnit(isRecord(reading) ? reading : {}, measureOf(dataType, field).unit), language);
}

const says = {
  en: { fromDevice: 'Alert from the device', reading: 'Reading' },
  th: { fromDevice: 'การแจ้งเตือนจากอุปกรณ์', reading: 'ค่าที่วัดได้' },
} satisfies Record<Language, unknown>;

/**
 * A reading of a data type as a sentence, in a language (English by default). The time and id it carries are
 * left out (a reading's time is shown beside it); fields the vocabulary does not know follow by their names.
 */
export function readingText(
  dataType: string,
  data: Record<string, unknown> | null | undefined,
  language: Language = 'en',
): string {
  const reading = isRecord(data) ? data : {};
  const parts: string[] = [];
  const known: string[] = [];
  if (dataType === 'alert') {
    const title = eventTitle(reading, language) || says[language].fromDevice;
    const message = text(reading.message);
    parts.push(message && message !== title ? `${title}: ${message}` : title);
  } else if (dataType === 'blood_pressure') {
    const sys = numberOf(reading.sys);
    const dias = numberOf(reading.dias);
    if (sys !== undefined && dias !== undefined) {
      parts.push(`${dataTypeLabel(dataType, language)} ${shown(sys)}/${shown(dias)} mmHg`);
      known.push('sys', 'dias');
    }
  } else {
    for (const [field, measure] of Object.entries(measures[dataType] ?? {})) {
      const value = numberOf(reading[field]);
      if (value === undefined || known.length) continue;
      parts.push(
        `${measure.label[language]} ${amountText(value, readingUnit(reading, measure.unit), language)}`,
      );
      known.push(field);
    }
  }
  parts.push(...otherFields(reading, known, language));
  return parts.join(', ') || `${dataTypeLabel(dataType, language) || says[language].reading}`;
}
