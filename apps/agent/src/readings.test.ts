// The simulated readings of `simulate-iot`: valid for the server's contract, out of range about as often as
// asked (and then by the server's own bounds), the same for the same seed; the run loop's counting; and the
// HTTP transport's calls.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { iotDataTypes } from '@careplane/shared/common/enums';
import {
  DEFAULT_READING_BOUNDS,
  boundsBreaches,
  iotDataSubmissionSchema,
  readingSchemas,
} from '@careplane/shared/iot/iot.contract';
import {
  ALERT_BOUNDS,
  BOUNDED_TYPES,
  IOT_DATA_TYPES,
  createReadingGenerator,
  type IotDataType,
  type SimulatedReading,
} from './readings.ts';
import {
  NotLinked,
  Unsupported,
  chooseDataTypes,
  httpTransport,
  runSimulation,
  type ReadingsTransport,
} from './simulate.ts';

const T0 = 1_760_000_000_000;
const take = (
  n: number,
  seed: number,
  outOfRangeShare: number,
  now = () => T0,
  types?: readonly IotDataType[],
) => {
  const next = createReadingGenerator({ seed, outOfRangeShare, now, ...(types ? { types } : {}) });
  return Array.from({ length: n }, next);
};
const typesOf = (readings: SimulatedReading[]) => [...new Set(readings.map((item) => item.dataType))];

describe('simulated readings', () => {
  it('names the data types and bounds of the contract', () => {
    expect([...IOT_DATA_TYPES].sort()).toEqual([...iotDataTypes].sort());
    expect(ALERT_BOUNDS).toEqual(DEFAULT_READING_BOUNDS);
    expect([...BOUNDED_TYPES].sort()).toEqual(Object.keys(DEFAULT_READING_BOUNDS).sort());
  });

  it('sends every type, each reading valid against its schema and in a valid submission', () => {
    const readings = take(3000, 42, 0.2);
    const byType = new Map<string, SimulatedReading[]>();
    for (const item of readings) byType.set(item.dataType, [...(byType.get(item.dataType) ?? []), item]);
    expect([...byType.keys()].sort()).toEqual([...iotDataTypes].sort());
    for (const { dataType, reading } of readings) {
      const parsed = readingSchemas[dataType].safeParse(reading);
      expect(parsed.success, `${dataType} ${JSON.stringify(reading)}`).toBe(true);
      expect(reading.timestamp).toEqual(expect.any(Number));
    }
    for (const [dataType, items] of byType) {
      const submission = {
        iotDeviceId: '00000000-0000-4000-8000-000000000000',
        dataType,
        data: items.slice(0, 100).map((item) => item.reading),
      };
      expect(iotDataSubmissionSchema.safeParse(submission).success, dataType).toBe(true);
    }
  });

  it('gives every reading its own timestamp, rising, from the clock', () => {
    let clock = T0;
    const readings = take(200, 3, 0.1, () => (clock += 0.25));
    const timestamps = readings.map((item) => item.reading.timestamp);
    for (let index = 1; index < timestamps.length; index += 1) {
      expect(timestamps[index]).toBeGreaterThan(timestamps[index - 1]!);
    }
    expect(timestamps[0]).toBeGreaterThanOrEqual(T0);
  });

  it.each([0, 0.05, 0.3])('sends about a share of %s of bounded readings out of range', (share) => {
    const readings = take(20_000, 11, share);
    const bounded = readings.filter((item) => (BOUNDED_TYPES as readonly string[]).includes(item.dataType));
    const out = bounded.filter((item) => item.outOfRange).length;
    expect(Math.abs(out / bounded.length - share)).toBeLessThan(0.02);
    // Device alerts come about as often, in the alert slot of each round of types.
    const rounds = readings.filter((item) => item.dataType === 'battery').length;
    const alerts = readings.filter((item) => item.dataType === 'alert').length;
    expect(Math.abs(alerts / rounds - share)).toBeLessThan(0.02);
  });

  it('is out of range exactly when the server would open an alert for it', () => {
    for (const item of take(5000, 5, 0.25)) {
      if (item.dataType === 'alert') {
        expect(item.outOfRange).toBe(true);
        continue;
      }
      const breaches = boundsBreaches(DEFAULT_READING_BOUNDS, item.dataType, item.reading);
      expect(breaches.length > 0, `${item.dataType} ${JSON.stringify(item.reading)}`).toBe(item.outOfRange);
    }
  });

  it('repeats itself for the same seed and differs for another', () => {
    expect(take(500, 99, 0.1)).toEqual(take(500, 99, 0.1));
    expect(take(500, 100, 0.1)).not.toEqual(take(500, 99, 0.1));
  });

  it('sends only the types it is given, in the order of the contract, each reading valid', () => {
    const readings = take(600, 7, 0.2, () => T0, ['temperature', 'heart_rate', 'alert']);
    expect(typesOf(readings).sort()).toEqual(['alert', 'heart_rate', 'temperature']);
    for (const { dataType, reading } of readings) {
      expect(readingSchemas[dataType].safeParse(reading).success, dataType).toBe(true);
    }
    // heart_rate before temperature, as in IOT_DATA_TYPES; an alert only now and then between rounds.
    const measured = readings.filter((item) => item.dataType !== 'alert').map((item) => item.dataType);
    expect(measured.slice(0, 4)).toEqual(['heart_rate', 'temperature', 'heart_rate', 'temperature']);
    const alerts = readings.filter((item) => item.dataType === 'alert').length;
    expect(alerts).toBeGreaterThan(0);
    expect(alerts).toBeLessThan(readings.length / 4);
  });

  it('is the same with every type named as with none', () => {
    expect(take(300, 12, 0.1, () => T0, IOT_DATA_TYPES)).toEqual(take(300, 12, 0.1));
  });

  it('raises an alert with every reading for a device that sends only alerts', () => {
    const readings = take(20, 4, 0, () => T0, ['alert']);
    expect(typesOf(readings)).toEqual(['alert']);
    for (const { reading } of readings) expect(readingSchemas.alert.safeParse(reading).success).toBe(true);
  });

  it('refuses an empty list of types', () => {
    expect(() => createReadingGenerator({ seed: 1, outOfRangeShare: 0, types: [] })).toThrow(RangeError);
  });

  it('refuses a share outside 0..1', () => {
    expect(() => createReadingGenerator({ seed: 1, outOfRangeShare: 1.5 })).toThrow(RangeError);
    expect(() => createReadingGenerator({ seed: 1, outOfRangeShare: Number.NaN })).toThrow(RangeError);
  });
});

describe('runSimulation', () => {
  /** A transport that keeps what it is sent and refuses heart rates. */
  function recordingTransport() {
    const messages: { dataType: string; readings: SimulatedReading['reading'][] }[] = [];
    const transport: ReadingsTransport = {
      maxInFlight: 4,
      send: async (dataType, readings) => {
        messages.push({ dataType, readings });
        if (dataType === 'heart_rate') throw new Error('refused');
      },
      close: async () => undefined,
    };
    return { messages, transport };
  }

  it('stops after --count readings and counts sent, refused and out-of-range', async () => {
    const { messages, transport } = recordingTransport();
    const readings = take(120, 8, 0.3);
    let index = 0;
    const summary = await runSimulation({
      next: () => readings[index++]!,
      transport,
      rate: 10_000,
      count: 120,
      signal: new AbortController().signal,
    });
    // All of them, grouped by type within a tick.
    const sentReadings = messages
      .flatMap((message) => message.readings)
      .sort((a, b) => a.timestamp - b.timestamp);
    expect(sentReadings).toEqual(readings.map((item) => item.reading));
    const refused = readings.filter((item) => item.dataType === 'heart_rate');
    expect(summary.refused).toBe(refused.length);
    expect(summary.sent).toBe(120 - refused.length);
    expect(summary.outOfRange).toBe(
      readings.filter((item) => item.outOfRange && item.dataType !== 'heart_rate').length,
    );
    // Each message holds readings of its own type only.
    for (const message of messages) {
      expect(message.readings.length).toBeGreaterThan(0);
      for (const reading of message.readings) {
        expect(readings.find((item) => item.reading === reading)?.dataType).toBe(message.dataType);
      }
    }
  });

  it('stops when the signal aborts, with what was sent so far', async () => {
    const { messages, transport } = recordingTransport();
    const controller = new AbortController();
    const next = createReadingGenerator({ seed: 1, outOfRangeShare: 0 });
    let generated = 0;
    const summary = await runSimulation({
      next: () => {
        generated += 1;
        if (generated === 30) controller.abort();
        return next();
      },
      transport,
      rate: 1000,
      signal: controller.signal,
    });
    expect(summary.sent + summary.refused).toBe(messages.flatMap((message) => message.readings).length);
    expect(summary.sent + summary.refused).toBe(generated);
    expect(generated).toBeGreaterThanOrEqual(30);
  });
});

describe('the data types a simulation sends', () => {
  const choose = (supported?: string[], requested?: IotDataType[]) =>
    chooseDataTypes({ hardwareIdentifier: 'HW-1', supported, requested });

  it("are the IoT device's supported ones, in the order of the contract", () => {
    expect(choose(['temperature', 'battery', 'heart_rate'])).toEqual([
      'battery',
      'heart_rate',
      'temperature',
    ]);
    // A type this agent does not know (a newer server) is left out, not sent.
    expect(choose(['heart_rate', 'glucose'])).toEqual(['heart_rate']);
  });

  it('are narrowed by --types to supported ones; an unsupported one is refused, naming it', () => {
    expect(choose(['heart_rate', 'battery', 'alert'], ['alert', 'heart_rate'])).toEqual([
      'heart_rate',
      'alert',
    ]);
    expect(() => choose(['heart_rate', 'battery'], ['heart_rate', 'temperature'])).toThrow(
      new Unsupported(
        'IoT device "HW-1" does not send temperature readings (its supported data types: heart_rate, battery)',
      ),
    );
  });

  it('are every type (or --types) when the device names none, or the server cannot be asked', () => {
    expect(choose([])).toEqual([...IOT_DATA_TYPES]);
    expect(choose(undefined)).toEqual([...IOT_DATA_TYPES]);
    expect(choose([], ['pressure', 'battery'])).toEqual(['battery', 'pressure']);
    expect(choose(undefined, ['pressure'])).toEqual(['pressure']);
  });

  it('refuses a device that supports only types the agent cannot simulate', () => {
    expect(() => choose(['glucose'])).toThrow(Unsupported);
  });
});

describe('simulate-iot over HTTP', () => {
  /** A server answering the two device calls the HTTP transport makes, keeping what it is sent. */
  async function deviceServer(
    linked: { id: string; hardwareIdentifier: string; supportedDataTypes?: string[] }[],
  ) {
    const submissions: { token?: string; secret?: string; body: { dataType: string; data: unknown[] } }[] =
      [];
    const server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        const token = request.headers.authorization;
        if (request.method === 'GET' && request.url === '/api/devices/me/iot-devices') {
          response.writeHead(200, { 'content-type': 'application/json' });
          return response.end(JSON.stringify(linked.map((item) => ({ supportedDataTypes: [], ...item }))));
        }
        if (request.method === 'POST' && request.url === '/api/iot-devices/data/submit') {
          const body = JSON.parse(text) as { dataType: string; data: unknown[] };
          const secret = request.headers['x-connection-secret'];
          submissions.push({
            body,
            ...(token ? { token } : {}),
            ...(typeof secret === 'string' ? { secret } : {}),
          });
          // Blood pressure is refused, as an IoT device that does not support it would be.
          const refused = body.dataType === 'blood_pressure';
          response.writeHead(refused ? 400 : 201, { 'content-type': 'application/json' });
          return response.end(
            JSON.stringify(refused ? { message: 'Not supported' } : { count: body.data.length }),
          );
        }
        response.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    return {
      url: `http://127.0.0.1:${address.port}`,
      submissions,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('submits batches for the linked IoT device with the device token and secret, counting refusals', async () => {
    const server = await deviceServer([{ id: 'iot-1', hardwareIdentifier: 'HW-1' }]);
    try {
      const transport = await httpTransport({
        server: server.url,
        token: 'cpd_token',
        hardwareIdentifier: 'HW-1',
        secret: 'the-secret',
      });
      const readings = take(60, 2, 0.2);
      let index = 0;
      const summary = await runSimulation({
        next: () => readings[index++]!,
        transport,
        rate: 10_000,
        count: 60,
        signal: new AbortController().signal,
      });
      const bloodPressure = readings.filter((item) => item.dataType === 'blood_pressure').length;
      expect(summary).toMatchObject({ sent: 60 - bloodPressure, refused: bloodPressure });
      expect(server.submissions.flatMap((item) => item.body.data)).toHaveLength(60);
      for (const submission of server.submissions) {
        expect(submission).toMatchObject({
          token: 'Bearer cpd_token',
          secret: 'the-secret',
          body: { iotDeviceId: 'iot-1' },
        });
      }
    } finally {
      await server.close();
    }
  });

  it("sends only the IoT device's supported data types, as the server names them", async () => {
    const server = await deviceServer([
      { id: 'iot-1', hardwareIdentifier: 'HW-1', supportedDataTypes: ['heart_rate', 'battery'] },
    ]);
    try {
      const transport = await httpTransport({
        server: server.url,
        token: 'cpd_token',
        hardwareIdentifier: 'HW-1',
      });
      expect(transport.supportedDataTypes).toEqual(['heart_rate', 'battery']);
      const types = chooseDataTypes({ hardwareIdentifier: 'HW-1', supported: transport.supportedDataTypes });
      const summary = await runSimulation({
        next: createReadingGenerator({ seed: 3, outOfRangeShare: 0.5, types }),
        transport,
        rate: 10_000,
        count: 50,
        signal: new AbortController().signal,
      });
      expect(summary).toMatchObject({ sent: 50, refused: 0 });
      const sentTypes = new Set(server.submissions.map((item) => item.body.dataType));
      expect(sentTypes).toEqual(new Set(['heart_rate', 'battery']));
      expect(server.submissions.flatMap((item) => item.body.data)).toHaveLength(50);
    } finally {
      await server.close();
    }
  });

  it('never sends readings of a type the IoT device does not support', async () => {
    const server = await deviceServer([
      { id: 'iot-1', hardwareIdentifier: 'HW-1', supportedDataTypes: ['heart_rate'] },
    ]);
    try {
      const transport = await httpTransport({
        server: server.url,
        token: 'cpd_token',
        hardwareIdentifier: 'HW-1',
      });
      const reading = { timestamp: T0, value: 36.6, unit: 'C' };
      await expect(transport.send('temperature', [reading])).rejects.toThrow(Unsupported);
      expect(server.submissions).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('refuses to start for an IoT device not linked to the enrolled device', async () => {
    const server = await deviceServer([{ id: 'iot-1', hardwareIdentifier: 'HW-1' }]);
    try {
      await expect(
        httpTransport({ server: server.url, token: 'cpd_token', hardwareIdentifier: 'HW-2' }),
      ).rejects.toThrow(NotLinked);
    } finally {
      await server.close();
    }
  });
});
