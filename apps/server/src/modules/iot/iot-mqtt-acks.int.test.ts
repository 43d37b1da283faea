// The MQTT transport against the real Mosquitto with a stand-in for the service: a message whose batch fails
// to be written is not acknowledged, so the broker delivers it again and it is stored then.
import { afterAll, describe, expect, it } from 'vitest';
import { startMqttIngestion, type MqttIngestion } from './iot.mqtt.js';
import type { IncomingReadings } from './iot.service.js';
import {
  connectPublisher,
  forgetSessions,
  ingestionSettings,
  mqttTestSettings,
  silentLog,
  standInIotService,
} from './iot.test-helpers.js';

const settings = mqttTestSettings(2);
let ingestion: MqttIngestion | undefined;
afterAll(async () => {
  await ingestion?.close();
  await forgetSessions(settings.clientId, settings.connections);
});

describe('MQTT acknowledgements', () => {
  it('does not acknowledge a message whose write failed: it comes back and is stored', async () => {
    const attempts: IncomingReadings[][] = [];
    const stored: IncomingReadings[] = [];
    const service = standInIotService((messages) => {
      attempts.push(messages);
      if (attempts.length === 1) throw new Error('the database is away');
      stored.push(...messages);
    });
    ingestion = startMqttIngestion(ingestionSettings(settings), service, silentLog);
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
