// What reaches the log: no credential in a URL, a request id that is sane or new.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loggableUrl, requestIdOf } from './logging.js';

describe('loggableUrl', () => {
  it('replaces the values of credential parameters and keeps the rest', () => {
    expect(loggableUrl('/api/events?ticket=eyJhbGciOi.secret&lastEventId=42')).toBe(
      '/api/events?ticket=%5Bredacted%5D&lastEventId=42',
    );
    expect(loggableUrl('/auth/token?code=abc&state=x&Token=t')).toBe(
      '/auth/token?code=%5Bredacted%5D&state=x&Token=%5Bredacted%5D',
    );
    expect(loggableUrl('/api/users?filters=status~enrolled')).toBe('/api/users?filters=status%7Eenrolled');
    expect(loggableUrl('/api/health')).toBe('/api/health');
  });
});

describe('requestIdOf', () => {
  const withHeader = (value: string | undefined) =>
    ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as IncomingMessage;

  it("keeps a proxy's sane id and makes a new one otherwise", () => {
    expect(requestIdOf(withHeader('req-7f3a.1:2'))).toBe('req-7f3a.1:2');
    for (const bad of ['', 'has space', 'a'.repeat(65), 'x\ny']) {
      expect(requestIdOf(withHeader(bad))).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(requestIdOf(withHeader(undefined))).toMatch(/^[0-9a-f-]{36}$/);
  });
});
