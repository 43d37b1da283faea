// The load generator's own process: autocannon with the options read from stdin (JSON), its result printed as
// one JSON line. The server under test never shares an event loop (or a core's worth of scheduling) with it.
// Bodies, if given, are sent in turn; answers are counted by status, or by the `error` of a JSON error body.
import { text } from 'node:stream/consumers';
import autocannon from 'autocannon';
import type { LoadOptions, LoadResult } from './load.js';

const options = JSON.parse(await text(process.stdin)) as LoadOptions;
const answers: Record<string, number> = {};
let next = 0;
const bodies = options.bodies;
const before = process.cpuUsage();
const result = await autocannon({
  url: options.url,
  connections: options.connections,
  duration: options.duration,
  requests: [
    {
      method: options.method ?? 'GET',
      path: options.path,
      ...(options.headers ? { headers: options.headers } : {}),
      ...(bodies?.length
        ? { setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length]! }) }
        : {}),
      onResponse: (status, body) => {
        const kind = /"error":"([a-z_]+)"/.exec(body)?.[1] ?? String(status);
        answers[kind] = (answers[kind] ?? 0) + 1;
      },
    },
  ],
});
const used = process.cpuUsage(before);
const answer: Omit<LoadResult, 'generator'> = {
  rps: result.requests.average,
  requests: result.requests.total,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
  answers,
  generatorCpu: result.requests.total ? (used.user + used.system) / result.requests.total : 0,
};
process.stdout.write(`${JSON.stringify(answer)}\n`);
