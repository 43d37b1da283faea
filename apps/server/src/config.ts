// Configuration comes from the environment only, parsed once at start.
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseReadingBounds } from '@careplane/shared/iot/iot.contract';
import { DEFAULT_TIME_ZONE, isTimeZone } from '@careplane/shared/common/http';

const booleanFlag = z
  .enum(['0', '1', 'true', 'false'])
  .transform((value) => value === '1' || value === 'true');

/** `NAME=` (set but empty, as compose files and CI forms often leave it) counts as not set. */
const unsetIfBlank = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema);

/**
 * Where the documents' CA passphrase comes from: DOCUMENTS_CA_PASSPHRASE, DOCUMENTS_CA_PASSPHRASE_FILE, or
 * (by default) derived from the server's encryption key, which seals every other private key too.
 */
export type CaPassphraseSource =
  | { source: 'environment'; reveal: () => string }
  | { source: 'file'; path: string }
  | { source: 'encryption-key' };

const configSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./.data'),
    /** Set by npm to the folder it was started in. */
    INIT_CWD: z.string().optional(),
    DATABASE_URL: z
      .string()
      .url()
      .refine((value) => /^postgres(ql)?:\/\//.test(value), {
        message: 'Must be a PostgreSQL address: postgres://user:password@host:5432/database',
      })
      .optional(),
    /** PostgreSQL: how long a request waits for a connection, a statement and a lock at most (ms; 0: no limit). */
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(20_000),
    DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
    /** Every request is answered within this (ms): past it, 504. */
    REQUEST_DEADLINE_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
    /** The bearer token Prometheus scrapes /api/metrics with; without one only admins read the metrics. */
    SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(120).default(0),
    METRICS_TOKEN: unsetIfBlank(z.string().min(16, 'at least 16 characters').max(512).optional()),
    /** Live event streams open at once in a process, per user and per ticket (429 beyond). */
    EVENTS_MAX_STREAMS_PER_USER: z.coerce.number().int().min(1).max(1000).default(10),
    EVENTS_MAX_STREAMS_PER_TICKET: z.coerce.number().int().min(1).max(100).default(2),
    PUBLIC_URL: z.string().url().optional(),
    /** The platform's time zone: the day printed on the prescriptions and receipts it generates. */
    TIME_ZONE: z
      .string()
      .refine(isTimeZone, { message: 'Must be a time zone such as Asia/Bangkok' })
      .default(DEFAULT_TIME_ZONE),
    AUTH_ISSUER: z.string().url().optional(),
    AUTH_JWKS_URL: z.string().url().optional(),
    AUTH_AUDIENCE: z.string().min(1).default('careplane-api'),
    // The auth server (mounted at /auth unless AUTH_SERVER=0). Lifetimes in seconds.
    AUTH_SERVER: booleanFlag.default(true),
    AUTH_RESOURCE: z.string().url().optional(),
    AUTH_ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).max(86_400).default(1800),
    AUTH_REFRESH_TOKEN_TTL: z.coerce.number().int().min(60).max(2_592_000).default(43_200),
    AUTH_REQUEST_TTL: z.coerce.number().int().min(10).max(600).default(300),
    AUTH_POLL_INTERVAL: z.coerce.number().int().min(1).max(60).default(3),
    AUTH_ENROLLMENT_TTL: z.coerce.number().int().min(60).max(2_592_000).default(604_800),
    AUTH_QR_SECRET_ROTATION: z.coerce.number().int().min(0).max(600).default(5),
    AUTH_SIGNING_KEY_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    AUTH_RATE_LIMIT_PER_IDENTITY: z.coerce.number().int().min(1).default(10),
    AUTH_RATE_LIMIT_PER_CLIENT: z.coerce.number().int().min(1).default(300),
    AUTH_RATE_LIMIT_PER_KEY: z.coerce.number().int().min(1).default(120),
    /** Demo data into an empty database: on by default, off by default in production on PostgreSQL. */
    DEMO_DATA: booleanFlag.optional(),
    NODE_ENV: z.string().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DEVICE_DOMAINS: z.string().default('careplane.local'),
    REDIS_URL: z.string().url().optional(),
    /** Every key this server writes to Redis starts with it (several deployments can share one Redis). */
    REDIS_KEY_PREFIX: z.string().min(1).max(100).default('careplane:'),
    MQTT_URL: unsetIfBlank(
      z
        .string()
        .url()
        .refine((url) => /^mqtts?:\/\//.test(url), 'an mqtt:// or mqtts:// address')
        .optional(),
    ),
    /** Readings arrive on `<MQTT_TOPIC_PREFIX>/<hardwareIdentifier>/<dataType>`. */
    MQTT_TOPIC_PREFIX: z
      .string()
      .regex(/^[^#+$][^#+]*[^#+/]$/, 'a topic without wildcards, not starting with $ or ending with /')
      .default('careplane/iot'),
    /** The shared-subscription group: server processes in one group split the messages between them. */
    MQTT_SHARE_GROUP: z
      .string()
      .regex(/^[^/#+]+$/)
      .default('careplane'),
    /** Client id stem of this process's MQTT sessions (kept across restarts); default careplane-<host>-<port>. */
    MQTT_CLIENT_ID: unsetIfBlank(
      z
        .string()
        .regex(/^[A-Za-z0-9_.-]{1,40}$/)
        .optional(),
    ),
    /** MQTT connections this process subscribes with (the shared subscription spreads messages over them). */
    MQTT_CONNECTIONS: z.coerce.number().int().min(1).max(256).default(16),
    /** Messages the broker may have in flight to each connection, unacknowledged until their batch commits. */
    MQTT_RECEIVE_MAXIMUM: z.coerce.number().int().min(1).max(65_535).default(1000),
    /** How long the broker keeps this process's sessions (and queues their messages) while it is away, s. */
    MQTT_SESSION_EXPIRY: z.coerce.number().int().min(0).max(604_800).default(3600),
    /** Readings written per transaction at most, and how long the first one waits for others (ms). */
    IOT_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
    IOT_BATCH_DELAY_MS: z.coerce.number().int().min(0).max(1000).default(5),
    /** Bounds that open alerts, over the defaults: `heart_rate.rate=40..130,battery.level=off`. */
    IOT_ALERT_BOUNDS: unsetIfBlank(
      z
        .string()
        .optional()
        .superRefine((value, context) => {
          try {
            parseReadingBounds(value);
          } catch (error) {
            context.addIssue({ code: 'custom', message: (error as Error).message });
          }
        }),
    ),
    /**
     * Which proxies may tell the client's address (X-Forwarded-For): none by default; a hop count, or a
     * comma-separated list of addresses and CIDR ranges (also `loopback`, `linklocal`, `uniquelocal`).
     */
    TRUST_PROXY: unsetIfBlank(
      z
        .string()
        .regex(
          /^(\d{1,2}|[0-9A-Za-z.:/]+(\s*,\s*[0-9A-Za-z.:/]+)*)$/,
          'a hop count or a comma-separated list of proxy addresses',
        )
        .refine(
          (value) => !/^(true|\*|all)$/i.test(value.trim()),
          'name the proxies (trusting every client is refused)',
        )
        .optional(),
    ),
    /** Key (32 bytes, base64 or hex) that encrypts private keys at rest; or a file holding it. */
    ENCRYPTION_KEY: unsetIfBlank(z.string().min(32).max(200).optional()),
    ENCRYPTION_KEY_FILE: unsetIfBlank(z.string().min(1).optional()),
    /** Writes (POST, PATCH, PUT, DELETE) under /api per signed-in caller and minute. */
    API_WRITE_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
    // The console's runtime settings, served as /config.json (decisions §8).
    SUPPORT_EMAIL: unsetIfBlank(z.string().email().max(254).default('support@careplane.local')),
    GOOGLE_PLAY_URL: unsetIfBlank(z.string().url().max(2048).optional()),
    APP_STORE_URL: unsetIfBlank(z.string().url().max(2048).optional()),
    MAPS_API_KEY: unsetIfBlank(z.string().max(512).optional()),
    MAPS_REGION: unsetIfBlank(
      z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'a two-letter region code')
        .default('TH'),
    ),
    MAPS_LANGUAGE: unsetIfBlank(
      z
        .string()
        .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a language tag')
        .default('th'),
    ),
    SENTRY_DSN: unsetIfBlank(z.string().url().max(2048).optional()),
    // Documents: the signing CA's passphrase (a value, or a file holding it), upload limits.
    DOCUMENTS_CA_PASSPHRASE: unsetIfBlank(z.string().min(12, 'at least 12 characters').max(1024).optional()),
    DOCUMENTS_CA_PASSPHRASE_FILE: unsetIfBlank(z.string().min(1).max(4096).optional()),
    DOCUMENTS_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(512 * 1024 * 1024)
      .default(20 * 1024 * 1024),
    DOCUMENTS_VERIFY_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(30),
    /** Uploads (and verifications) one person (or address) may send at once to a process; one more is a 429. */
    DOCUMENTS_MAX_CONCURRENT_UPLOADS: z.coerce.number().int().min(1).max(100).default(2),
    /**
     * How often (s) a process looks for signatures whose phone answered while no process heard it (a restart,
     * a lost connection) and for requests that expired; answers heard on the change feed complete at once.
     */
    DOCUMENTS_SIGNING_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  })
  .refine((env) => !(env.DOCUMENTS_CA_PASSPHRASE && env.DOCUMENTS_CA_PASSPHRASE_FILE), {
    path: ['DOCUMENTS_CA_PASSPHRASE_FILE'],
    message: 'set DOCUMENTS_CA_PASSPHRASE or DOCUMENTS_CA_PASSPHRASE_FILE, not both',
  })
  .transform((env) => {
    const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
    const authIssuer = (env.AUTH_ISSUER ?? `${publicUrl}/auth`).replace(/\/$/, '');
    // Relative to where npm was started (the repository root for `npm start`), not the workspace folder.
    const base = env.INIT_CWD ?? process.cwd();
    const dataDir = path.resolve(base, env.DATA_DIR);
    const passphrase = env.DOCUMENTS_CA_PASSPHRASE;
    return {
      port: env.PORT,
      host: env.HOST,
      /**
       * On SIGTERM, how long readiness answers 503 `closing` while requests are still served, before the port
       * closes: a load balancer that polls readiness takes the process out first (decision 075).
       */
      shutdownDrainSeconds: env.SHUTDOWN_DRAIN_SECONDS,
      production: env.NODE_ENV === 'production',
      /** Check every answer against its contract with zod as well (tests; decision 045). */
      checkAnswers: env.NODE_ENV === 'test',
      dataDir,
      databaseUrl: env.DATABASE_URL,
      database: {
        connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
        lockTimeoutMs: env.DATABASE_LOCK_TIMEOUT_MS,
      },
      requestDeadlineMs: env.REQUEST_DEADLINE_MS,
      // A function, so that printing the configuration never shows the token.
      metricsToken:
        env.METRICS_TOKEN === undefined
          ? null
          : (
              (token: string) => () =>
                token
            )(env.METRICS_TOKEN),
      events: {
        maxStreamsPerUser: env.EVENTS_MAX_STREAMS_PER_USER,
        maxStreamsPerTicket: env.EVENTS_MAX_STREAMS_PER_TICKET,
      },
      publicUrl,
      timeZone: env.TIME_ZONE,
      auth: {
        issuer: authIssuer,
        jwksUrl: env.AUTH_JWKS_URL ?? `${authIssuer}/jwks`,
        audience: env.AUTH_AUDIENCE,
        server: {
          enabled: env.AUTH_SERVER,
          resource: env.AUTH_RESOURCE ?? `${publicUrl}/api`,
          accessTokenTtl: env.AUTH_ACCESS_TOKEN_TTL,
          refreshTokenTtl: env.AUTH_REFRESH_TOKEN_TTL,
          requestTtl: env.AUTH_REQUEST_TTL,
          pollInterval: env.AUTH_POLL_INTERVAL,
          enrollmentTtl: env.AUTH_ENROLLMENT_TTL,
          qrSecretRotation: env.AUTH_QR_SECRET_ROTATION,
          signingKeyMaxAgeDays: env.AUTH_SIGNING_KEY_MAX_AGE_DAYS,
          rateLimitPerIdentity: env.AUTH_RATE_LIMIT_PER_IDENTITY,
          rateLimitPerClient: env.AUTH_RATE_LIMIT_PER_CLIENT,
          rateLimitPerKey: env.AUTH_RATE_LIMIT_PER_KEY,
        },
      },
      // A production server on its own PostgreSQL starts empty unless asked; anything else gets the demo.
      demoData: env.DEMO_DATA ?? !(env.NODE_ENV === 'production' && env.DATABASE_URL !== undefined),
      logLevel: env.LOG_LEVEL,
      deviceDomains: env.DEVICE_DOMAINS.split(',')
        .map((domain) => domain.trim())
        .filter(Boolean),
      redisUrl: env.REDIS_URL,
      redisKeyPrefix: env.REDIS_KEY_PREFIX,
      mqttUrl: env.MQTT_URL,
      mqtt: {
        url: env.MQTT_URL,
        topicPrefix: env.MQTT_TOPIC_PREFIX,
        shareGroup: env.MQTT_SHARE_GROUP,
        clientId: env.MQTT_CLIENT_ID ?? `careplane-${hostname().slice(0, 20)}-${env.PORT}`,
        connections: env.MQTT_CONNECTIONS,
        receiveMaximum: env.MQTT_RECEIVE_MAXIMUM,
        sessionExpiry: env.MQTT_SESSION_EXPIRY,
      },
      iot: {
        batchSize: env.IOT_BATCH_SIZE,
        batchDelayMs: env.IOT_BATCH_DELAY_MS,
        bounds: parseReadingBounds(env.IOT_ALERT_BOUNDS),
      },
      trustProxy: parseTrustProxy(env.TRUST_PROXY),
      encryption: {
        key: env.ENCRYPTION_KEY,
        keyFile: env.ENCRYPTION_KEY_FILE,
      },
      apiWriteRateLimit: env.API_WRITE_RATE_LIMIT,
      console: {
        supportEmail: env.SUPPORT_EMAIL,
        googlePlayUrl: env.GOOGLE_PLAY_URL ?? null,
        appStoreUrl: env.APP_STORE_URL ?? null,
        mapsKey: env.MAPS_API_KEY ?? null,
        mapsRegion: env.MAPS_REGION.toUpperCase(),
        mapsLanguage: env.MAPS_LANGUAGE,
        sentryDsn: env.SENTRY_DSN ?? null,
      },
      documents: {
        maxBytes: env.DOCUMENTS_MAX_BYTES,
        verifyRateLimit: env.DOCUMENTS_VERIFY_RATE_LIMIT,
        maxConcurrentUploads: env.DOCUMENTS_MAX_CONCURRENT_UPLOADS,
        signingSweepSeconds: env.DOCUMENTS_SIGNING_SWEEP_SECONDS,
        caPassphrase: ((): CaPassphraseSource => {
          if (passphrase !== undefined) {
            // A function, so that printing or serialising the configuration never shows it.
            return { source: 'environment', reveal: () => passphrase };
          }
          if (env.DOCUMENTS_CA_PASSPHRASE_FILE) {
            return { source: 'file', path: path.resolve(base, env.DOCUMENTS_CA_PASSPHRASE_FILE) };
          }
          return { source: 'encryption-key' };
        })(),
      },
    };
  });

export type AppConfig = z.infer<typeof configSchema>;

/** Fastify's trustProxy: false (trust no proxy), a hop count, or the addresses of the trusted proxies. */
function parseTrustProxy(value: string | undefined): false | number | string[] {
  if (value === undefined) return false;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) || false;
  return trimmed
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** Settings that do not parse: the message names each setting and what is wrong with it. */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigurationError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
