// The stress layer's tools (docs/decisions/041): the operations of the app's own OpenAPI document, requests
// for them (valid-shaped from their schemas, or malformed), the documented error body, and the row count of
// every table, so a refused request can be shown to have written nothing.
import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import type { TestContext } from './harness.js';

/** A JSON schema as @fastify/swagger writes it (only what the generators read). */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  /** The OpenAPI path, `{id}` style. */
  path: string;
  /** The Fastify route, `:id` style: the key of the access declarations. */
  route: string;
  parameters: Parameter[];
  /** The JSON body's schema, when the operation takes one. */
  body?: JsonSchema;
  /** The body's media types (application/json, multipart/form-data, application/pdf, …). */
  bodyTypes: string[];
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }
    >
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Every operation of the app's OpenAPI document (the one /api/openapi.json serves). */
export async function operationsOf(
  context: TestContext,
): Promise<{ operations: Operation[]; resolve: (schema: JsonSchema) => JsonSchema }> {
  const response = await context.app.inject({ method: 'GET', url: '/api/openapi.json' });
  if (response.statusCode !== 200) throw new Error(`/api/openapi.json answered ${response.statusCode}`);
  const document = response.json<OpenApiDocument>();
  const components = document.components?.schemas ?? {};
  const resolve = (schema: JsonSchema): JsonSchema => {
    let current = schema;
    for (let hops = 0; current.$ref && hops < 10; hops++) {
      current = components[current.$ref.replace('#/components/schemas/', '')] ?? {};
    }
    return current;
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!['get', 'post', 'patch', 'delete', 'put'].includes(method)) continue;
      const content = operation.requestBody?.content ?? {};
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        route: path.replace(/\{(\w+)\}/g, ':$1'),
        parameters: operation.parameters ?? [],
        body: content['application/json']?.schema,
        bodyTypes: Object.keys(content),
      });
    }
  }
  return { operations, resolve };
}

// --- Values -----------------------------------------------------------------------------------------------

/** Strings that have broken parsers, queries and encoders somewhere: empties, overflows, NULs, unicode, SQL. */
export const nastyStrings = [
  '',
  ' ',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1.5',
  '1e309',
  '-9223372036854775809',
  '99999999999999999999999999',
  'NaN',
  'Infinity',
  '\u0000',
  'a\u0000b',
  '%00',
  '%',
  '%zz',
  '../../../etc/passwd',
  "'; drop table users; --",
  '" or 1=1 --',
  '\\',
  '<script>alert(1)</script>',
  '\ud800',
  '\uffff',
  'e\u0301\u200b\u202e',
  '😀'.repeat(300),
  'ß'.repeat(5000),
  'x'.repeat(70_000),
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '0190b6a0-0000-7000-8000-00000000000g',
  '{"$gt":""}',
  '[]',
  '{}',
  'id:asc',
  'status~',
  '~',
  ',,,',
];

const nastyString = fc.constantFrom(...nastyStrings);

/** Numbers on and past every edge a column or a parser has. */
const nastyNumber = fc.constantFrom(
  -1,
  0,
  -0,
  0.5,
  2 ** 31,
  2 ** 53,
  -(2 ** 63),
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  1e21,
);

/** A JSON value of a type other than the one asked for. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  nastyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(nastyString, { maxLength: 3 }),
  fc.dictionary(nastyString, nastyString, { maxKeys: 3 }),
);

/** Arrays nested past any sensible depth (the JSON body parser has a limit). */
export const deepNesting = fc
  .integer({ min: 50, max: 2000 })
  .map((depth) => '['.repeat(depth) + ']'.repeat(depth));

/**
 * A value the schema accepts by shape, wrong in what it means where it can be: ids of records that do not
 * exist (or of the pool's records, which may be the wrong kind), times far away, the schema's edge lengths.
 */
export function valueOf(
  schema: JsonSchema,
  resolve: (schema: JsonSchema) => JsonSchema,
  ids: readonly string[],
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (depth > 4) return fc.constant(null);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length)
    return fc.oneof(...alternatives.map((inner) => valueOf(inner, resolve, ids, depth + 1)));
  if (s.allOf?.length) return valueOf(s.allOf[0]!, resolve, ids, depth + 1);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => valueOf({ ...s, type }, resolve, ids, depth + 1)));
  }
  const type = types[0] ?? (s.properties ? 'object' : undefined);
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1_000_000);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1_000_000);
      const low = Math.max(min, -Number.MAX_SAFE_INTEGER);
      const high = Math.min(max, Number.MAX_SAFE_INTEGER);
      return fc.oneof(
        fc.integer({ min: Math.max(low, -(2 ** 31)), max: Math.min(high, 2 ** 31) }),
        fc.constantFrom(low, high),
      );
    }
    case 'number': {
      const min = s.minimum ?? s.exclusiveMinimum ?? -1e12;
      const max = s.maximum ?? s.exclusiveMaximum ?? 1e12;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'string': {
      if (s.format === 'uuid') return fc.oneof(fc.uuid(), ids.length ? fc.constantFrom(...ids) : fc.uuid());
      if (s.format === 'email') return fc.emailAddress();
      if (s.format === 'date-time') {
        return fc
          .date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true })
          .map((d) => d.toISOString());
      }
      if (s.format === 'date') {
        return fc
          .date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      }
      const minLength = s.minLength ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 40, 200));
      return fc.oneof(
        fc.string({ minLength, maxLength, unit: 'grapheme' }),
        fc.constant('x'.repeat(maxLength)),
      );
    }
    case 'array': {
      const minLength = s.minItems ?? 0;
      return fc.array(s.items ? valueOf(s.items, resolve, ids, depth + 1) : fc.jsonValue(), {
        minLength,
        maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)),
      });
    }
    case 'object': {
      const properties = s.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, inner] of Object.entries(properties))
        model[key] = valueOf(inner, resolve, ids, depth + 1);
      return fc.record(model, { requiredKeys: (s.required ?? []).filter((key) => key in properties) });
    }
    case undefined:
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A valid-shaped object broken one way: a required field gone, a field of the wrong type, a field too many. */
export function mutated(
  schema: JsonSchema,
  resolve: (schema: JsonSchema) => JsonSchema,
  ids: readonly string[],
): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const valid = valueOf(s, resolve, ids);
  const keys = Object.keys(s.properties ?? {});
  if (!keys.length) return fc.oneof(valid, wrongValue);
  return fc.tuple(valid, fc.constantFrom(...keys), wrongValue, fc.nat(3)).map(([value, key, wrong, how]) => {
    const object = value && typeof value === 'object' && !Array.isArray(value) ? { ...value } : {};
    const record = object as Record<string, unknown>;
    if (how === 0) delete record[key];
    else if (how === 1) record[key] = wrong;
    else if (how === 2) record[`extra_${key}`] = wrong;
    else record['__proto__'] = wrong;
    return record;
  });
}

// --- Requests ---------------------------------------------------------------------------------------------

/** One generated request, printable when it fails. */
export interface StressRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Percent-encoded; a lone surrogate goes as bytes that are not UTF-8 at all (%ED%A0%80). */
function encode(value: unknown) {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
  }
}

/** Which of the query's keys the list conventions know, to aim bad values at them. */
const listKeys = ['filters', 'filtersLike', 'sort', 'relations', 'limit', 'offset', 'from', 'to', 'fields'];

/**
 * A request for the operation: mostly malformed (path, query, body, media type), some valid-shaped but wrong
 * (unknown ids, out-of-range values the schema admits). `token` null: anonymous.
 */
export function requestFor(
  operation: Operation,
  resolve: (schema: JsonSchema) => JsonSchema,
  ids: readonly string[],
  token: string | null,
): fc.Arbitrary<StressRequest> {
  const pathParams = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParams = operation.parameters.filter((parameter) => parameter.in === 'query');

  const pathValue = (parameter: Parameter) =>
    fc.oneof(
      { weight: 2, arbitrary: parameter.schema ? valueOf(parameter.schema, resolve, ids) : fc.uuid() },
      { weight: 2, arbitrary: nastyString },
      { weight: 1, arbitrary: wrongValue },
    );
  const path = fc
    .tuple(...pathParams.map(pathValue))
    .map((values) =>
      pathParams.reduce(
        (url, parameter, index) => url.replace(`{${parameter.name}}`, encode(values[index])),
        operation.path,
      ),
    );

  const queryEntry = fc.oneof(
    // Valid-shaped values of the operation's own parameters.
    ...(queryParams.length
      ? [
          fc
            .constantFrom(...queryParams)
            .chain((parameter) =>
              (parameter.schema ? valueOf(parameter.schema, resolve, ids) : fc.string()).map(
                (value) => [parameter.name, value] as const,
              ),
            ),
        ]
      : []),
    // The list conventions with bad paths and values.
    fc.tuple(
      fc.constantFrom(...listKeys, ...queryParams.map((parameter) => parameter.name)),
      fc.oneof(
        nastyString,
        wrongValue,
        fc
          .tuple(fc.constantFrom('status', 'id', 'createdAt', 'password', 'nope.deep', 'roles'), nastyString)
          .map(([key, value]) => `${key}~${value}`),
        fc
          .tuple(
            fc.constantFrom('createdAt', 'id', 'nope', 'title'),
            fc.constantFrom('asc', 'desc', 'up', ''),
          )
          .map(([key, direction]) => `${key}:${direction}`),
      ),
    ),
  );
  const query = fc
    .array(queryEntry, { maxLength: 4 })
    .map((entries) => entries.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&'));

  const sendsBody = operation.method !== 'GET' && operation.method !== 'DELETE';
  const jsonBody = operation.body;
  type Body = { payload?: string; contentType?: string };
  const bodies: fc.Arbitrary<Body>[] = [fc.constant({})];
  if (sendsBody || operation.bodyTypes.length) {
    const json = (value: fc.Arbitrary<unknown>) =>
      value.map((v): Body => ({ payload: JSON.stringify(v) ?? 'null', contentType: 'application/json' }));
    if (jsonBody) {
      bodies.push(json(valueOf(jsonBody, resolve, ids)), json(mutated(jsonBody, resolve, ids)));
    }
    bodies.push(
      json(wrongValue),
      json(fc.jsonValue({ maxDepth: 3 })),
      fc.constantFrom<Body>(
        { payload: '{"a":', contentType: 'application/json' },
        { payload: '{"a":1}{"b":2}', contentType: 'application/json' },
        { payload: "{'single':'quotes'}", contentType: 'application/json' },
        { payload: '', contentType: 'application/json' },
        { payload: '\u0000', contentType: 'application/json' },
        { payload: '{"__proto__":{"isAdmin":true}}', contentType: 'application/json' },
        { payload: '{"constructor":{"prototype":{"isAdmin":true}}}', contentType: 'application/json' },
        { payload: 'plain words', contentType: 'text/plain' },
        { payload: '<a/>', contentType: 'application/xml' },
        { payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
        {
          payload: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nnot a pdf\r\n--x--\r\n',
          contentType: 'multipart/form-data; boundary=x',
        },
        { payload: '--x\r\n\r\n', contentType: 'multipart/form-data' },
        { payload: '%PDF-1.7\n%%EOF', contentType: 'application/pdf' },
        { payload: '{}', contentType: 'application/json; charset=utf-7' },
        { payload: '{}', contentType: 'nonsense' },
      ),
      deepNesting.map((payload): Body => ({ payload, contentType: 'application/json' })),
      fc.constant<Body>({
        payload: JSON.stringify({ big: 'y'.repeat(1024 * 1024 + 10) }),
        contentType: 'application/json',
      }),
    );
  }
  const body = fc.oneof(...bodies);

  return fc.tuple(path, query, body).map(([url, search, { payload, contentType }]) => ({
    method: operation.method,
    url: search ? `${url}?${search}` : url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(contentType ? { 'content-type': contentType } : {}),
    },
    ...(payload !== undefined ? { payload } : {}),
  }));
}

export const inject = (context: TestContext, request: StressRequest): Promise<LightMyRequestResponse> =>
  context.app.inject({
    method: request.method as InjectOptions['method'],
    url: request.url,
    headers: request.headers,
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });

/** A short, printable form of a request (big bodies cut). */
export const describe = (request: StressRequest) =>
  `${request.method} ${request.url.slice(0, 300)} ${request.headers['content-type'] ?? ''} ${(request.payload ?? '').slice(0, 200)}`;

// --- Answers ------------------------------------------------------------------------------------------------

/** What is wrong with a refusal's body, by decisions §2 (`{ statusCode, error, message, issues? }`); null when nothing. */
export function errorBodyProblem(response: LightMyRequestResponse): string | null {
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return `not JSON (${String(response.headers['content-type'])}): ${response.body.slice(0, 200)}`;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return `not an object: ${response.body.slice(0, 200)}`;
  const record = body as Record<string, unknown>;
  const extra = Object.keys(record).filter(
    (key) => !['statusCode', 'error', 'message', 'issues'].includes(key),
  );
  if (extra.length) return `extra keys ${extra.join(', ')}`;
  if (record.statusCode !== response.statusCode)
    return `statusCode ${String(record.statusCode)} in a ${response.statusCode}`;
  if (typeof record.error !== 'string' || typeof record.message !== 'string')
    return 'error or message is not a string';
  if (record.issues !== undefined) {
    if (!Array.isArray(record.issues)) return 'issues is not a list';
    for (const issue of record.issues as unknown[]) {
      const entry = issue as Record<string, unknown>;
      if (
        typeof entry?.path !== 'string' ||
        typeof entry?.message !== 'string' ||
        Object.keys(entry).length !== 2
      ) {
        return `an issue is not { path, message }: ${JSON.stringify(issue).slice(0, 200)}`;
      }
    }
  }
  if (
    /\bat [\w.<>]+ \(|node_modules|\/src\/|select .* from|insert into|violates .* constraint/i.test(
      response.body,
    )
  ) {
    return `leaks internals: ${response.body.slice(0, 300)}`;
  }
  return null;
}

// --- Rows ---------------------------------------------------------------------------------------------------

/** A function that counts the rows of every table of the database (every schema but the system's). */
export async function rowCounter(context: TestContext): Promise<() => Promise<Record<string, number>>> {
  const { rows } = await context.database.rawQuery(
    `select table_schema, table_name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
       and table_schema not like 'drizzle%' order by 1, 2`,
  );
  const tables = (rows as { table_schema: string; table_name: string }[]).map(
    ({ table_schema, table_name }) => `"${table_schema}"."${table_name}"`,
  );
  const text = `select ${tables.map((table, index) => `(select count(*) from ${table})::int as c${index}`).join(', ')}`;
  return async () => {
    const {
      rows: [row],
    } = await context.database.rawQuery(text);
    const counts: Record<string, number> = {};
    tables.forEach((table, index) => (counts[table] = Number((row as Record<string, unknown>)[`c${index}`])));
    return counts;
  };
}

/** The tables whose counts differ. */
export const changedTables = (before: Record<string, number>, after: Record<string, number>) =>
  Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);

/** A uuid no record has (v4 among v7 ids). */
export const unknownId = () => randomUUID();

/** The seed of a run: fixed, so every run sends the same requests; STRESS_SEED=<n> tries others. */
export function stressSeed(): number {
  const given = process.env.STRESS_SEED;
  const seed = given ? Number(given) : 41_041;
  console.log(`stress seed ${seed} (replay with STRESS_SEED=${seed})`);
  return seed;
}
