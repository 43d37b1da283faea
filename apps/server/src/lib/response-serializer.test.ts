// Answers the database wrote (decision 058) go out as they came, and under check (every test) must read back
// as exactly what the contract and the route's writer make of them: an extra field, a wrong type or a field
// missing fails the request instead of reaching a client.
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createResponseSerializerCompiler,
  UNITS_ENCODED_UNMEASURED,
  WrittenAnswer,
} from './response-serializer.js';

const answer = z.object({
  items: z.array(z.object({ id: z.string(), count: z.number().int(), note: z.string().nullable() })),
  total: z.number().int().nullable(),
});

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function serve(check: boolean, body: unknown) {
  const app = Fastify({ logger: false });
  apps.push(app);
  app.setSerializerCompiler(createResponseSerializerCompiler({ check }));
  app.get('/list', { schema: { response: { 200: answer } } }, async () => body);
  return app.inject({ url: '/list' });
}

const written =
  '{"items":[{"id":"a","count":2,"note":"ดวงใจ \\"x\\""},{"id":"b","count":0,"note":null}],"total":2}';

describe('answers the database wrote', () => {
  it('go out byte for byte, as JSON', async () => {
    for (const check of [false, true]) {
      const response = await serve(check, new WrittenAnswer(written));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toBe(written);
    }
  });

  it('go out as the join of their pieces, whatever the characters', async () => {
    const pieces = [
      '{"items":',
      '[{"id":"a","count":2,"note":"ดวงใจ 🩺 é"},{"id":"b","count":0,"note":"\\u0000 \\" ข"}]',
      ',"total":2}',
    ];
    const text = pieces.join('');
    for (const check of [false, true]) {
      const response = await serve(check, new WrittenAnswer(...pieces));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['content-length']).toBe(String(Buffer.byteLength(text)));
      expect(response.rawPayload.equals(Buffer.from(text, 'utf8'))).toBe(true);
    }
    expect(new WrittenAnswer(...pieces).text).toBe(text);
    // A lone surrogate is written as UTF-8 writes it (U+FFFD), never as bytes left unset.
    expect(new WrittenAnswer('"\ud800', 'x"').bytes().equals(Buffer.from('"\ud800x"', 'utf8'))).toBe(true);
  });

  it('go out whole when every character takes the most bytes UTF-8 gives it, short or long', () => {
    // Thai letters (three bytes each), lone surrogates (three), emoji (four for two code units), none Latin-1.
    const widest = ['"ดวงใจ', '\ud800'.repeat(5), '🩺🩺', 'ข"'];
    for (const times of [1, 7, Math.ceil(UNITS_ENCODED_UNMEASURED / 12) + 1]) {
      const pieces = widest.map((piece) => piece.repeat(times));
      const bytes = new WrittenAnswer(...pieces).bytes();
      expect(bytes.equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
    }
  });

  it('fail under check when they differ from the contract', async () => {
    const wrong = [
      // a field the contract does not have
      '{"items":[{"id":"a","count":2,"note":null,"secret":"x"}],"total":1}',
      // a number written as text
      '{"items":[{"id":"a","count":"2","note":null}],"total":1}',
      // a field missing
      '{"items":[{"id":"a","count":2}],"total":1}',
      // a total that is not an integer
      '{"items":[],"total":1.5}',
    ];
    for (const text of wrong) {
      expect((await serve(true, new WrittenAnswer(text))).statusCode).toBe(500);
      // Without check (a running server) the text is trusted, as the writer's output is.
      expect((await serve(false, new WrittenAnswer(text))).body).toBe(text);
    }
  });

  it('leave other answers to the writer', async () => {
    const value = { items: [{ id: 'a', count: 1, note: null, dropped: true }], total: null };
    for (const check of [false, true]) {
      const response = await serve(check, value);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ items: [{ id: 'a', count: 1, note: null }], total: null });
    }
  });
});
