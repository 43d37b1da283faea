import { describe, expect, it } from 'vitest';
import { parseDsn } from './error-reporting.ts';

describe('the error-reporting DSN', () => {
  it('names the envelope endpoint and the public key', () => {
    expect(parseDsn('https://abc123@errors.example.org/42')).toEqual({
      endpoint: 'https://errors.example.org/api/42/envelope/',
      publicKey: 'abc123',
      dsn: 'https://abc123@errors.example.org/42',
    });
    expect(parseDsn('https://key@example.org/sentry/7')?.endpoint).toBe(
      'https://example.org/sentry/api/7/envelope/',
    );
  });

  it('ignores a DSN without key or project', () => {
    expect(parseDsn('https://errors.example.org/42')).toBeUndefined();
    expect(parseDsn('https://key@errors.example.org/')).toBeUndefined();
    expect(parseDsn('not a url')).toBeUndefined();
  });
});
