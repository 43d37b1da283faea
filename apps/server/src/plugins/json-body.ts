// JSON bodies: the only body type; parsed once, refused when nested deeper than any contract needs, when
// carrying NUL characters (the database stores none) or prototype keys (__proto__, constructor.prototype).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type AppError, badRequest, serviceTexts } from '@/lib/errors.js';

export const MAX_JSON_DEPTH = 24;

const hasNul = (text: string) => text.includes('\u0000');

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
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, raw, done) => {
    const text = raw as string;
    if (text.length === 0) return done(null, undefined);
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
