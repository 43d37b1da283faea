// The MQTT transport against the real Mosquitto with a stand-in for the service: a message whose batch fails
// to be written is not acknowledged, so the broker delivers it again and it is stored then.
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { startMqttIngestion, type MqttIngestion } from './iot.mqtt.js';
import type { IncomingReadings, IngestOutcome, IotService } from './iot.service.js';
import { connectPublisher, forgetSessions, mqttTestSettings, MQTT_TEST_URL } from './iot.test-helpers.js';

const settings = mqttTestSettings(2);
const quiet = () => undefined;
const silent = { info: quiet, warn: quiet, error: quiet } as unknown as FastifyBaseLogger;
let ingestion: MqttIngestion | undefined;
afterAll(async () => {
  await ingestion?.close();
  await forgetSessions(settings.clientId, settings.connections);
});

describe('MQTT acknowledgements', () => {
  it('does not acknowledge a message whose write failed: it comes back and is stored', async () => {
    const attempts: IncomingReadings[][] = [];
    const stored: IncomingReadings[] = [];
    const service = {
      ingestMessages: async (messages: IncomingReadings[]): Promise<IngestOutcome[]> => {
        attempts.push(messages);
        if (attempts.length === 1) throw new Error('the database is away');
        stored.push(...messages);
        return messages.map((message) => ({ stored: message.readings.length, duplicates: 0 }));
      },
      countInvalid: () => undefined,
    } as unknown as IotService;
    ingestion = startMqttIngestion(
      {
        url: MQTT_TEST_URL,
        topicPrefix: settings.prefix,
        shareGroup: settings.env.MQTT_SHARE_GROUP,
        clientId: settings.clientId,
        connections: settings.connections,
        receiveMaximum: 100,
        sessionExpiry: 120,
        batchSize: 10,
        batchDelayMs: 1,
      },
      service,
      silent,
    );
    await ingestion.ready;

    const publisher = await connectPublisher();
    await publisher.publishAsync(
      `${settings.prefix}/HW-ack-1/heart_rate`,
      JSON.stringify({ timestamp: 1_760_000_000_000, rate: 70 }),
      { qos: 1 },
    );
    await publisher.endAsync();

    await expect.poll(() => stored.length, { timeout: 20_000 }).toBe(1);
    expect(attempts.length).toBe(2);
    expect(stored[0]).toMatchObject({
      hardwareIdentifier: 'HW-ack-1',
      dataType: 'heart_rate',
      readings: [{ timestamp: 1_760_000_000_000, rate: 70 }],
    });
  });
});
