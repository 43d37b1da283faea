// JSON bodies: parsed once, refused when nested deeper than any contract needs.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/errors.js';

export const MAX_JSON_DEPTH = 24;

function depthOf(value: unknown, limit: number): number {
  // Iterative, so a hostile body cannot overflow the stack.
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return max;
}

export const jsonBodyPlugin = fp(async (app: FastifyInstance) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, raw, done) => {
    const text = raw as string;
    if (text.length === 0) return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(badRequest('Body is not valid JSON'), undefined);
    }
    if (depthOf(parsed, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      return done(badRequest(`Body is nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
    }
    done(null, parsed);
  });
});
