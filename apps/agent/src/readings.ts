// Simulated IoT readings for demos and benchmarks (`careplane-agent simulate-iot`): the data types of
// decisions §7 that the IoT device supports, values that wander like a wearer's would, and now and then one
// outside the bounds that open an alert. Seeded, so a run can be repeated exactly. The agent is built on its own, so the data types and
// the bounds are restated here; a test checks them against the server's contract.

/** The IoT data types, in the order a simulation sends them. */
export const IOT_DATA_TYPES = [
  'battery',
  'heart_rate',
  'temperature',
  'pressure',
  'blood_pressure',
  'alert',
] as const;
export type IotDataType = (typeof IOT_DATA_TYPES)[number];

/**
 * The server's default bounds (IOT_ALERT_BOUNDS unset): a reading outside them opens an alert. Pressure has
 * none, so pressure readings are never out of range.
 */
export const ALERT_BOUNDS = {
  battery: { level: { min: 10 } },
  heart_rate: { rate: { min: 40, max: 130 } },
  temperature: { value: { min: 35, max: 39.5 } },
  blood_pressure: { sys: { min: 80, max: 180 }, dias: { min: 40, max: 120 } },
} as const;

/** The types whose readings can be out of range. */
export const BOUNDED_TYPES = ['battery', 'heart_rate', 'temperature', 'blood_pressure'] as const;

export interface SimulatedReading {
  dataType: IotDataType;
  reading: Record<string, unknown> & { timestamp: number };
  /** The reading opens an alert: a value outside ALERT_BOUNDS, or an alert raised by the device. */
  outOfRange: boolean;
}

export interface GeneratorOptions {
  /** Any integer; the same seed (and clock) gives the same readings. */
  seed: number;
  /** The share of bounded readings sent out of range, and how often the device raises an alert (0..1). */
  outOfRangeShare: number;
  /** Milliseconds since the epoch; readings of a generator get strictly increasing timestamps. */
  now?: () => number;
  /**
   * The data types to send (the IoT device's supported ones), kept in the order of IOT_DATA_TYPES; every
   * type when not given. With `alert` alone, every reading is a device alert.
   */
  types?: readonly IotDataType[];
}

/** Whether a text names one of the IoT data types. */
export const isIotDataType = (value: string): value is IotDataType =>
  (IOT_DATA_TYPES as readonly string[]).includes(value);

/** mulberry32: small, fast, and good enough for simulated vital signs. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

const DEVICE_ALERTS = [
  { type: 'fall_detected', message: 'A fall was detected' },
  { type: 'sos_button', message: 'The SOS button was pressed' },
  { type: 'device_removed', message: 'The wearable was taken off' },
] as const;

/**
 * Endless readings of the chosen types, in the order of IOT_DATA_TYPES. The alert slot raises a device alert
 * only with the out-of-range share's probability and otherwise goes on to the next type, so alerts stay
 * occasional; a device that sends nothing but alerts raises one with every reading.
 */
export function createReadingGenerator(options: GeneratorOptions) {
  const share = options.outOfRangeShare;
  if (!(share >= 0 && share <= 1)) throw new RangeError('The out-of-range share must be between 0 and 1');
  const types = options.types ?? IOT_DATA_TYPES;
  const order = IOT_DATA_TYPES.filter((type) => types.includes(type));
  if (order.length === 0) throw new RangeError('No data type to send');
  const alertsOnly = order.length === 1 && order[0] === 'alert';
  const next = random(options.seed);
  const now = options.now ?? Date.now;
  const between = (min: number, max: number) => min + next() * (max - min);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  let lastTimestamp = -Infinity;
  let slot = 0;
  let alertNumber = 0;
  // Values that drift from reading to reading, within what a resting adult shows.
  let battery = between(60, 100);
  let heartRate = between(62, 84);
  let temperature = between(36.3, 37.1);
  let pressure = between(1005, 1020);
  let systolic = between(110, 130);

  const timestamp = () => (lastTimestamp = Math.max(Math.floor(now()), lastTimestamp + 1));

  function measure(dataType: Exclude<IotDataType, 'alert'>, outOfRange: boolean): SimulatedReading {
    const ts = timestamp();
    switch (dataType) {
      case 'battery': {
        battery -= between(0, 0.3);
        if (battery < 12) battery = between(85, 100); // recharged
        const level = outOfRange ? between(0, 9) : battery;
        return { dataType, reading: { timestamp: ts, level: round(level, 1) }, outOfRange };
      }
      case 'heart_rate': {
        heartRate = clamp(heartRate + between(-3, 3), 55, 105);
        const rate = outOfRange ? (next() < 0.5 ? between(25, 38) : between(135, 185)) : heartRate;
        return { dataType, reading: { timestamp: ts, rate: Math.round(rate) }, outOfRange };
      }
      case 'temperature': {
        temperature = clamp(temperature + between(-0.1, 0.1), 36, 37.8);
        const value = outOfRange ? (next() < 0.3 ? between(33, 34.8) : between(39.7, 41.5)) : temperature;
        return { dataType, reading: { timestamp: ts, value: round(value, 1), unit: 'C' }, outOfRange };
      }
      case 'pressure': {
        // Barometric pressure at the wearer's home.
        pressure = clamp(pressure + between(-0.4, 0.4), 980, 1040);
        return {
          dataType,
          reading: { timestamp: ts, value: round(pressure, 1), unit: 'hPa' },
          outOfRange: false,
        };
      }
      case 'blood_pressure': {
        systolic = clamp(systolic + between(-4, 4), 100, 145);
        let sys = systolic;
        let dias = systolic * between(0.6, 0.68);
        if (outOfRange) {
          if (next() < 0.7) {
            sys = between(185, 230);
            dias = between(95, 118);
          } else {
            sys = between(60, 78);
            dias = between(35, 38);
          }
        }
        return {
          dataType,
          reading: { timestamp: ts, sys: Math.round(sys), dias: Math.round(dias) },
          outOfRange,
        };
      }
    }
  }

  return function nextReading(): SimulatedReading {
    for (;;) {
      const dataType = order[slot]!;
      slot = (slot + 1) % order.length;
      if (dataType === 'alert') {
        if (!alertsOnly && next() >= share) continue;
        alertNumber += 1;
        const ts = timestamp();
        const alert = pick(DEVICE_ALERTS);
        const id = `sim-${(options.seed >>> 0).toString(36)}-${alertNumber}-${Math.floor(next() * 2 ** 32).toString(36)}`;
        return { dataType, reading: { id, timestamp: ts, ...alert }, outOfRange: true };
      }
      const bounded = (BOUNDED_TYPES as readonly string[]).includes(dataType);
      return measure(dataType, bounded && next() < share);
    }
  };
}
