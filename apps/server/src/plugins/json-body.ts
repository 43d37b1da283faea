// JSON bodies: the only body type; parsed once, refused when not UTF-8, when nested deeper than any contract
// needs, when carrying NUL characters (the database stores none) or lone surrogates (no character: stored, they
// would come back as replacement characters), or prototype keys (__proto__, constructor.prototype).
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, badRequest, serviceTexts } from '@/lib/errors.js';

export const MAX_JSON_DEPTH = 24;

const hasNul = (text: string) => text.includes('\u0000');
/** A high surrogate without its low one after it, or a low one without its high one before it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Where a value sits in the body: its key under its parent (the body itself has none). */
interface Place {
  parent: Place | null;
  key: string;
}

/** A place as a refusal names it: `body.data.3.rate`. Built only for a refusal, not for every key. */
const pathOf = (place: Place | null): string =>
  place ? `${pathOf(place.parent)}.${place.key.split('\u0000').join('\\0')}` : 'body';

/** The first reason to refuse a parsed body, or null. Iterative, so a hostile body cannot overflow the stack. */
function refusalOf(value: unknown, limit: number): AppError | null {
  const stack: Array<[unknown, number, Place | null]> = [[value, 1, null]];
  while (stack.length) {
    const [current, depth, place] = stack.pop()!;
    if (typeof current === 'string') {
      if (hasNul(current)) {
        return badRequest(serviceTexts.bodyHasNul, [
          { path: pathOf(place), message: 'Must not contain NUL characters' },
        ]);
      }
      if (LONE_SURROGATE.test(current)) {
        return badRequest(serviceTexts.bodyHasLoneSurrogate, [
          { path: pathOf(place), message: 'Must be text: a lone surrogate is not a character' },
        ]);
      }
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return badRequest(serviceTexts.bodyTooDeep(limit));
    for (const [key, child] of Object.entries(current)) {
      const childPlace = { parent: place, key };
      if (hasNul(key)) {
        return badRequest(serviceTexts.bodyHasNul, [
          { path: pathOf(childPlace), message: 'Keys must not contain NUL characters' },
        ]);
      }
      if (
        key === '__proto__' ||
        (key === 'constructor' && typeof child === 'object' && child !== null && 'prototype' in child)
      ) {
        return badRequest(serviceTexts.bodyForbiddenKey, [
          { path: pathOf(childPlace), message: 'Forbidden key' },
        ]);
      }
      // A number, boolean or null has nothing to refuse: only strings and containers are looked into.
      if (typeof child === 'string' || (typeof child === 'object' && child !== null)) {
        stack.push([child, depth + 1, childPlace]);
      }
    }
  }
  return null;
}

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
    // Decoded as it is, bytes that are not UTF-8 would become replacement characters and be stored so.
    if (!isUtf8(bytes)) return done(badRequest(serviceTexts.bodyNotUtf8), undefined);
    const text = bytes.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(badRequest(serviceTexts.bodyNotJson), undefined);
    }
    const refusal = refusalOf(parsed, MAX_JSON_DEPTH);
    if (refusal) return done(refusal, undefined);
    done(null, parsed);
  });
});
