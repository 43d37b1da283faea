// What reaches the log: no credential in a URL, a request id that is sane or new.
import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggableError, loggableReason, loggableUrl, loggerOptions, requestIdOf } from './logging.js';

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

describe('loggableError', () => {
  const token = 'live-refresh-token-9f3a';
  /** A failed statement as drizzle throws it, around the database's own error (PGlite keeps the values too). */
  const failedQuery = () => {
    const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
      query: 'select * from auth_oidc_payloads where id = $1',
      params: [token],
      queryOptions: { rowMode: 'object' },
    });
    return new DrizzleQueryError('select * from auth_oidc_payloads where id = $1', [token], cause);
  };

  it('keeps what went wrong and the statement, never the values it was given', () => {
    const logged = loggableError(failedQuery()) as Record<string, unknown>;
    expect(JSON.stringify(logged)).not.toContain(token);
    expect(logged).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query: select * from auth_oidc_payloads where id = $1',
      params: '[redacted]',
      cause: { code: '22021', message: expect.stringContaining('0x00'), params: '[redacted]' },
    });
    expect(logged.stack).toContain('Failed query: select');
    const plain = loggableError(Object.assign(new Error('boom'), { statusCode: 500 }));
    expect(plain).toMatchObject({ type: 'Error', message: 'boom', statusCode: 500 });
  });

  it("says a warning's reason in one line, with what went wrong and never the values", () => {
    const reason = loggableReason(failedQuery());
    expect(reason).toBe(
      'DrizzleQueryError: Failed query: select * from auth_oidc_payloads where id = $1 (invalid byte sequence for encoding "UTF8": 0x00)',
    );
    expect(reason).not.toContain(token);
    expect(loggableReason('socket closed')).toBe('socket closed');
  });

  it('is how the server logs an error', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = Fastify({ logger: { ...loggerOptions('info'), stream } });
    app.log.error({ err: failedQuery() }, 'auth server error');
    // Something thrown that is not an error is logged as its text.
    app.log.error({ err: 'a thrown string' }, 'odd failure');
    app.log.error({ err: null }, 'odder failure');
    const line = lines.find((entry) => entry.includes('auth server error'));
    expect(line).toBeDefined();
    expect(line).not.toContain(token);
    expect(line).toContain('0x00');
    const odd = JSON.parse(lines.find((entry) => entry.includes('"odd failure"'))!) as { err: unknown };
    expect(odd.err).toMatchObject({ type: 'string', message: 'a thrown string' });
    expect(lines.some((entry) => entry.includes('odder failure'))).toBe(true);
    await app.close();
  });
});
