// A body that stops arriving is answered 408 in the request's language (Accept-Language), before the
// connection is closed.
import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { stalledBodyPlugin } from './stalled-body.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
});

/** Sends the head and the start of a body that never ends; answers what came back before the socket closed. */
function stalled(port: number, language: string) {
  return new Promise<string>((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(
        'POST /things HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          `Accept-Language: ${language}\r\nContent-Length: 100\r\n\r\n{"a":`,
      ),
    );
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
    setTimeout(() => socket.destroy(), 5_000).unref();
  });
}

describe('a body that stops arriving', () => {
  it('is answered 408 in the request’s language', async () => {
    app = Fastify();
    await app.register(stalledBodyPlugin, { idleMs: 1_000, tickMs: 100 });
    app.post('/things', async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;

    const thai = await stalled(port, 'th-TH,th;q=0.9');
    expect(thai).toMatch(/^HTTP\/1\.1 408/);
    expect(thai).toMatch(/content-language: th/i);
    expect(thai).toContain('"message":"ข้อมูลที่ส่งหยุดส่งมาเป็นเวลา 1 วินาที"');
    const english = await stalled(port, 'en');
    expect(english).toMatch(/content-language: en/i);
    expect(english).toContain('"message":"The request body stopped arriving for 1 seconds"');
  });
});
