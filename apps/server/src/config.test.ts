import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@/config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ INIT_CWD: '/srv/careplane' });
    expect(config).toMatchObject({
      port: 3000,
      dataDir: path.resolve('/srv/careplane', '.data'),
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      demoData: true,
      logLevel: 'info',
      timeZone: 'Asia/Bangkok',
    });
    expect(config.auth).toMatchObject({
      issuer: 'http://localhost:3000/auth',
      jwksUrl: 'http://localhost:3000/auth/jwks',
      audience: 'careplane-api',
    });
  });

  it('derives the issuer from PUBLIC_URL and reads DEMO_DATA=0', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://care.example/', DEMO_DATA: '0', PORT: '8080' });
    expect(config.auth.issuer).toBe('https://care.example/auth');
    expect(config.demoData).toBe(false);
    expect(config.port).toBe(8080);
  });

  it('loads no demo data in production on PostgreSQL unless DEMO_DATA=1', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db.example/careplane' };
    expect(loadConfig(production).demoData).toBe(false);
    expect(loadConfig({ ...production, DEMO_DATA: '1' }).demoData).toBe(true);
    expect(loadConfig({ ...production, DEMO_DATA: 'true' }).demoData).toBe(true);
    // Either condition alone keeps the default: the embedded database, or PostgreSQL outside production.
    expect(loadConfig({ NODE_ENV: 'production' }).demoData).toBe(true);
    expect(loadConfig({ DATABASE_URL: production.DATABASE_URL }).demoData).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', DATABASE_URL: production.DATABASE_URL }).demoData).toBe(
      true,
    );
    expect(loadConfig({ DATABASE_URL: production.DATABASE_URL, DEMO_DATA: '0' }).demoData).toBe(false);
  });

  it('refuses a malformed value and names it', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrowError(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrowError(/DATABASE_URL/);
    expect(() => loadConfig({ TIME_ZONE: 'Bangkok' })).toThrowError(/TIME_ZONE/);
    expect(loadConfig({ TIME_ZONE: 'Asia/Ho_Chi_Minh' }).timeZone).toBe('Asia/Ho_Chi_Minh');
  });

  it('reads the MQTT and IoT settings, with their defaults, and refuses malformed bounds', () => {
    const defaults = loadConfig({ PORT: '3100' });
    expect(defaults.mqtt).toMatchObject({
      url: undefined,
      topicPrefix: 'careplane/iot',
      shareGroup: 'careplane',
      connections: 16,
      receiveMaximum: 1000,
      sessionExpiry: 3600,
    });
    expect(defaults.mqtt.clientId).toMatch(/^careplane-.+-3100$/);
    expect(defaults.iot).toMatchObject({ batchSize: 500, batchDelayMs: 5 });
    expect(defaults.iot.bounds.heart_rate).toEqual({ rate: { min: 40, max: 130 } });
    const set = loadConfig({
      MQTT_URL: 'mqtt://broker:1883',
      MQTT_CLIENT_ID: 'api-1',
      IOT_ALERT_BOUNDS: 'heart_rate.rate=45..125',
    });
    expect(set.mqtt).toMatchObject({ url: 'mqtt://broker:1883', clientId: 'api-1' });
    expect(set.iot.bounds.heart_rate).toEqual({ rate: { min: 45, max: 125 } });
    expect(() => loadConfig({ IOT_ALERT_BOUNDS: 'heart_rate.rate=fast' })).toThrowError(/IOT_ALERT_BOUNDS/);
    expect(() => loadConfig({ MQTT_TOPIC_PREFIX: 'careplane/#' })).toThrowError(/MQTT_TOPIC_PREFIX/);
    expect(() => loadConfig({ MQTT_CONNECTIONS: '0' })).toThrowError(/MQTT_CONNECTIONS/);
    expect(() => loadConfig({ MQTT_RECEIVE_MAXIMUM: '70000' })).toThrowError(/MQTT_RECEIVE_MAXIMUM/);
    expect(() => loadConfig({ MQTT_URL: 'ws://broker:8080/mqtt' })).toThrowError(/MQTT_URL/);
  });

  it('reads the documents settings: passphrase from the environment or a file, else the encryption key', () => {
    const defaults = loadConfig({ INIT_CWD: '/srv/careplane' });
    expect(defaults.documents).toMatchObject({
      maxBytes: 20 * 1024 * 1024,
      verifyRateLimit: 30,
      caPassphrase: { source: 'encryption-key' },
    });
    expect(defaults.production).toBe(false);

    const fromEnv = loadConfig({ DOCUMENTS_CA_PASSPHRASE: 'correct horse battery', NODE_ENV: 'production' });
    expect(fromEnv.production).toBe(true);
    expect(fromEnv.documents.caPassphrase.source).toBe('environment');
    // Printing or serialising the configuration never shows the passphrase.
    expect(JSON.stringify(fromEnv)).not.toContain('correct horse battery');
    const source = fromEnv.documents.caPassphrase;
    expect(source.source === 'environment' && source.reveal()).toBe('correct horse battery');

    const fromFile = loadConfig({
      INIT_CWD: '/srv/careplane',
      DOCUMENTS_CA_PASSPHRASE_FILE: 'secrets/ca.pass',
      DOCUMENTS_MAX_BYTES: '1048576',
      DOCUMENTS_VERIFY_RATE_LIMIT: '5',
    });
    expect(fromFile.documents).toMatchObject({
      maxBytes: 1048576,
      verifyRateLimit: 5,
      caPassphrase: { source: 'file', path: path.resolve('/srv/careplane', 'secrets/ca.pass') },
    });
    // Set but empty counts as not set.
    expect(loadConfig({ DOCUMENTS_CA_PASSPHRASE: '' }).documents.caPassphrase.source).toBe('encryption-key');
  });

  it('refuses a short passphrase, both sources at once and an absurd size limit', () => {
    expect(() => loadConfig({ DOCUMENTS_CA_PASSPHRASE: 'short' })).toThrowError(/DOCUMENTS_CA_PASSPHRASE/);
    expect(() =>
      loadConfig({
        DOCUMENTS_CA_PASSPHRASE: 'long enough passphrase',
        DOCUMENTS_CA_PASSPHRASE_FILE: '/run/x',
      }),
    ).toThrowError(/DOCUMENTS_CA_PASSPHRASE_FILE: set DOCUMENTS_CA_PASSPHRASE or/);
    expect(() => loadConfig({ DOCUMENTS_MAX_BYTES: '10' })).toThrowError(/DOCUMENTS_MAX_BYTES/);
    expect(() => loadConfig({ DOCUMENTS_MAX_BYTES: 'lots' })).toThrowError(/DOCUMENTS_MAX_BYTES/);
  });
});
