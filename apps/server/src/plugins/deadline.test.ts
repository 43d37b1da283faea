// The deadline's own answer: a 504 in the error shape and the request's language, even when the route had begun
// to describe an answer of another kind (a static file sets its type and length before reading it).
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
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

  it('says nothing of a request whose client went away before its deadline', async () => {
    const warnings: string[] = [];
    const stream = { write: (line: string) => warnings.push(line) };
    app = Fastify({ logger: { level: 'warn', stream } });
    // Long enough that the client's going away is seen well before it, even on a busy machine.
    await app.register(deadlinePlugin, { ms: 300 });
    let arrived: () => void = () => undefined;
    const routeRan = new Promise<void>((resolve) => (arrived = resolve));
    let abortSeen: () => void = () => undefined;
    const aborted = new Promise<void>((resolve) => (abortSeen = resolve));
    app.addHook('onRequestAbort', (_request, done) => {
      abortSeen();
      done();
    });
    app.get('/slow', () => {
      arrived();
      return new Promise(() => undefined);
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const client = httpRequest(`${address}/slow`);
    client.on('error', () => undefined);
    client.end();
    await routeRan;
    const started = Date.now();
    client.destroy();
    await aborted;
    // Past the deadline: had the timer stayed, it would have warned and tried to answer by now.
    await sleep(Math.max(0, started + 400 - Date.now()));
    expect(warnings.filter((line) => line.includes('deadline'))).toEqual([]);
  });

  it('still warns of a request that passed its deadline', async () => {
    const warnings: string[] = [];
    app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => warnings.push(line) } } });
    await app.register(deadlinePlugin, { ms: 20 });
    app.get('/slow', () => new Promise(() => undefined));
    expect((await app.inject({ method: 'GET', url: '/slow' })).statusCode).toBe(504);
    expect(warnings.filter((line) => line.includes('a request passed its deadline'))).toHaveLength(1);
  });
});
