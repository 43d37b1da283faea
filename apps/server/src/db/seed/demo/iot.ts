// IoT devices (a full kit for the equipped patients, a wrist band for the other enrolled ones, spares in
// stock), a month of their readings, and alerts: open and closed, from readings and manual.
import { alertTitle } from '@careplane/shared/alerts/alert-title';
import type { IotDataType } from '@careplane/shared/common/enums';
import { boundsBreaches, DEFAULT_READING_BOUNDS } from '@careplane/shared/iot/iot.contract';
import type { iotDeviceData } from '@/db/schema/index.js';
import { DAY, HISTORY, HOUR, MINUTE, buildReadings, type ReadingSeries } from '../demo-series.js';
import { hashString } from '../random.js';
import { iso, type SeedContext } from './context.js';
import type { Devices } from './devices.js';
import type { Person, Population } from './people.js';

interface IotPlan {
  key: string;
  model: string;
  types: IotDataType[];
  connectionType: string;
  patient: Person | null;
  linkedTo: string[];
}

const kit = [
  {
    kind: 'band',
    model: 'CP-HR20 wrist band',
    types: ['heart_rate', 'battery', 'alert'],
    connectionType: 'ble',
  },
  {
    kind: 'cuff',
    model: 'CP-BP200 blood pressure monitor',
    types: ['blood_pressure', 'battery'],
    connectionType: 'ble',
  },
  {
    kind: 'thermometer',
    model: 'CP-T10 thermometer',
    types: ['temperature', 'battery'],
    connectionType: 'wifi',
  },
  { kind: 'mat', model: 'CP-PM3 bed pressure mat', types: ['pressure'], connectionType: 'usb' },
  {
    kind: 'button',
    model: 'CP-SOS1 alarm button',
    types: ['alert', 'battery'],
    connectionType: 'cellular',
  },
] as const;

export function buildIotDevices(
  { seed, seedHash, id, ago, anchor, stamp }: SeedContext,
  { equippedPatients, bandOnlyPatients, deviceId }: Devices,
) {
  const iotPlans: IotPlan[] = [];
  for (const patient of equippedPatients) {
    for (const item of kit) {
      iotPlans.push({
        key: `${item.kind}-${patient.key}`,
        model: item.model,
        types: [...item.types],
        connectionType: item.connectionType,
        patient,
        linkedTo:
          item.kind === 'button'
            ? [`terminal-${patient.key}`, `${patient.region.key}-monitoring`]
            : [`terminal-${patient.key}`],
      });
    }
  }
  for (const patient of bandOnlyPatients) {
    iotPlans.push({
      key: `band-${patient.key}`,
      model: kit[0].model,
      types: ['heart_rate', 'battery', 'alert'],
      connectionType: 'ble',
      patient,
      linkedTo: [`${patient.region.key}-monitoring`],
    });
  }
  for (let index = 1; index <= 3; index++) {
    iotPlans.push({
      key: `spare-${index}`,
      model: kit[index - 1]!.model,
      types: [...kit[index - 1]!.types],
      connectionType: 'unknown',
      patient: null,
      linkedTo: [],
    });
  }
  const iotId = (key: string) => id('iot-device', key);
  const iotRows = iotPlans.map((plan, index) => {
    const hash = hashString(`${seed}:${plan.key}`);
    const mac = [0xa4, 0xc1, 0x38, (hash >>> 16) & 0xff, (hash >>> 8) & 0xff, hash & 0xff]
      .map((byte) => byte.toString(16).padStart(2, '0').toUpperCase())
      .join(':');
    return {
      id: iotId(plan.key),
      hardwareIdentifier: `${mac}-${String(index + 1).padStart(3, '0')}`,
      deviceIdentifier: `SN-${plan.model.split(' ')[0]}-${String(10_000 + index * 37)}`,
      model: plan.model,
      trustLevel: plan.patient ? 'verified' : 'untrusted',
      connectionType: plan.connectionType,
      connectionMeta: plan.patient
        ? { firmwareVersion: `1.${index % 4}.${index % 7}`, pairedWith: plan.linkedTo[0] ?? null }
        : null,
      supportedDataTypes: plan.types,
      allowMultipleDeviceRelationships: plan.linkedTo.length > 1,
      assignedUserId: plan.patient?.id ?? null,
      createdByDeviceId: plan.linkedTo[0] ? deviceId(plan.linkedTo[0]) : null,
      ...stamp(plan.patient ? 30 * DAY + index * HOUR : 15 * DAY),
    };
  });
  const iotLinkRows = iotPlans.flatMap((plan) =>
    plan.linkedTo.map((key) => ({ iotDeviceId: iotId(plan.key), deviceId: deviceId(key) })),
  );

  // A month of readings. A few patients have episodes that opened alerts.
  const tachycardiaPatient = equippedPatients[1]!;
  const feverPatient = equippedPatients[2]!;
  const episodes: Record<string, { from: number; to: number }[]> = {
    [`band-${tachycardiaPatient.key}:heart_rate`]: [
      { from: ago(50 * MINUTE), to: ago(20 * MINUTE) },
      { from: ago(3 * DAY + 2 * HOUR), to: ago(3 * DAY + HOUR) },
    ],
    [`thermometer-${feverPatient.key}:temperature`]: [
      { from: ago(2 * DAY + 6 * HOUR), to: ago(DAY + 12 * HOUR) },
    ],
  };
  const readingRows = iotPlans
    .filter((plan) => plan.patient)
    .flatMap((plan) =>
      plan.types
        .filter((type): type is ReadingSeries['dataType'] => type !== 'alert')
        .flatMap((type) =>
          buildReadings(
            {
              iotDeviceId: iotId(plan.key),
              key: plan.key,
              dataType: type,
              userId: plan.patient!.id,
              from: ago(HISTORY),
              to: anchor,
              baseline: (hashString(`${seed}:${plan.patient!.key}`) % 1000) / 1000,
              episodes: episodes[`${plan.key}:${type}`] ?? [],
            },
            seedHash,
            id,
          ),
        ),
    );

  return {
    iotId,
    tachycardiaPatient,
    feverPatient,
    iotDevices: iotRows,
    iotDeviceDevices: iotLinkRows,
    readings: readingRows,
  };
}

export type IotDevices = ReturnType<typeof buildIotDevices>;

interface AlertPlan {
  key: string;
  patient: Person;
  iotKey: string | null;
  agoMs: number;
  kind:
    | 'fall_detected'
    | 'panic_button'
    | 'heart_rate_high'
    | 'heart_rate_low'
    | 'temperature_high'
    | 'low_battery'
    | 'manual';
  message: string;
  /** The value out of bounds, for the kinds opened by a reading outside its bounds. */
  value?: number;
  severity: 'high' | 'medium' | 'low';
  closedBy?: Person;
  closedAfter?: number;
  reason?: string;
}

/** What a reading out of bounds measured: its data type, field and the reading's other fields. */
const measured: Partial<Record<AlertPlan['kind'], { dataType: IotDataType; field: string; extra?: object }>> =
  {
    heart_rate_high: { dataType: 'heart_rate', field: 'rate' },
    heart_rate_low: { dataType: 'heart_rate', field: 'rate' },
    temperature_high: { dataType: 'temperature', field: 'value', extra: { unit: '°C' } },
    low_battery: { dataType: 'battery', field: 'level' },
  };

/**
 * An alert's data as the server writes it (iot.service's alertsForReadings, the care actions), with the title
 * the shared alertTitle gives it: an alert reading, a reading outside the default bounds, or a manual alert.
 */
function alertData(
  plan: AlertPlan,
  timestamp: number,
  readingId: string | undefined,
  reading: Record<string, unknown> | undefined,
) {
  const measure = measured[plan.kind];
  let data: Record<string, unknown>;
  if (readingId && reading) {
    data = { reason: 'alert_reading', dataType: 'alert', readingId, reading };
  } else if (measure && plan.value !== undefined) {
    const bounds = DEFAULT_READING_BOUNDS[measure.dataType]?.[measure.field] ?? {};
    data = {
      reason: 'out_of_bounds',
      dataType: measure.dataType,
      count: 1,
      fields: { [measure.field]: { ...bounds, lowest: plan.value, highest: plan.value } },
      reading: { timestamp, [measure.field]: plan.value, ...measure.extra },
    };
  } else {
    data = { kind: 'manual', message: plan.message };
  }
  return { ...data, title: alertTitle({ data }) };
}

/** The severity the server gives a reading outside its bounds (boundsBreaches), for a plan that has one. */
function boundsSeverity(plan: AlertPlan) {
  const measure = measured[plan.kind];
  if (!measure || plan.value === undefined) return undefined;
  const reading = { [measure.field]: plan.value, ...measure.extra };
  return boundsBreaches(DEFAULT_READING_BOUNDS, measure.dataType, reading)[0]?.severity;
}

/** Alerts from alert readings (which are added here), from readings out of bounds, and manual ones. */
export function buildAlerts(
  { id, ago }: SeedContext,
  { named }: Population,
  { equippedPatients }: Devices,
  { iotId, tachycardiaPatient, feverPatient }: IotDevices,
) {
  const supervisor = named('supervisor');
  const nurse = named('nurse');
  const alertPlans: AlertPlan[] = [
    {
      key: 'fall-patient',
      patient: named('patient'),
      iotKey: `band-${named('patient').key}`,
      agoMs: 2 * HOUR + 10 * MINUTE,
      kind: 'fall_detected',
      message: 'Possible fall detected by the wrist band',
      severity: 'high',
    },
    {
      key: 'hr-now',
      patient: tachycardiaPatient,
      iotKey: `band-${tachycardiaPatient.key}`,
      agoMs: 45 * MINUTE,
      kind: 'heart_rate_high',
      message: 'Heart rate above 130 bpm',
      value: 142,
      severity: 'high',
    },
    {
      key: 'hr-low',
      patient: named('patient'),
      iotKey: `band-${named('patient').key}`,
      agoMs: 2 * HOUR,
      kind: 'heart_rate_low',
      message: 'Heart rate below 40 bpm',
      value: 31,
      severity: 'high',
    },
    {
      key: 'button-now',
      patient: equippedPatients[3]!,
      iotKey: `button-${equippedPatients[3]!.key}`,
      agoMs: 25 * MINUTE,
      kind: 'panic_button',
      message: 'Alarm button pressed',
      severity: 'high',
    },
    {
      key: 'battery-low',
      patient: equippedPatients[4]!,
      iotKey: `thermometer-${equippedPatients[4]!.key}`,
      agoMs: 6 * HOUR,
      kind: 'low_battery',
      message: 'Thermometer battery below 10%',
      value: 8,
      severity: 'low',
    },
    {
      key: 'manual-call',
      patient: equippedPatients[5]!,
      iotKey: null,
      agoMs: 20 * HOUR,
      kind: 'manual',
      message: 'Please call the command center about tomorrow’s visit',
      severity: 'medium',
    },
    {
      key: 'fever',
      patient: feverPatient,
      iotKey: `thermometer-${feverPatient.key}`,
      agoMs: 2 * DAY + 5 * HOUR,
      kind: 'temperature_high',
      message: 'Body temperature above 39.5 °C',
      value: 39.8,
      severity: 'medium',
      closedBy: nurse,
      closedAfter: 3 * HOUR,
      reason: 'resolved',
    },
    {
      key: 'hr-earlier',
      patient: tachycardiaPatient,
      iotKey: `band-${tachycardiaPatient.key}`,
      agoMs: 3 * DAY + 90 * MINUTE,
      kind: 'heart_rate_high',
      message: 'Heart rate above 130 bpm',
      value: 137,
      severity: 'high',
      closedBy: supervisor,
      closedAfter: 40 * MINUTE,
      reason: 'resolved',
    },
    {
      key: 'fall-false',
      patient: equippedPatients[1]!,
      iotKey: `band-${equippedPatients[1]!.key}`,
      agoMs: 4 * DAY + 7 * HOUR,
      kind: 'fall_detected',
      message: 'Possible fall detected by the wrist band',
      severity: 'high',
      closedBy: supervisor,
      closedAfter: 12 * MINUTE,
      reason: 'false_alarm',
    },
    {
      key: 'button-test',
      patient: named('patient'),
      iotKey: `button-${named('patient').key}`,
      agoMs: 5 * DAY + 2 * HOUR,
      kind: 'panic_button',
      message: 'Alarm button pressed',
      severity: 'high',
      closedBy: nurse,
      closedAfter: 8 * MINUTE,
      reason: 'false_alarm',
    },
    {
      key: 'manual-meds',
      patient: named('patient'),
      iotKey: null,
      agoMs: 6 * DAY,
      kind: 'manual',
      message: 'Reminder: new prescription is on its way',
      severity: 'low',
      closedBy: named('patient'),
      closedAfter: 2 * HOUR,
      reason: 'acknowledged',
    },
    {
      key: 'battery-old',
      patient: equippedPatients[2]!,
      iotKey: `band-${equippedPatients[2]!.key}`,
      agoMs: 6 * DAY + 4 * HOUR,
      kind: 'low_battery',
      message: 'Wrist band battery below 10%',
      value: 6,
      severity: 'low',
      closedBy: nurse,
      closedAfter: 5 * HOUR,
      reason: 'resolved',
    },
  ];
  const alertReadingRows: (typeof iotDeviceData.$inferInsert)[] = [];
  const alertRows = alertPlans.map((plan, index) => {
    const timestamp = ago(plan.agoMs) + 17_000;
    const alertId = id('alert', plan.key);
    const fromAlertReading = plan.kind === 'fall_detected' || plan.kind === 'panic_button';
    let readingId: string | undefined;
    if (fromAlertReading && plan.iotKey) {
      readingId = id('reading', plan.iotKey, 'alert', plan.key);
      alertReadingRows.push({
        id: readingId,
        timestamp,
        dataType: 'alert',
        data: {
          id: `evt-${alertId.slice(0, 8)}`,
          type: plan.kind,
          message: plan.message,
          severity: plan.severity,
          timestamp,
        },
        iotDeviceId: iotId(plan.iotKey),
        userId: plan.patient.id,
        createdByUserId: plan.patient.id,
        createdAt: new Date(timestamp + 900),
      });
    }
    // A reading out of bounds is among the device's readings too, so its chart shows what raised the alert.
    const measure = measured[plan.kind];
    if (!fromAlertReading && measure && plan.value !== undefined && plan.iotKey) {
      alertReadingRows.push({
        id: id('reading', plan.iotKey, measure.dataType, plan.key),
        timestamp,
        dataType: measure.dataType,
        data: { [measure.field]: plan.value, ...measure.extra },
        iotDeviceId: iotId(plan.iotKey),
        userId: plan.patient.id,
        createdByUserId: plan.patient.id,
        createdAt: new Date(timestamp + 900),
      });
    }
    const closedAt = plan.closedBy && plan.closedAfter ? timestamp + plan.closedAfter : null;
    const creator = plan.kind === 'manual' ? (index % 2 === 0 ? supervisor : nurse) : plan.patient;
    return {
      id: alertId,
      isActive: !closedAt,
      severity:
        boundsSeverity(plan) ??
        ({ high: 'critical', medium: 'warning', low: 'info' } as const)[plan.severity],
      timestamp,
      data: alertData(plan, timestamp, readingId, alertReadingRows.at(-1)?.data),
      closingData: closedAt
        ? {
            reason: plan.reason,
            notes:
              plan.reason === 'false_alarm'
                ? 'Patient confirmed by phone that all is well.'
                : 'Checked and handled.',
            closedAt: iso(closedAt),
          }
        : null,
      iotDeviceId: plan.iotKey ? iotId(plan.iotKey) : null,
      userId: plan.patient.id,
      closedByUserId: closedAt ? plan.closedBy!.id : null,
      closedAt: closedAt ? new Date(closedAt) : null,
      createdByUserId: creator.id,
      createdAt: new Date(timestamp + 1_000),
      updatedAt: new Date(closedAt ?? timestamp + 1_000),
    };
  });
  return { alerts: alertRows, readings: alertReadingRows };
}
