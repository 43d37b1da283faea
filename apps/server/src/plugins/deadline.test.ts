// The deadline's own answer: a 504 in the error shape and the request's language, even when the route had begun
// to describe an answer of another kind (a static file sets its type and length before reading it).
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { deadlinePlugin } from './deadline.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
});

describe('the request deadline', () => {
  it('answers 504 as JSON in place of a static file that was still being read', async () => {
    app = Fastify();
    await app.register(deadlinePlugin, { ms: 50 });
    let release: () => void = () => undefined;
    app.get('/assets/app.js', async (_request, reply) => {
      reply.type('application/javascript').header('content-length', '12345').header('etag', '"abc"');
      await new Promise<void>((resolve) => (release = resolve));
      return reply;
    });
    const answer = await app.inject({ method: 'GET', url: '/assets/app.js' });
    release();
    expect(answer.statusCode).toBe(504);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers.etag).toBeUndefined();
    expect(answer.json()).toEqual({
      statusCode: 504,
      error: 'Gateway Timeout',
      message: 'The request took too long to answer: try again shortly',
    });
  });

  it('says so in the request’s language', async () => {
    app = Fastify();
    await app.register(deadlinePlugin, { ms: 20 });
    app.get('/slow', () => new Promise(() => undefined));
    const thai = await app.inject({ method: 'GET', url: '/slow', headers: { 'accept-language': 'th' } });
    expect(thai.statusCode).toBe(504);
    expect(thai.headers['content-language']).toBe('th');
    expect(thai.json()).toEqual({
      statusCode: 504,
      error: 'Gateway Timeout',
      message: 'คำขอนี้ใช้เวลานานเกินไป โปรดลองอีกครั้งในอีกสักครู่',
    });
    const english = await app.inject({ method: 'GET', url: '/slow' });
    expect(english.headers['content-language']).toBe('en');
    expect(english.json<{ message: string }>().message).toBe(
      'The request took too long to answer: try again shortly',
    );
  });
});
