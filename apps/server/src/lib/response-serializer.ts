// Answers written from the contract's JSON Schema by fast-json-stringify, compiled once per route and status,
// instead of parsing every answer with zod and then calling JSON.stringify (fastify-type-provider-zod's
// serializer, which the CPU profile of every list path showed among the hottest frames; decision 045).
//
// What stays the same: only the properties the contract declares are written (an object's unknown keys are
// left out, as zod's strip did; a `looseObject` writes them all), in the contract's order; a type JSON Schema
// cannot describe (a Date) is written by JSON.stringify; optional properties left undefined are left out. A
// schema that cannot be turned into JSON Schema at all keeps the zod serializer for that route.
// `check: true` (every test) also runs the zod serializer, as before, and compares the two answers, so a
// drift between a service and its contract, or between the two writers, fails a test; a running server
// trusts the types and those tests.
import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const zodSerializer = createSerializerCompiler({});

/**
 * `anyOf: [X, {type: 'null'}]`, zod's form of `.nullable()`, as `type: [X's type, 'null']`: fast-json-stringify
 * writes that directly, where an anyOf costs a schema validation per value to pick the branch.
 */
function simplify(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplify);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) out[key] = simplify(value);
  const anyOf = out.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullIndex = anyOf.findIndex((branch) => branch.type === 'null' && Object.keys(branch).length === 1);
    const other = anyOf[1 - nullIndex];
    if (nullIndex !== -1 && other && typeof other.type === 'string' && !other.anyOf && !other.oneOf) {
      delete out.anyOf;
      return { ...out, ...other, type: [other.type, 'null'] };
    }
  }
  return out;
}

/** The JSON Schema of an answer as fast-json-stringify reads it, or undefined when it has none. */
export function responseJsonSchema(schema: z.ZodType): JsonSchema | undefined {
  try {
    const json = z.toJSONSchema(schema, {
      io: 'output',
      target: 'draft-7',
      // A type JSON Schema cannot describe (a Date, a custom type) becomes `{}`: written by JSON.stringify,
      // as the zod serializer wrote it (a Date as its ISO string).
      unrepresentable: 'any',
      // Descriptions and ids play no part in writing an answer: every schema inline, $refs only for cycles.
      metadata: z.registry(),
      reused: 'inline',
    }) as JsonSchema;
    delete json.$schema;
    return simplify(json) as JsonSchema;
  } catch {
    return undefined;
  }
}

/** The longest text (in UTF-16 code units) a written answer encodes without measuring it first. */
export const UNITS_ENCODED_UNMEASURED = 1 << 20;

/**
 * An answer already written as JSON (by the database, decision 058): the serializer sends its text as it comes.
 * Under `check`, the text is read back and must be exactly what the contract's zod serializer makes of it: no
 * field the contract leaves out, none missing, every value of its type.
 */
export class WrittenAnswer<Answer = unknown> {
  /** What the text writes, for the types only: a route's answer of one contract cannot stand for another's. */
  declare readonly answer?: Answer;
  /** The answer's JSON text in pieces (a list's envelope around the page's array), joined only as bytes. */
  readonly parts: readonly string[];
  constructor(...parts: string[]) {
    this.parts = parts;
  }

  /** The whole text, for checks and tests. */
  get text(): string {
    return this.parts.join('');
  }

  /**
   * The text as the UTF-8 bytes the socket is sent, each piece encoded straight into its place. Joined as a
   * string first, a page's array (18–110 kB) would be copied once more to flatten the join, then encoded
   * (decision 070). Up to a megabyte of text, the pieces are encoded into room for their longest UTF-8
   * (three bytes a UTF-16 code unit, four for a pair) without measuring them first: measuring a string that
   * holds any character past Latin-1 costs as much as encoding it. Longer text is measured, to keep the
   * room it takes to its size.
   */
  bytes(): Buffer {
    const units = this.parts.reduce((sum, part) => sum + part.length, 0);
    const room =
      units <= UNITS_ENCODED_UNMEASURED
        ? units * 3
        : this.parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0);
    const bytes = Buffer.allocUnsafe(room);
    let at = 0;
    for (const part of this.parts) at += bytes.write(part, at, 'utf8');
    return bytes.subarray(0, at);
  }
}

/**
 * An answer, or its written form, as the answer a route typed by its contract (the zod type provider) returns:
 * the route's serializer sends a WrittenAnswer's text as it comes, and under `check` reads it back through that
 * same contract, so to the route's types it is the answer it writes.
 */
export const asAnswer = <Answer>(answer: Answer | WrittenAnswer<Answer>): Answer => answer as Answer;

export interface ResponseSerializerOptions {
  /**
   * Also check every answer against its zod schema (a mismatch throws, as the zod serializer did), and that
   * what fast-json-stringify wrote reads back as what the zod serializer would have written.
   */
  check?: boolean;
}

export function createResponseSerializerCompiler(
  options: ResponseSerializerOptions = {},
): FastifySerializerCompiler<z.ZodType> {
  return (route) => {
    const schema = route.schema;
    const json = schema instanceof z.ZodType ? responseJsonSchema(schema) : undefined;
    const checked = zodSerializer(route);
    const differs = (what: string, written: string, expected: string) =>
      new Error(
        `${route.method} ${route.url} ${route.httpStatus}: ${what} differs from the contract's: ${written} vs ${expected}`,
      );
    // Fastify sends a Buffer from a serializer as it is (the route has set its JSON content type already).
    const writtenAnswer = (data: WrittenAnswer): string => {
      if (options.check) {
        const read: unknown = JSON.parse(data.text);
        const expected = checked(read);
        if (!isDeepStrictEqual(read, JSON.parse(expected)))
          throw differs('the answer the database wrote', data.text, expected);
      }
      // A Buffer, under the string type Fastify's serializer signature names: nothing reads it as a string.
      return data.bytes() as unknown as string;
    };
    const write = json ? (fastJson(json) as (data: unknown) => string) : undefined;
    const writeChecked = (data: unknown) => {
      const expected = checked(data);
      if (!write) return expected;
      const written = write(data);
      if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected)))
        throw differs('the answer written from JSON Schema', written, expected);
      return written;
    };
    const other = options.check ? writeChecked : (write ?? checked);
    return (data: unknown) => (data instanceof WrittenAnswer ? writtenAnswer(data) : other(data));
  };
}
