// JSON bodies: the only body type, read by lib/json-text.ts (parsed once; refused when not UTF-8, too deep, or
// carrying NUL, lone surrogates or prototype keys), never decompressed.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, serviceTexts } from '@/lib/errors.js';
import { readJsonText } from '@/lib/json-text.js';

export const jsonBodyPlugin = fp(async (app: FastifyInstance) => {
  app.removeContentTypeParser('application/json');
  // The API speaks JSON only: a text/plain body is a 415, not a string handed to a JSON schema.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
    // Never decompressed (a small body can unpack to a huge one): said so, rather than read as broken JSON.
    const encoding = request.headers['content-encoding'];
    if (encoding && encoding.trim().toLowerCase() !== 'identity') {
      return done(new AppError(415, serviceTexts.bodyCompressed), undefined);
    }
    const bytes = raw as Buffer;
    if (bytes.length === 0) return done(null, undefined);
    const read = readJsonText(bytes);
    if ('refusal' in read) return done(read.refusal, undefined);
    done(null, read.value);
  });
});
