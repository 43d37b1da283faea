import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

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

  it('refuses a malformed value and names it', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrowError(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrowError(/DATABASE_URL/);
  });
});
