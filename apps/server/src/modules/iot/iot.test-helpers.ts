// What the IoT test files share: the connection secret they set, and the check that no answer shows it.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import mqtt from 'mqtt';
import { expect } from 'vitest';
import { MQTT_TEST_URL } from '@/test/mqtt.js';
import type { MqttIngestionSettings } from './iot.mqtt.js';
import type { IncomingReadings, IngestOutcome, IotService } from './iot.service.js';

export const SECRET = 'very-secret-connection-key';

export const expectNoSecret = (body: string) => {
  expect(body).not.toContain('connectionSecret');
  expect(body).not.toContain(SECRET);
  expect(body).not.toContain('scrypt$');
};

export { MQTT_TEST_URL };

/** A topic prefix and client ids of this test file's own, so parallel files and servers never meet. */
export function mqttTestSettings(connections = 4) {
  const tag = randomUUID().slice(0, 8);
  return {
    prefix: `test-${tag}/iot`,
    clientId: `cpt-${tag}`,
    connections,
    env: {
      MQTT_URL: MQTT_TEST_URL,
      MQTT_TOPIC_PREFIX: `test-${tag}/iot`,
      MQTT_SHARE_GROUP: `test-${tag}`,
      MQTT_CLIENT_ID: `cpt-${tag}`,
      MQTT_CONNECTIONS: String(connections),
      MQTT_SESSION_EXPIRY: '120',
    },
  };
}

/** A device-side MQTT client (version 5, so it can send user properties). */
export function connectPublisher(protocolVersion: 4 | 5 = 5) {
  return mqtt.connectAsync(MQTT_TEST_URL, {
    clientId: `cpt-pub-${randomUUID().slice(0, 8)}`,
    protocolVersion,
    clean: true,
    reconnectPeriod: 0,
  });
}

/** Ends the broker's sessions of a server's connections (they outlive the server by design). */
export async function forgetSessions(clientId: string, connections: number) {
  await Promise.all(
    Array.from({ length: connections }, async (_, index) => {
      const client = await mqtt.connectAsync(MQTT_TEST_URL, {
        clientId: `${clientId}-${index}`,
        protocolVersion: 5,
        clean: true,
        properties: { sessionExpiryInterval: 0 },
        reconnectPeriod: 0,
      });
      await client.endAsync();
    }),
  );
}

const quiet = () => undefined;
/** A logger that says nothing. */
export const silentLog = { info: quiet, warn: quiet, error: quiet } as unknown as FastifyBaseLogger;

/**
 * A stand-in for the IoT service: each batch of messages goes to `store`, which may throw as a failed write does;
 * every reading of a stored message counts as stored.
 */
export function standInIotService(store: (messages: IncomingReadings[]) => void): IotService {
  return {
    ingestMessages: async (messages: IncomingReadings[]): Promise<IngestOutcome[]> => {
      store(messages);
      return messages.map((message) => ({ stored: message.readings.length, duplicates: 0 }));
    },
    countInvalid: () => undefined,
  } as unknown as IotService;
}

/** The MQTT ingestion's settings for a test's own subscription (mqttTestSettings), small batches. */
export function ingestionSettings(
  settings: ReturnType<typeof mqttTestSettings>,
  overrides: Partial<MqttIngestionSettings> = {},
): MqttIngestionSettings {
  return {
    url: MQTT_TEST_URL,
    topicPrefix: settings.prefix,
    shareGroup: settings.env.MQTT_SHARE_GROUP,
    clientId: settings.clientId,
    connections: settings.connections,
    receiveMaximum: 100,
    sessionExpiry: 120,
    batchSize: 10,
    batchDelayMs: 1,
    ...overrides,
  };
}
