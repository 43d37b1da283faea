// /api/metrics as Prometheus scrapes it, read back with a Prometheus text-format parser: requests by route,
// latencies, IoT readings taken in and refused, jobs by status, live streams, signatures completed; who may
// read it (an admin, or a scraper with METRICS_TOKEN); and the health checks beside it.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerOnPhone,
  createDevice,
  createIotDevice,
  createServiceProvider,
  createSigningUser,
} from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';

const TOKEN = 'a-metrics-token-of-the-test';
let context: TestContext;

beforeAll(async () => {
  context = await createTestContext({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => {
  await context?.close();
});

async function scrape() {
  const answer = await context.app.inject({
    method: 'GET',
    url: '/api/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  // The parser throws on any line that is not the text format.
  const families = new Map(parsePrometheusTextFormat(answer.body).map((family) => [family.name, family]));
  const sample = (name: string, labels: Record<string, string> = {}) =>
    families
      .get(name)
      ?.metrics.find((metric) =>
        Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
      );
  return { families, sample, text: answer.body };
}

describe('/api/metrics', () => {
  it('counts requests by route pattern and status, with their latencies', async () => {
    const device = await createDevice(context);
    for (let i = 0; i < 3; i++) await api(context).get(`/api/devices/${device.id}`);
    await api(context).get('/api/devices/00000000-0000-7000-8000-000000000000');
    const { families, sample, text } = await scrape();
    expect(families.get('careplane_http_requests_total')?.type).toBe('COUNTER');
    expect(
      Number(sample('careplane_http_requests_total', { route: '/api/devices/:id', status: '200' })?.value),
    ).toBe(3);
    expect(
      Number(sample('careplane_http_requests_total', { route: '/api/devices/:id', status: '404' })?.value),
    ).toBe(1);
    expect(families.get('careplane_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    // The parser folds a histogram's label sets into one: its series are read from the lines.
    expect(text).toMatch(
      /^careplane_http_request_duration_seconds_count\{method="GET",route="\/api\/devices\/:id"\} 4$/m,
    );
    // The raw URL never becomes a label (the ids would make the series without bound).
    expect(JSON.stringify([...families.values()])).not.toContain(device.id);
    // The process itself.
    expect(families.has('process_cpu_user_seconds_total')).toBe(true);
  });

  it('counts IoT readings stored and refused, jobs by status and live streams', async () => {
    const iot = await createIotDevice(context, { supportedDataTypes: ['heart_rate'] });
    const submit = (dataType: string, data: object[]) =>
      api(context).post('/api/iot-devices/data/submit', { iotDeviceId: iot.id, dataType, data });
    expect(
      (
        await submit('heart_rate', [
          { timestamp: 1_720_000_000_001, rate: 70 },
          { timestamp: 1_720_000_000_002, rate: 71 },
        ])
      ).statusCode,
    ).toBe(201);
    expect((await submit('battery', [{ timestamp: 1_720_000_000_003, level: 50 }])).statusCode).toBe(400);
    const device = await createDevice(context);
    await api(context).post('/api/devices/jobs', {
      purpose: 'Metrics',
      commands: ['reboot'],
      device: device.id,
    });
    const { sample } = await scrape();
    expect(
      Number(sample('careplane_iot_readings_total', { transport: 'http', outcome: 'stored' })?.value),
    ).toBe(2);
    expect(
      Number(sample('careplane_iot_readings_total', { transport: 'http', outcome: 'refused' })?.value),
    ).toBe(1);
    expect(Number(sample('careplane_device_jobs', { status: 'NEW' })?.value)).toBeGreaterThanOrEqual(1);
    expect(Number(sample('careplane_live_streams')?.value)).toBe(0);
  });

  it('counts the signatures this process completed, by outcome', async () => {
    // Every outcome has its series at 0 before the first signature ends, so a rate or an alert sees the first.
    const before = await scrape();
    for (const outcome of ['signed', 'denied', 'expired', 'failed']) {
      expect(Number(before.sample('careplane_signature_completions_total', { outcome })?.value)).toBe(0);
    }
    const pharmacy = await createServiceProvider(context, { title: 'Metrics Pharmacy', type: 'pharmacy' });
    const couriers = await createServiceProvider(context, { title: 'Metrics Couriers', type: 'courier' });
    const doctor = await createSigningUser(context, 'Mona', { localRoles: ['doctor'] });
    const patient = await createSigningUser(context, 'Pat', { localRoles: ['patient'] });
    const write = async () => {
      const written = await api(context, doctor.token).post('/api/prescriptions', {
        issuer: doctor.id,
        supplier: pharmacy.id,
        recipient: patient.id,
        shipper: couriers.id,
        content: [{ name: 'Paracetamol', quantity: 10 }],
      });
      expect(written.statusCode, written.body).toBe(201);
      return written.json<{ id: string }>().id;
    };
    for (const [decision, ended] of [
      ['approve', 'signed'],
      ['deny', 'denied'],
    ] as const) {
      const id = await write();
      const started = await api(context, doctor.token).post(`/api/prescriptions/${id}/issue`);
      expect(started.statusCode, started.body).toBe(202);
      const { requestId } = started.json<{ requestId: string }>();
      await answerOnPhone(doctor, requestId, decision);
      const state = await api(context, doctor.token).get(`/api/prescriptions/${id}/signing/${requestId}`);
      expect(state.json(), state.body).toMatchObject({ status: ended });
    }
    // The server ends each request as its phone answers, and a look ends it too, whichever comes first: the
    // process that won counts it once its write has committed, which may be just after the look answered.
    const completions = async (outcome: string) =>
      Number((await scrape()).sample('careplane_signature_completions_total', { outcome })?.value ?? 0);
    await expect.poll(() => completions('signed'), { timeout: 15_000, interval: 50 }).toBe(1);
    await expect.poll(() => completions('denied'), { timeout: 15_000, interval: 50 }).toBe(1);
  });

  it('answers a scraper with the metrics token, an admin, and nobody else', async () => {
    const get = (authorization?: string) =>
      context.app.inject({
        method: 'GET',
        url: '/api/metrics',
        ...(authorization ? { headers: { authorization } } : {}),
      });
    const missing = await get();
    expect(missing.statusCode).toBe(401);
    expect(missing.json().message).toBe('A metrics token is required');
    // A wrong token is told apart from none, so an operator knows to look at the scraper's secret.
    const wrong = await get('Bearer not-the-metrics-token-at-all');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('This is not the metrics token the server was given (METRICS_TOKEN)');
    expect((await get(`Bearer ${context.userToken}`)).statusCode).toBe(401);
    expect((await get(`Bearer ${TOKEN}`)).statusCode).toBe(200);

    const withoutToken = await createTestContext();
    try {
      expect((await api(withoutToken).get('/api/metrics')).statusCode).toBe(200);
      expect((await api(withoutToken, withoutToken.userToken).get('/api/metrics')).statusCode).toBe(403);
    } finally {
      await withoutToken.close();
    }
  });
});

describe('health', () => {
  it('answers liveness and readiness without a token, and sends back the request id', async () => {
    const live = await context.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.json()).toMatchObject({ status: 'ok' });
    const ready = await context.app.inject({
      method: 'GET',
      url: '/api/health/ready',
      headers: { 'x-request-id': 'scrape-42' },
    });
    expect(ready.statusCode).toBe(200);
    // Redis and the broker are reported only when configured (outside-services.int.test.ts): here neither is.
    expect(ready.json()).toEqual({ status: 'ready', database: 'up' });
    expect(ready.headers['x-request-id']).toBe('scrape-42');
    const { families } = await scrape();
    expect(families.get('careplane_outside_service_up')?.metrics ?? []).toEqual([]);
    expect(families.get('careplane_mqtt_connections')?.metrics ?? []).toEqual([]);
    const generated = await context.app.inject({
      method: 'GET',
      url: '/api/health/live',
      headers: { 'x-request-id': 'not a sane id; drop table' },
    });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
