// `careplane-agent simulate-iot`: sends simulated readings (readings.ts) at a steady rate, over MQTT
// (`<prefix>/<hardwareIdentifier>/<dataType>` at QoS 1, as the server subscribes) or over HTTP with the
// enrolled device's token. Readings due in the same tick go out as one message per data type.
import { randomUUID } from 'node:crypto';
import { AgentApi, Offline, type LinkedIotDevice } from './api.js';
import { IOT_DATA_TYPES, isIotDataType, type IotDataType, type SimulatedReading } from './readings.js';

/** Sends the readings of one type; resolves once the receiver has taken them, rejects when it refused. */
export interface ReadingsTransport {
  /** Messages that may wait for their answer at once before the simulation waits for one. */
  maxInFlight: number;
  /**
   * The IoT device's supported data types as the server told them (empty: it takes every type); undefined
   * when the transport cannot ask (MQTT).
   */
  supportedDataTypes?: readonly string[];
  send(dataType: IotDataType, readings: SimulatedReading['reading'][]): Promise<void>;
  /** Ends the connection; `force` does not wait for what is still unanswered. */
  close(force?: boolean): Promise<void>;
}

export interface SimulationSummary {
  sent: number;
  refused: number;
  outOfRange: number;
  /** Readings still unanswered when a stop's grace ran out (the receiver may yet have them). */
  unconfirmed: number;
  seconds: number;
}

/** How long a stop waits for the answers to what is in flight before it gives its summary anyway. */
const STOP_GRACE_MS = 5000;

/** The shortest pause between two sends: above this rate, a tick carries several readings. */
const MIN_TICK_MS = 20;
/**
 * The most readings one tick sends: a run that fell behind catches up in steps, each message well under the
 * server's 5000 readings per submission.
 */
const MAX_PER_TICK = 1000;

export async function runSimulation(options: {
  next: () => SimulatedReading;
  transport: ReadingsTransport;
  /** Readings per second, over all types. */
  rate: number;
  /** Stop after this many readings (sent or refused); without it, until the signal. */
  count?: number;
  signal: AbortSignal;
  onRefused?: (dataType: IotDataType, error: unknown) => void;
}): Promise<SimulationSummary> {
  const { next, transport, rate, count, signal } = options;
  const summary: SimulationSummary = { sent: 0, refused: 0, outOfRange: 0, unconfirmed: 0, seconds: 0 };
  let pending = 0;
  const started = performance.now();
  const tickMs = Math.max(1000 / rate, MIN_TICK_MS);
  const inFlight = new Set<Promise<void>>();
  let generated = 0;

  const send = (dataType: IotDataType, batch: SimulatedReading[]) => {
    pending += batch.length;
    const sending: Promise<void> = transport
      .send(
        dataType,
        batch.map((item) => item.reading),
      )
      .then(
        () => {
          summary.sent += batch.length;
          summary.outOfRange += batch.filter((item) => item.outOfRange).length;
        },
        (error: unknown) => {
          summary.refused += batch.length;
          options.onRefused?.(dataType, error);
        },
      )
      .finally(() => {
        pending -= batch.length;
        inFlight.delete(sending);
      });
    inFlight.add(sending);
  };

  while (!signal.aborted && (count === undefined || generated < count)) {
    const elapsed = performance.now() - started;
    let due = Math.min(Math.floor((elapsed * rate) / 1000) + 1 - generated, MAX_PER_TICK);
    if (count !== undefined) due = Math.min(due, count - generated);
    const byType = new Map<IotDataType, SimulatedReading[]>();
    for (let index = 0; index < due; index += 1) {
      const item = next();
      const list = byType.get(item.dataType) ?? [];
      list.push(item);
      byType.set(item.dataType, list);
    }
    generated += Math.max(due, 0);
    for (const [dataType, batch] of byType) send(dataType, batch);
    while (inFlight.size >= transport.maxInFlight) await Promise.race(inFlight);
    if (count !== undefined && generated >= count) break;
    await pause(tickMs - ((performance.now() - started) % tickMs), signal);
  }
  const answered = Promise.allSettled([...inFlight]);
  if (signal.aborted) {
    // Stopped by hand: what the receiver does not answer in time is reported as unconfirmed.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([answered, new Promise((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)))]);
    clearTimeout(timer);
    summary.unconfirmed = pending;
  } else await answered;
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

export const summaryLine = (summary: SimulationSummary) =>
  `sent ${summary.sent}, refused ${summary.refused}, out-of-range ${summary.outOfRange} ` +
  (summary.unconfirmed ? `(${summary.unconfirmed} unconfirmed) ` : '') +
  `in ${summary.seconds.toFixed(1)} s (${(summary.sent / Math.max(summary.seconds, 0.001)).toFixed(1)} readings/s)`;

/** Waits `ms`, or less when the signal aborts. */
function pause(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * MQTT 5 at QoS 1. A trusted device's connection secret travels as the `connection-secret` user property.
 * The broker acknowledges a message once the server has it, so a refusal the server decides later (an
 * unknown device, an invalid reading) is not seen here: it shows in the server's ingestion counts.
 */
export async function mqttTransport(options: {
  url: string;
  topicPrefix: string;
  hardwareIdentifier: string;
  secret?: string;
}): Promise<ReadingsTransport> {
  // Loaded only for MQTT, so the agent's other commands never load it.
  const { default: mqtt } = await import('mqtt');
  const client = await mqtt
    .connectAsync(
      options.url,
      {
        clientId: `careplane-sim-${randomUUID().slice(0, 8)}`,
        protocolVersion: 5,
        clean: true,
        // Once connected, a lost connection is taken up again and unacknowledged messages are sent again.
        reconnectPeriod: 1000,
      },
      false,
    )
    .catch((error: unknown) => {
      throw new Offline(`The MQTT broker at ${options.url} cannot be reached: ${(error as Error).message}`);
    });
  const publishOptions = {
    qos: 1 as const,
    ...(options.secret ? { properties: { userProperties: { 'connection-secret': options.secret } } } : {}),
  };
  return {
    // QoS 1 messages the broker has not yet acknowledged; the broker's receive maximum holds back the rest.
    maxInFlight: 500,
    async send(dataType, readings) {
      const topic = `${options.topicPrefix}/${options.hardwareIdentifier}/${dataType}`;
      await client.publishAsync(
        topic,
        JSON.stringify(readings.length === 1 ? readings[0] : readings),
        publishOptions,
      );
    },
    close: (force = false) => client.endAsync(force),
  };
}

/** The enrolled device's hardware identifier is not among its linked IoT devices. */
export class NotLinked extends Error {}

/** The IoT device does not send a data type asked for, or none that the agent can simulate. */
export class Unsupported extends Error {}

/**
 * The data types a simulation sends, in the order of IOT_DATA_TYPES: the IoT device's supported ones (every
 * type when its list is empty, as the server then takes every type, or when the server cannot be asked),
 * narrowed by `requested` (--types). A requested type the device does not support is refused, never sent.
 */
export function chooseDataTypes(options: {
  hardwareIdentifier: string;
  supported?: readonly string[] | undefined;
  requested?: readonly IotDataType[] | undefined;
}): IotDataType[] {
  const { hardwareIdentifier, supported, requested } = options;
  const ordered = (types: readonly string[]) => IOT_DATA_TYPES.filter((type) => types.includes(type));
  if (!supported?.length) return ordered(requested ?? IOT_DATA_TYPES);
  if (requested) {
    const unsupported = requested.filter((type) => !supported.includes(type));
    if (unsupported.length) {
      throw new Unsupported(
        `IoT device "${hardwareIdentifier}" does not send ${unsupported.join(', ')} readings ` +
          `(its supported data types: ${supported.join(', ')})`,
      );
    }
    return ordered(requested);
  }
  const known = ordered(supported.filter(isIotDataType));
  if (!known.length) {
    throw new Unsupported(
      `IoT device "${hardwareIdentifier}" supports no data type this agent can simulate (${supported.join(', ')})`,
    );
  }
  return known;
}

/**
 * HTTP with the enrolled device's token: `POST /api/iot-devices/data/submit` for an IoT device linked to it,
 * found by its hardware identifier, with its supported data types (`GET /api/devices/me/iot-devices`). A
 * refusal (a 4xx or 5xx answer, or no answer) counts the batch refused.
 */
/** The IoT device linked to the enrolled device, as the server knows it (its id and supported data types). */
export async function linkedIotDevice(options: {
  server: string;
  token: string;
  hardwareIdentifier: string;
}): Promise<LinkedIotDevice> {
  const linked: LinkedIotDevice[] = await new AgentApi(options.server, options.token).linkedIotDevices();
  const device = linked.find((item) => item.hardwareIdentifier === options.hardwareIdentifier);
  if (!device) {
    throw new NotLinked(
      `No IoT device "${options.hardwareIdentifier}" is linked to this device` +
        (linked.length ? ` (linked: ${linked.map((item) => item.hardwareIdentifier).join(', ')})` : ''),
    );
  }
  return device;
}

export async function httpTransport(options: {
  server: string;
  token: string;
  hardwareIdentifier: string;
  secret?: string;
}): Promise<ReadingsTransport> {
  const api = new AgentApi(options.server, options.token);
  const device = await linkedIotDevice(options);
  const supported = device.supportedDataTypes;
  return {
    // A few requests at once: enough to keep up, without flooding the server.
    maxInFlight: 8,
    supportedDataTypes: supported,
    async send(dataType, readings) {
      // Never sent: the server would refuse it.
      if (supported.length && !supported.includes(dataType)) {
        throw new Unsupported(
          `IoT device "${options.hardwareIdentifier}" does not send ${dataType} readings`,
        );
      }
      await api.submitReadings({ iotDeviceId: device.id, dataType, data: readings }, options.secret);
    },
    close: async () => undefined,
  };
}
