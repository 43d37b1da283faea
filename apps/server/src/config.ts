// Configuration comes from the environment only, parsed once at start.
import path from 'node:path';
import { z } from 'zod';

const booleanFlag = z
  .enum(['0', '1', 'true', 'false'])
  .transform((value) => value === '1' || value === 'true');

const configSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./.data'),
    DATABASE_URL: z.string().url().optional(),
    PUBLIC_URL: z.string().url().optional(),
    AUTH_ISSUER: z.string().url().optional(),
    AUTH_JWKS_URL: z.string().url().optional(),
    AUTH_AUDIENCE: z.string().min(1).default('careplane-api'),
    DEMO_DATA: booleanFlag.default(true),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DEVICE_DOMAINS: z.string().default('careplane.local'),
    REDIS_URL: z.string().url().optional(),
    MQTT_URL: z.string().url().optional(),
  })
  .transform((env) => {
    const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
    const authIssuer = (env.AUTH_ISSUER ?? `${publicUrl}/auth`).replace(/\/$/, '');
    return {
      port: env.PORT,
      host: env.HOST,
      dataDir: path.resolve(env.DATA_DIR),
      databaseUrl: env.DATABASE_URL,
      publicUrl,
      auth: {
        issuer: authIssuer,
        jwksUrl: env.AUTH_JWKS_URL ?? `${authIssuer}/jwks`,
        audience: env.AUTH_AUDIENCE,
      },
      demoData: env.DEMO_DATA,
      logLevel: env.LOG_LEVEL,
      deviceDomains: env.DEVICE_DOMAINS.split(',')
        .map((domain) => domain.trim())
        .filter(Boolean),
      redisUrl: env.REDIS_URL,
      mqttUrl: env.MQTT_URL,
    };
  });

export type AppConfig = z.infer<typeof configSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
