// `careplane-agent simulate-iot` as a device would run it, against a server receiving readings over MQTT
// (the real Mosquitto, a topic prefix and client ids of this file's own): every type arrives and is stored,
// out-of-range values open alerts, a trusted device's readings need --secret; and over HTTP as an enrolled
// client device relaying an IoT device linked to it.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iotDataTypes } from '@careplane/shared/common/enums';
import type { IngestionCounts } from '@careplane/shared/iot/iot.contract';
import { alerts, iotDeviceData } from '@/db/schema/index.js';
import { createDevice, createIotDevice, createUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { MQTT_TEST_URL, SECRET, forgetSessions, mqttTestSettings } from './iot.test-helpers.js';

const AGENT = fileURLToPath(new URL('../../../../agent/bin/careplane-agent.mjs', import.meta.url));

const mqttSettings = mqttTestSettings(2);
let context: TestContext;
let admin: ReturnType<typeof api>;
let serverUrl: string;
let workDir: string;
beforeAll(async () => {
  context = await createTestContext(mqttSettings.env);
  admin = api(context);
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  serverUrl = `http://127.0.0.1:${(context.app.server.address() as AddressInfo).port}`;
  workDir = await mkdtemp(join(tmpdir(), 'careplane-simulate-it-'));
});
afterAll(async () => {
  await context?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
  await forgetSessions(mqttSettings.clientId, mqttSettings.connections);
});

/** Runs `careplane-agent simulate-iot` to its end. */
const simulate = (args: string[]) => agent(['simulate-iot', ...args]);

/** Runs a `careplane-agent` command to its end. */
function agent(args: string[]) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [AGENT, ...args], {
      env: { ...process.env, CAREPLANE_AGENT_SOURCES: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Over MQTT the broker cannot tell what a device sends: the test names the types, every one unless told. */
const overMqtt = (hardwareIdentifier: string, count: number, ...more: string[]) =>
  simulate([
    ...(more.includes('--types') ? [] : ['--types', iotDataTypes.join(',')]),
    '--device',
    hardwareIdentifier,
    '--mqtt',
    MQTT_TEST_URL,
    '--topic-prefix',
    mqttSettings.prefix,
    '--rate',
    '400',
    '--count',
    String(count),
    ...more,
  ]);

const counts = async () => (await admin.get('/api/iot-devices/ingestion')).json<IngestionCounts>().mqtt;

/** Waits until the server has dealt with `n` more readings (stored, repeated or refused) than `before`. */
async function handled(before: IngestionCounts['mqtt'], n: number) {
  await expect
    .poll(
      async () => {
        const now = await counts();
        return (
          now.stored + now.duplicates + now.rejected - (before.stored + before.duplicates + before.rejected)
        );
      },
      { timeout: 20_000 },
    )
    .toBe(n);
}

const readingsOf = (iotDeviceId: string) =>
  context.database.db.select().from(iotDeviceData).where(eq(iotDeviceData.iotDeviceId, iotDeviceId));

describe('careplane-agent simulate-iot over MQTT', () => {
  it('sends readings of every type that are stored, and out-of-range ones open alerts', async () => {
    const patient = await createUser(context);
    const device = await createIotDevice(context, { assignedUser: patient.id });
    const before = await counts();
    const run = await overMqtt(device.hardwareIdentifier, 90, '--seed', '4', '--out-of-range', '0.3');
    expect(run.code, run.output).toBe(0);
    const summary = /sent (\d+), refused (\d+), out-of-range (\d+)/.exec(run.output);
    expect(summary, run.output).not.toBeNull();
    const [, sent, refused, outOfRange] = summary!.map(Number);
    expect([sent, refused]).toEqual([90, 0]);
    expect(outOfRange).toBeGreaterThan(0);

    await handled(before, 90);
    const after = await counts();
    expect(after.stored - before.stored).toBe(90);
    expect(after.rejected - before.rejected).toBe(0);
    const stored = await readingsOf(device.id);
    expect(stored).toHaveLength(90);
    expect([...new Set(stored.map((row) => row.dataType))].sort()).toEqual([...iotDataTypes].sort());
    expect(stored.every((row) => typeof row.data.timestamp === 'number')).toBe(true);

    const opened = await context.database.db.select().from(alerts).where(eq(alerts.iotDeviceId, device.id));
    const reasons = new Set(opened.map((alert) => alert.data.reason));
    expect(reasons).toEqual(new Set(['out_of_bounds', 'alert_reading']));
    expect(opened.every((alert) => alert.userId === patient.id && alert.isActive)).toBe(true);
  });

  it('sends only the data types --types names (the server cannot be asked over MQTT)', async () => {
    const device = await createIotDevice(context, { supportedDataTypes: ['heart_rate', 'battery'] });
    const before = await counts();
    const run = await overMqtt(device.hardwareIdentifier, 20, '--types', 'battery,heart_rate');
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('; battery, heart_rate)');
    await handled(before, 20);
    expect((await counts()).rejected - before.rejected).toBe(0);
    const stored = await readingsOf(device.id);
    expect(stored).toHaveLength(20);
    expect(new Set(stored.map((row) => row.dataType))).toEqual(new Set(['heart_rate', 'battery']));
  });

  it('sends a trusted device’s connection secret with --secret; without it the server refuses', async () => {
    const device = await createIotDevice(context, { trustLevel: 'trusted', connectionSecret: SECRET });
    let before = await counts();
    const withSecret = await overMqtt(
      device.hardwareIdentifier,
      12,
      '--secret',
      SECRET,
      '--out-of-range',
      '0',
    );
    expect(withSecret.code, withSecret.output).toBe(0);
    await handled(before, 12);
    expect((await counts()).stored - before.stored).toBe(12);
    expect(await readingsOf(device.id)).toHaveLength(12);

    before = await counts();
    const without = await overMqtt(device.hardwareIdentifier, 6, '--out-of-range', '0');
    expect(without.code, without.output).toBe(0);
    await handled(before, 6);
    expect((await counts()).rejected - before.rejected).toBe(6);
    expect(await readingsOf(device.id)).toHaveLength(12);
    // Nothing opened an alert: no value was out of range.
    expect(await context.database.db.select().from(alerts).where(eq(alerts.iotDeviceId, device.id))).toEqual(
      [],
    );
  });

  it('stops cleanly on Ctrl-C with a summary of what the server has', async () => {
    const device = await createIotDevice(context);
    const child = spawn(
      process.execPath,
      [
        AGENT,
        'simulate-iot',
        '--device',
        device.hardwareIdentifier,
        '--mqtt',
        MQTT_TEST_URL,
        '--topic-prefix',
        mqttSettings.prefix,
        '--rate',
        '50',
        '--out-of-range',
        '0',
        '--types',
        'heart_rate,battery',
      ],
      { env: { ...process.env, CAREPLANE_AGENT_SOURCES: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Running, with no end of its own: stopped once readings are arriving.
    await expect
      .poll(async () => (await readingsOf(device.id)).length, { timeout: 20_000 })
      .toBeGreaterThan(5);
    child.kill('SIGINT');
    expect(await exited, output).toBe(0);
    const summary = /sent (\d+), refused 0, out-of-range 0 in/.exec(output);
    expect(summary, output).not.toBeNull();
    const sent = Number(summary![1]);
    // Each reading the broker acknowledged reaches the server.
    await expect.poll(async () => (await readingsOf(device.id)).length, { timeout: 20_000 }).toBe(sent);
  });

  it('explains wrong arguments with exit code 2', async () => {
    for (const args of [
      ['--device', 'HW-1', '--rate', '5', '--state', '/nonexistent/careplane-agent'], // not enrolled
      ['--device', 'HW-1', '--mqtt', MQTT_TEST_URL, '--rate', '0'],
      ['--device', 'HW-1', '--mqtt', MQTT_TEST_URL, '--rate', '5', '--out-of-range', '2'],
      ['--device', 'HW/1', '--mqtt', MQTT_TEST_URL, '--rate', '5'],
      ['--mqtt', MQTT_TEST_URL, '--rate', '5'],
      ['--device', 'HW-1', '--mqtt', 'http://127.0.0.1', '--rate', '5'],
    ]) {
      const run = await simulate(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.output).toContain('Usage:');
    }
    // A broker that cannot be reached is said so, with exit code 1.
    const unreachable = await simulate([
      '--device',
      'HW-1',
      '--mqtt',
      'mqtt://127.0.0.1:1',
      '--rate',
      '5',
      '--types',
      'heart_rate',
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.output).toContain('The MQTT broker at mqtt://127.0.0.1:1 cannot be reached');
    // Over MQTT without --types, and not enrolled, the agent cannot know what the device sends: it sends nothing.
    const untyped = await simulate([
      '--device',
      'HW-1',
      '--mqtt',
      MQTT_TEST_URL,
      '--rate',
      '5',
      '--state',
      '/nonexistent/careplane-agent',
    ]);
    expect(untyped.code).toBe(2);
    expect(untyped.output).toContain('name them with --types');
  });
});

describe('careplane-agent simulate-iot over HTTP', () => {
  /** A client device linked to `iotDeviceId`, enrolled in a state directory of its own. */
  async function enrolledRelay(iotDeviceId: string) {
    const terminal = await createDevice(context, { title: 'Relay terminal', iotDevices: [iotDeviceId] });
    const state = await mkdtemp(join(workDir, 'state-'));
    const enrolled = await agent([
      'enroll',
      '--server',
      serverUrl,
      '--token',
      terminal.token,
      '--state',
      state,
    ]);
    expect(enrolled.code, enrolled.output).toBe(0);
    return state;
  }

  const summaryOf = (output: string) => {
    const match = /sent (\d+), refused (\d+), out-of-range (\d+)/.exec(output);
    expect(match, output).not.toBeNull();
    const [, sent, refused, outOfRange] = match!.map(Number);
    return { sent: sent!, refused: refused!, outOfRange: outOfRange! };
  };

  it('submits as the enrolled device for a linked IoT device; out-of-range values open alerts', async () => {
    const patient = await createUser(context);
    const band = await createIotDevice(context, { assignedUser: patient.id });
    const state = await enrolledRelay(band.id);
    const run = await simulate([
      ...['--device', band.hardwareIdentifier, '--state', state, '--rate', '400', '--count', '60'],
      ...['--seed', '4', '--out-of-range', '0.3'],
    ]);
    expect(run.code, run.output).toBe(0);
    const summary = summaryOf(run.output);
    expect(summary).toMatchObject({ sent: 60, refused: 0 });
    expect(summary.outOfRange).toBeGreaterThan(0);
    const stored = await readingsOf(band.id);
    expect(stored).toHaveLength(60);
    expect([...new Set(stored.map((row) => row.dataType))].sort()).toEqual([...iotDataTypes].sort());
    const opened = await context.database.db.select().from(alerts).where(eq(alerts.iotDeviceId, band.id));
    expect(opened.map((alert) => alert.data.reason)).toContain('out_of_bounds');
  });

  it("sends only the IoT device's supported data types, learnt from the server; --types narrows them", async () => {
    const band = await createIotDevice(context, { supportedDataTypes: ['heart_rate', 'battery'] });
    const state = await enrolledRelay(band.id);
    const run = await simulate([
      ...['--device', band.hardwareIdentifier, '--state', state, '--rate', '400', '--count', '30'],
      ...['--seed', '9', '--out-of-range', '0'],
    ]);
    expect(run.code, run.output).toBe(0);
    expect(summaryOf(run.output)).toMatchObject({ sent: 30, refused: 0 });
    expect(run.output).toContain('; battery, heart_rate)');
    const stored = await readingsOf(band.id);
    expect(stored).toHaveLength(30);
    expect(new Set(stored.map((row) => row.dataType))).toEqual(new Set(['heart_rate', 'battery']));
    const countOf = async (dataType: string) =>
      (await readingsOf(band.id)).filter((row) => row.dataType === dataType).length;
    const [heartRates, batteries] = [await countOf('heart_rate'), await countOf('battery')];

    const narrowed = await simulate([
      ...['--device', band.hardwareIdentifier, '--state', state, '--rate', '400', '--count', '10'],
      ...['--types', 'heart_rate'],
    ]);
    expect(narrowed.code, narrowed.output).toBe(0);
    expect(summaryOf(narrowed.output)).toMatchObject({ sent: 10, refused: 0 });
    expect([await countOf('heart_rate'), await countOf('battery')]).toEqual([heartRates + 10, batteries]);

    // A type the band does not send is refused before anything is sent.
    const unsupported = await simulate([
      ...['--device', band.hardwareIdentifier, '--state', state, '--rate', '5'],
      ...['--types', 'heart_rate,temperature'],
    ]);
    expect(unsupported.code, unsupported.output).toBe(1);
    expect(unsupported.output).toContain(
      `IoT device "${band.hardwareIdentifier}" does not send temperature readings (its supported data types: heart_rate, battery)`,
    );
    expect(await readingsOf(band.id)).toHaveLength(40);
  });

  it('counts what the server refuses, and will not start for an IoT device not linked to it', async () => {
    // A trusted band's readings without its connection secret: each batch answered 401.
    const band = await createIotDevice(context, { trustLevel: 'trusted', connectionSecret: SECRET });
    const state = await enrolledRelay(band.id);
    const run = await simulate([
      ...['--device', band.hardwareIdentifier, '--state', state, '--rate', '400', '--count', '30'],
      ...['--seed', '9', '--out-of-range', '0'],
    ]);
    expect(run.code, run.output).toBe(0);
    expect(summaryOf(run.output)).toMatchObject({ sent: 0, refused: 30 });
    expect(run.output).toContain('readings refused');
    expect(await readingsOf(band.id)).toEqual([]);

    const other = await createIotDevice(context);
    const unlinked = await simulate(['--device', other.hardwareIdentifier, '--state', state, '--rate', '5']);
    expect(unlinked.code, unlinked.output).toBe(1);
    expect(unlinked.output).toContain(`No IoT device "${other.hardwareIdentifier}" is linked to this device`);
    expect(await readingsOf(other.id)).toEqual([]);
  });
});
