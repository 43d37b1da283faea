// JSON text from outside (an HTTP body, an MQTT message): parsed once, refused when not UTF-8, when nested deeper
// than any contract needs, when carrying NUL characters (the database stores none) or lone surrogates (no
// character: stored, they would come back as replacement characters), or prototype keys (__proto__,
// constructor.prototype). Every check is iterative, so a hostile text cannot overflow the stack here or in what
// reads the value afterwards.
import { isUtf8 } from 'node:buffer';
import type { AppError } from '@/lib/errors.js';
import { badRequest, serviceTexts } from '@/lib/errors.js';

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

/** The value the bytes hold as JSON, or why they are refused (a 400 to send, or to count and log). */
export function readJsonText(bytes: Buffer): { value: unknown } | { refusal: AppError } {
  // Decoded as it is, bytes that are not UTF-8 would become replacement characters and be stored so.
  if (!isUtf8(bytes)) return { refusal: badRequest(serviceTexts.bodyNotUtf8) };
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { refusal: badRequest(serviceTexts.bodyNotJson) };
  }
  const refusal = refusalOf(value, MAX_JSON_DEPTH);
  return refusal ? { refusal } : { value };
}
