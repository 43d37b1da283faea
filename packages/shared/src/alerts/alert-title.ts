// What an alert is about, in the words of a care team: "Fall detected", "Heart rate 31 /min, below 40". Derived
// from the alert's data only (the reading, its data type, value and unit, and the bound it crossed), so the
// server, the console and any integration name an alert the same way. Decision 038.

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
  /** How the title names it. */
  label: string;
  /** The unit when the reading names none. */
  unit: string;
}

/** The measured quantities of each data type and field (the bounds' field names, decision 038). */
const measures: Record<string, Record<string, Measure>> = {
  heart_rate: { rate: { label: 'Heart rate', unit: '/min' } },
  temperature: { value: { label: 'Temperature', unit: '°C' } },
  battery: { level: { label: 'Battery', unit: '%' } },
  pressure: { value: { label: 'Pressure', unit: '' } },
  blood_pressure: {
    sys: { label: 'Systolic blood pressure', unit: 'mmHg' },
    dias: { label: 'Diastolic blood pressure', unit: 'mmHg' },
  },
  spo2: { value: { label: 'SpO2', unit: '%' }, level: { label: 'SpO2', unit: '%' } },
  oxygen_saturation: { value: { label: 'SpO2', unit: '%' }, level: { label: 'SpO2', unit: '%' } },
};

/** What an alert reading (an event a device raised) reports, by its `type`. */
const eventTitles: Record<string, string> = {
  fall: 'Fall detected',
  fall_detected: 'Fall detected',
  panic_button: 'Alarm button pressed',
  sos: 'Alarm button pressed',
  low_battery: 'Battery low',
  heart_rate_high: 'Heart rate high',
  heart_rate_low: 'Heart rate low',
  temperature_high: 'Temperature high',
  temperature_low: 'Temperature low',
  device_offline: 'Device offline',
  no_movement: 'No movement',
  wandering: 'Left the safe area',
};

const dataTypeLabel = (dataType: string) =>
  Object.values(measures[dataType] ?? {})[0]?.label.replace(/^Systolic b/, 'B') ?? sentence(dataType);

function measureOf(dataType: string, field: string): Measure {
  return (
    measures[dataType]?.[field] ?? {
      label: `${dataTypeLabel(dataType)} ${field.replaceAll('_', ' ')}`.trim(),
      unit: '',
    }
  );
}

/** "Heart rate 31 /min, below 40" from one field of `data.fields` (an out-of-bounds alert). */
function breachTitle(dataType: string, field: string, breach: Record<string, unknown>, reading: unknown) {
  const min = numberOf(breach.min);
  const max = numberOf(breach.max);
  const lowest = numberOf(breach.lowest);
  const highest = numberOf(breach.highest);
  const below = min !== undefined && lowest !== undefined && lowest < min;
  const value = below ? lowest : (highest ?? lowest);
  const measure = measureOf(dataType, field);
  // Temperatures are compared in °C whatever the reading's unit, and the values kept are in °C too.
  const readingUnit = isRecord(reading) ? text(reading.unit) : '';
  const unit = dataType === 'temperature' ? '°C' : readingUnit || measure.unit;
  const bound = below ? `below ${shown(min)}` : max !== undefined ? `above ${shown(max)}` : 'out of range';
  if (value === undefined) return `${measure.label} ${bound}`;
  const amount = unit === '%' ? `${shown(value)}%` : `${shown(value)}${unit ? ` ${unit}` : ''}`;
  return `${measure.label} ${amount}, ${bound}`;
}

function outOfBoundsTitle(data: Record<string, unknown>) {
  const dataType = text(data.dataType);
  const fields = isRecord(data.fields) ? Object.entries(data.fields).filter(([, v]) => isRecord(v)) : [];
  const [first] = fields;
  if (!first) return `${dataTypeLabel(dataType) || 'Reading'} out of bounds`;
  const title = breachTitle(dataType, first[0], first[1] as Record<string, unknown>, data.reading);
  if (dataType === 'blood_pressure' && isRecord(data.reading)) {
    const sys = numberOf(data.reading.sys);
    const dias = numberOf(data.reading.dias);
    if (sys !== undefined && dias !== undefined) {
      const which = first[0] === 'dias' ? 'diastolic' : 'systolic';
      return `Blood pressure ${shown(sys)}/${shown(dias)} mmHg, ${which} ${title.split(', ').at(-1)}`;
    }
  }
  return title;
}

function eventTitle(event: Record<string, unknown>) {
  const type = text(event.type).toLowerCase();
  return eventTitles[type] ?? (sentence(type) || text(event.message));
}

/**
 * The title of an alert, from its data:
 * - a reading outside its bounds (`reason: out_of_bounds`): the quantity, its value and unit, and the bound;
 * - an alert reading (`reason: alert_reading`): the event it reports ("Fall detected"), else its message;
 * - an alert written by hand (`message`), or an event described in the data itself (`type`);
 * - otherwise the data type, and at the very least "Alert".
 */
export function alertTitle(alert: { data: Record<string, unknown> | null | undefined }): string {
  const data = isRecord(alert.data) ? alert.data : {};
  const reason = text(data.reason);
  if (reason === 'out_of_bounds') return bounded(outOfBoundsTitle(data));
  if (reason === 'alert_reading' && isRecord(data.reading)) {
    const title = eventTitle(data.reading);
    if (title) return bounded(title);
  }
  const manual = data.kind === 'manual' || data.type === 'manual';
  if (manual) return bounded(text(data.message) || 'Alert from the care team');
  const event = eventTitle(data);
  if (event) return bounded(event);
  const written = text(data.title) || text(data.note);
  if (written) return bounded(written);
  const dataType = text(data.dataType);
  if (dataType && dataType !== 'alert') return `${dataTypeLabel(dataType)} alert`;
  if (reason === 'alert_reading') return 'Alert from the device';
  return 'Alert';
}

/** How an alert was opened, for a line under its title. */
export function alertOrigin(alert: { data: Record<string, unknown> | null | undefined }): string {
  const data = isRecord(alert.data) ? alert.data : {};
  const reason = text(data.reason);
  if (reason === 'out_of_bounds') {
    const count = numberOf(data.count) ?? 1;
    return count > 1 ? `${count} readings out of bounds` : 'A reading out of bounds';
  }
  if (reason === 'alert_reading') return 'Raised by the device';
  if (data.kind === 'manual' || data.type === 'manual') return 'Sent by the care team';
  return '';
}
