// What an operator watches, in Prometheus' terms (prom-client): requests and their latencies by route, IoT
// readings taken in and refused, runner jobs by status, the database pool, live event streams, signatures
// completed, whether Redis and the MQTT broker answer, and the process itself. One registry per app (tests build many apps in one process); the values
// that live elsewhere are read when scraped.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '@/db/client.js';
import type { DevicesService } from '@/modules/devices/devices.service.js';
import type { DocumentsService } from '@/modules/documents/documents.service.js';
import type { SigningOutcome } from '@/modules/documents/signing-settlement.service.js';
import type { EventsService } from '@/modules/events/events.service.js';
import type { IotService } from '@/modules/iot/iot.service.js';
import { outsideStates, type OutsideServices } from '@/lib/outside-services.js';

export interface MetricsSources {
  database: DatabaseHandle;
  iot: Pick<IotService, 'ingestionCounts'>;
  devices: Pick<DevicesService, 'runner'>;
  events: Pick<EventsService, 'streamCount'>;
  documents: Pick<DocumentsService, 'onSigningEnded'>;
  outside: OutsideServices;
}

/** Latency buckets, seconds: from a cached read to the request deadline. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createMetricsService(sources: MetricsSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'careplane_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'careplane_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  new Counter({
    name: 'careplane_iot_readings_total',
    help: 'IoT readings this process took in since it started, by transport and outcome',
    labelNames: ['transport', 'outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const counts = sources.iot.ingestionCounts();
      for (const transport of ['http', 'mqtt'] as const) {
        const channel = counts[transport];
        this.inc({ transport, outcome: 'stored' }, channel.stored);
        this.inc({ transport, outcome: 'duplicate' }, channel.duplicates);
        this.inc({ transport, outcome: 'refused' }, channel.rejected);
      }
    },
  });
  new Counter({
    name: 'careplane_iot_refused_messages_total',
    help: 'IoT messages (HTTP submissions, MQTT publishes) refused since the process started',
    labelNames: ['transport'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const counts = sources.iot.ingestionCounts();
      this.inc({ transport: 'http' }, counts.http.rejectedMessages);
      this.inc({ transport: 'mqtt' }, counts.mqtt.rejectedMessages);
    },
  });

  new Gauge({
    name: 'careplane_device_jobs',
    help: 'Device runner jobs by status (the whole database)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const counts = await sources.devices.runner.countByStatus();
      this.reset();
      for (const { status, count } of counts) this.set({ status }, count);
    },
  });

  const { driver } = sources.database;
  new Gauge({
    name: 'careplane_database_pool_connections',
    help: 'PostgreSQL pool connections of this process: total, idle, and requests waiting for one',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      if (driver.kind !== 'postgres') return;
      this.set({ state: 'total' }, driver.pool.totalCount);
      this.set({ state: 'idle' }, driver.pool.idleCount);
      this.set({ state: 'waiting' }, driver.pool.waitingCount);
    },
  });

  new Gauge({
    name: 'careplane_live_streams',
    help: 'Live event streams open in this process',
    registers: [registry],
    collect() {
      this.set(sources.events.streamCount());
    },
  });

  // Only what this process is configured to use has a series: an absent one is not a failing one.
  new Gauge({
    name: 'careplane_outside_service_up',
    help: 'Whether Redis (sign-in limits) and the MQTT broker (readings) answer this process now: 1 or 0',
    labelNames: ['service'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const states = outsideStates(sources.outside);
      if (states.redis) this.set({ service: 'redis' }, states.redis === 'up' ? 1 : 0);
      if (states.broker) this.set({ service: 'mqtt_broker' }, states.broker === 'up' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'careplane_mqtt_connections',
    help: "This process's connections to the MQTT broker: subscribed now, and in all (MQTT_CONNECTIONS)",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      if (!sources.outside.broker) return;
      const { subscribed, total } = sources.outside.broker.connections();
      this.set({ state: 'subscribed' }, subscribed);
      this.set({ state: 'total' }, total);
    },
  });

  const signatures = new Counter({
    name: 'careplane_signature_completions_total',
    help: 'Signatures asked of phones that this process ended, by outcome (signed, denied, expired, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // Every outcome is there from the start at 0: a rate over a series that appears with its first sample
  // misses that sample, and an alert on failures needs the series before the first one.
  const outcomes = [
    'signed',
    'denied',
    'expired',
    'failed',
  ] as const satisfies readonly SigningOutcome['status'][];
  for (const outcome of outcomes) signatures.inc({ outcome }, 0);
  sources.documents.onSigningEnded((outcome) => signatures.inc({ outcome: outcome.status }));

  return {
    /** Counts one answered request; `route` is the route's pattern, never the raw URL (bounded labels). */
    recordRequest(method: string, route: string, status: number, seconds: number) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    /** The exposition text and its content type. */
    async scrape(): Promise<{ contentType: string; body: string }> {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export type MetricsService = ReturnType<typeof createMetricsService>;
