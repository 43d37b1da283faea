// Every operation of the OpenAPI document, fed generated requests (docs/decisions/041): malformed paths,
// queries, bodies and media types, and valid-shaped bodies that are wrong in what they say, as an admin and
// as nobody. Every answer is below 500; every refusal leaves every table's row count as it was, and under
// /api carries the documented error body. The seed is printed; STRESS_RUNS sets the requests per operation and caller.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './harness.js';
import {
  createCommandCenter,
  createDevice,
  createIotDevice,
  createPatient,
  createPrescription,
  createServiceProvider,
  createUser,
} from './factories.js';
import {
  changedTables,
  describe as describeRequest,
  errorBodyProblem,
  inject,
  operationsOf,
  requestFor,
  rowCounter,
  stressSeed,
  type JsonSchema,
  type Operation,
  type StressRequest,
} from './stress.js';

const RUNS = Number(process.env.STRESS_RUNS ?? 16);
const ANONYMOUS_RUNS = Math.max(2, Math.round(RUNS / 4));
const seed = stressSeed();

let context: TestContext;
let operations: Operation[];
let resolve: (schema: JsonSchema) => JsonSchema;
let counts: () => Promise<Record<string, number>>;
/** Ids of records that exist, of every kind: a generated id is sometimes one of them. */
const ids: string[] = [];
const figures = { operations: 0, requests: 0, refused: 0, accepted: 0 };

beforeAll(async () => {
  context = await createTestContext();
  ({ operations, resolve } = await operationsOf(context));
  counts = await rowCounter(context);
  const prescription = await createPrescription(context);
  const device = await createDevice(context);
  ids.push(
    context.adminUserId,
    context.userId,
    prescription.id,
    device.id,
    (await createUser(context)).id,
    (await createPatient(context)).id,
    (await createServiceProvider(context)).id,
    (await createCommandCenter(context)).id,
    (await createIotDevice(context)).id,
  );
}, 120_000);

afterAll(async () => {
  console.log(
    `fuzz: ${figures.operations} operations, ${figures.requests} requests ` +
      `(${figures.refused} refused, ${figures.accepted} accepted), seed ${seed}, ${RUNS} runs per operation as admin, ${ANONYMOUS_RUNS} anonymous`,
  );
  await context?.close();
});

/**
 * Sends each generated request of every operation; answers what went wrong, one line each. Rows are counted
 * per operation's batch; when they moved in a batch, its refused requests are sent again one by one with a
 * count around each, to name the one that wrote.
 */
async function fuzz(token: string | null, runs: number): Promise<string[]> {
  const failures: string[] = [];
  for (const [index, operation] of operations.entries()) {
    const requests = fc.sample(requestFor(operation, resolve, ids, token), {
      seed: seed + index,
      numRuns: runs,
    });
    const where = (request: StressRequest) =>
      `${operation.method} ${operation.path} (seed ${seed + index}) ${describeRequest(request)}`;
    // The documented body is the API's (decisions §2); under /auth the OpenID provider answers as OAuth does.
    const checksBody = operation.path.startsWith('/api/');
    const refused: StressRequest[] = [];
    const before = await counts();
    for (const request of requests) {
      const response = await inject(context, request);
      figures.requests++;
      if (response.statusCode >= 500) {
        failures.push(`${response.statusCode} ${where(request)} → ${response.body.slice(0, 300)}`);
      } else if (response.statusCode < 400) {
        figures.accepted++;
      } else {
        figures.refused++;
        refused.push(request);
        const problem = checksBody ? errorBodyProblem(response) : null;
        if (problem) failures.push(`${response.statusCode} body ${problem}: ${where(request)}`);
      }
    }
    if (!changedTables(before, await counts()).length) continue;
    for (const request of refused) {
      const ahead = await counts();
      const response = await inject(context, request);
      const changed = changedTables(ahead, await counts());
      if (response.statusCode >= 400 && changed.length) {
        failures.push(`${response.statusCode} but rows changed in ${changed.join(', ')}: ${where(request)}`);
      }
    }
  }
  figures.operations = operations.length;
  return failures;
}

it('answers an admin generated requests to every operation without a 5xx; refusals write nothing', async () => {
  expect(operations.length).toBeGreaterThan(100);
  const failures = await fuzz(context.adminToken, RUNS);
  expect(failures, failures.join('\n')).toEqual([]);
}, 600_000);

it('answers anonymous generated requests to every operation without a 5xx; refusals write nothing', async () => {
  const failures = await fuzz(null, ANONYMOUS_RUNS);
  expect(failures, failures.join('\n')).toEqual([]);
}, 600_000);
