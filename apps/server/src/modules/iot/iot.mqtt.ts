// Readings over MQTT (decision 026): the server subscribes to `<prefix>/<hardwareIdentifier>/<dataType>` at
// QoS 1 through a shared subscription, so several server processes split the messages. A message is
// acknowledged only once its readings are committed: messages of all connections are written together by the
// batcher, and their PUBACKs go out when that batch's transaction has committed, while each connection keeps
// receiving up to its receive maximum (lib/mqtt-subscriber.ts). A malformed
// message or reading is counted, logged and acknowledged (a retry cannot mend it), and never stored.
import type { FastifyBaseLogger } from 'fastify';
import type { IPublishPacket } from 'mqtt-packet';
import { iotDataTypes, type IotDataType } from '@careplane/shared/common/enums';
import {
  CONNECTION_SECRET_PROPERTY,
  MAX_READINGS_PER_SUBMISSION,
  validateReadings,
} from '@careplane/shared/iot/iot.contract';
import { createBatcher } from '@/lib/batcher.js';
import { readJsonText } from '@/lib/json-text.js';
import { brokerAddress, brokerOutage, subscribe } from '@/lib/mqtt-subscriber.js';
import type { IncomingReadings, IngestOutcome, IotService } from './iot.service.js';

export interface MqttIngestionSettings {
  url: string;
  topicPrefix: string;
  shareGroup: string;
  /** Stem of the client ids; connection i is `<clientId>-<i>`, the same after a restart. */
  clientId: string;
  connections: number;
  /** Messages each connection may hold unacknowledged while their batches are written. */
  receiveMaximum: number;
  /** Seconds the broker keeps a session (and queues its messages) while this process is away. */
  sessionExpiry: number;
  batchSize: number;
  batchDelayMs: number;
}

export interface MqttIngestion {
  /** Resolves once every connection has subscribed. */
  ready: Promise<void>;
  /**
   * Writes what is queued (acknowledging it), then disconnects; sessions stay with the broker. With `leave`,
   * they first leave the shared subscription, so the broker sends the other members this process's share.
   */
  close(options?: { leave?: boolean }): Promise<void>;
  /** How many of its connections are up and subscribed now, of how many. */
  connections(): { subscribed: number; total: number };
  /**
   * Takes over the sessions of a member that stopped without leaving the subscription (`<stem>-0` … `-n`):
   * stores what the broker queued for them, then ends them, so the broker gives this member's group all of the
   * readings. Answers how many of the sessions were taken over and ended.
   */
  takeOver(stem: string, connections: number): Promise<number>;
}

/** A taken-over session is done once no message has come for this long (the broker sends its queue at once). */
const TAKEN_OVER_QUIET_MS = 1_000;

/** Why a message is refused before it reaches a batch. */
class Malformed extends Error {
  constructor(
    message: string,
    readonly readings: number,
  ) {
    super(message);
  }
}

interface Parsed {
  message: IncomingReadings;
  invalid: { index: number; issues: { path: string; message: string }[] }[];
}

/** The device and data type a topic names; throws Malformed for any other topic. */
function parseTopic(prefix: string, topic: string): { hardwareIdentifier: string; dataType: IotDataType } {
  const rest = topic.startsWith(`${prefix}/`) ? topic.slice(prefix.length + 1).split('/') : [];
  const [hardwareIdentifier, dataType] = rest;
  if (rest.length !== 2 || !hardwareIdentifier || !dataType) {
    throw new Malformed(`Not a readings topic: ${topic}`, 0);
  }
  if (!(iotDataTypes as readonly string[]).includes(dataType)) {
    throw new Malformed(`Unknown data type ${dataType}`, 0);
  }
  return { hardwareIdentifier, dataType: dataType as IotDataType };
}

/**
 * The payload: one reading, a list of readings, or `{ data: [readings], connectionSecret }` (for MQTT 3
 * publishers, which cannot send the secret as the `connection-secret` user property).
 */
export function parseMessage(prefix: string, topic: string, payload: Buffer, packet: IPublishPacket): Parsed {
  const { hardwareIdentifier, dataType } = parseTopic(prefix, topic);
  // Read as an HTTP body is: a payload nested past any contract's depth would overflow the stack of what reads
  // it next (the readings' checks), and so would come back from the broker for ever.
  const read = readJsonText(payload);
  if ('refusal' in read) throw new Malformed(`The payload: ${read.refusal.message}`, 1);
  const body = read.value;
  let raw: unknown[];
  let secret: string | undefined;
  const property = packet.properties?.userProperties?.[CONNECTION_SECRET_PROPERTY];
  if (typeof property === 'string') secret = property;
  if (Array.isArray(body)) raw = body;
  else if (body && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data)) {
    const envelope = body as { data: unknown[]; connectionSecret?: unknown };
    raw = envelope.data;
    if (typeof envelope.connectionSecret === 'string') secret ??= envelope.connectionSecret;
  } else raw = [body];
  if (raw.length === 0) throw new Malformed('The message holds no reading', 0);
  if (raw.length > MAX_READINGS_PER_SUBMISSION) {
    throw new Malformed(`More than ${MAX_READINGS_PER_SUBMISSION} readings in one message`, raw.length);
  }
  const { valid, invalid } = validateReadings(dataType, raw);
  return { message: { hardwareIdentifier, dataType, readings: valid, secret }, invalid };
}

export function startMqttIngestion(
  settings: MqttIngestionSettings,
  iot: IotService,
  log: FastifyBaseLogger,
): MqttIngestion {
  const batcher = createBatcher<{ message: IncomingReadings; outcome?: IngestOutcome }>({
    maxSize: settings.batchSize,
    maxDelayMs: settings.batchDelayMs,
    weigh: (item) => item.message.readings.length,
    // Batches commit side by side on several pool connections, so the database's cores all work while this
    // process prepares the next ones.
    concurrency: 4,
    flush: async (items) => {
      const outcomes = await iot.ingestMessages(items.map((item) => item.message));
      outcomes.forEach((outcome, index) => (items[index]!.outcome = outcome));
    },
  });

  /** Settles when the message may be acknowledged: stored, or refused for good. */
  async function handle(topic: string, payload: Buffer, packet: IPublishPacket) {
    let parsed: Parsed;
    try {
      parsed = parseMessage(settings.topicPrefix, topic, payload, packet);
    } catch (error) {
      // Reading a message touches nothing but the message: whatever fails there fails again on every resend, so
      // it is refused (counted and acknowledged) rather than left for the broker to send back.
      const reason = error instanceof Error ? error.message : String(error);
      iot.countInvalid('mqtt', error instanceof Malformed ? error.readings : 1, true);
      log.warn({ topic, reason }, 'MQTT message refused');
      return;
    }
    const { message, invalid } = parsed;
    if (invalid.length) {
      iot.countInvalid('mqtt', invalid.length, message.readings.length === 0);
      log.warn(
        { topic, invalid: invalid.slice(0, 5), count: invalid.length },
        'invalid readings refused from an MQTT message',
      );
    }
    if (message.readings.length === 0) return;
    const item: { message: IncomingReadings; outcome?: IngestOutcome } = { message };
    await batcher.add(item);
    if (item.outcome && 'refused' in item.outcome) {
      log.warn(
        { topic, hardwareIdentifier: message.hardwareIdentifier, reason: item.outcome.refused },
        'MQTT readings refused',
      );
    }
  }

  const filter = `$share/${settings.shareGroup}/${settings.topicPrefix}/+/+`;
  // Every connection of this process to the broker says once that it is away, and once that it is back. A
  // take-over's connection is another member's session for a moment, and speaks for itself.
  const outage = brokerOutage(log, settings.url);
  const session = (clientId: string, takeOver = false) =>
    subscribe({
      url: settings.url,
      clientId,
      filter,
      sessionExpiry: settings.sessionExpiry,
      receiveMaximum: settings.receiveMaximum,
      onMessage: (packet) => handle(packet.topic, packet.payload as Buffer, packet),
      log,
      takeOver,
      ...(takeOver ? {} : { outage }),
    });
  const subscriptions = Array.from({ length: settings.connections }, (_, index) =>
    session(`${settings.clientId}-${index}`),
  );

  async function takeOverSession(clientId: string): Promise<boolean> {
    const taken = session(clientId, true);
    try {
      await taken.ready;
      await taken.quiet(TAKEN_OVER_QUIET_MS);
      // What was handled is acknowledged, then the broker drops the session.
      await batcher.drain();
      await taken.close({ endSession: true });
      return true;
    } catch (error) {
      log.warn({ err: error, clientId }, 'an MQTT session of a stopped process was not taken over');
      await taken.close();
      return false;
    }
  }
  const ready = Promise.all(subscriptions.map((subscription) => subscription.ready)).then(() => {
    log.info(
      {
        broker: brokerAddress(settings.url),
        filter,
        connections: settings.connections,
        inFlight: settings.receiveMaximum,
      },
      'receiving IoT readings over MQTT (QoS 1, acknowledged once stored)',
    );
  });
  // An error before readiness is reported through `ready`; this keeps it from going unhandled meanwhile.
  ready.catch(() => undefined);

  return {
    ready,
    connections: () => ({
      subscribed: subscriptions.filter((subscription) => subscription.subscribed()).length,
      total: subscriptions.length,
    }),
    async takeOver(stem, connections) {
      const sessions = Array.from({ length: connections }, (_, index) => `${stem}-${index}`);
      const ended = await Promise.all(sessions.map(takeOverSession));
      return ended.filter(Boolean).length;
    },
    async close(options = {}) {
      // Each subscription stops taking messages and waits for the ones under way, whose batches the drain
      // writes now rather than after their delay; then their acknowledgements go out and it disconnects.
      const closed = Promise.all(subscriptions.map((subscription) => subscription.close(options)));
      await batcher.drain();
      await closed;
    },
  };
}
