// The load generator, always in a process of its own, so that the load it generates is not paid for by the
// event loop of the server it measures.
//
// Plain GETs run on wrk (Debian's `wrk`) when it is installed: written in C, it spends 20–60 µs of CPU per
// request where autocannon spends 70–400 µs (more for larger answers, whose bodies it decodes). On two shared
// cores every microsecond the generator spends is taken from the server and the database, while the raw driver
// references run with no generator at all (decision 068). Requests with bodies sent in turn, or whose answers
// are counted by their error, run on autocannon (load-child.ts), which has hooks for both; so does every
// request where wrk is missing, or the system is not Linux.
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export interface LoadOptions {
  /** Origin, e.g. http://127.0.0.1:1234 */
  url: string;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Request bodies, sent in turn. */
  bodies?: string[];
  connections: number;
  duration: number;
}

export type LoadGenerator = 'wrk' | 'autocannon';

export interface LoadResult {
  rps: number;
  /** Requests answered in all. */
  requests: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx (autocannon), or not 2xx or 3xx (wrk); the lists answer 200 only. */
  non2xx: number;
  errors: number;
  /** Answers by status, or by the `error` of a JSON error body (autocannon only; wrk counts none). */
  answers: Record<string, number>;
  /** CPU time the load generator itself spent per request answered, in µs: what the measurement costs the cores. */
  generatorCpu: number;
  generator: LoadGenerator;
}

const childFile = fileURLToPath(new URL('./load-child.ts', import.meta.url));
const wrkScript = fileURLToPath(new URL('./wrk-summary.lua', import.meta.url));

/**
 * Whether wrk is on the PATH (it answers `-v` with its version and a non-zero status), on Linux: its summary reads
 * its own CPU time from /proc.
 */
const wrkInstalled = process.platform === 'linux' && spawnSync('wrk', ['-v']).error === undefined;

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const plainGet = (options.method ?? 'GET') === 'GET' && !options.bodies?.length;
  return plainGet && wrkInstalled ? runWrk(options) : runAutocannon(options);
}

async function runAutocannon(options: LoadOptions): Promise<LoadResult> {
  // The same loader flags as this process (tsx), so the child runs the TypeScript file as it is.
  const child = spawn(process.execPath, [...process.execArgv, childFile], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (output += chunk));
  child.stdin.end(JSON.stringify(options));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  const line = output.trim().split('\n').pop();
  if (code !== 0 || !line) throw new Error(`the load generator ended with ${code}`);
  return { ...(JSON.parse(line) as Omit<LoadResult, 'generator'>), generator: 'autocannon' };
}

interface WrkSummary {
  requests: number;
  /** µs */
  duration: number;
  /** µs */
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU time wrk used, in clock ticks. */
  ticks: number;
}

let ticksPerSecond: number | undefined;

async function runWrk(options: LoadOptions): Promise<LoadResult> {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  const headers = Object.entries(options.headers ?? {}).flatMap(([name, value]) => [
    '-H',
    `${name}: ${value}`,
  ]);
  const { stdout } = await promisify(execFile)('wrk', [
    '--threads',
    '1',
    '--connections',
    String(options.connections),
    '--duration',
    `${options.duration}s`,
    // autocannon's default: wrk's own (2 s) counts a slow answer of the embedded database's counted lists as
    // an error.
    '--timeout',
    '10s',
    '--script',
    wrkScript,
    ...headers,
    new URL(options.path, options.url).href,
  ]);
  const line = stdout.trim().split('\n').pop();
  if (!line?.startsWith('{')) throw new Error(`wrk gave no summary: ${stdout}`);
  const summary = JSON.parse(line) as WrkSummary;
  const seconds = summary.duration / 1e6;
  return {
    rps: summary.requests / seconds,
    requests: summary.requests,
    p50: summary.p50 / 1000,
    p99: summary.p99 / 1000,
    non2xx: summary.non2xx,
    errors: summary.errors,
    answers: {},
    generatorCpu: summary.requests ? ((summary.ticks / ticksPerSecond) * 1e6) / summary.requests : 0,
    generator: 'wrk',
  };
}

export interface Download {
  /** From sending the request to the last byte of the answer, in seconds. */
  seconds: number;
  bytes: number;
  status: number;
}

// The reading side of one download: Node's own fetch in a process of its own, the answer read to its end and
// dropped, the time and the byte count printed as one JSON line. A first request to the same origin, untimed,
// pays for the client's own start (its code loaded, the connection opened).
const downloader = `
const [url, headers] = JSON.parse(process.argv[1]);
await (await fetch(new URL('/', url))).arrayBuffer();
const started = performance.now();
const response = await fetch(url, { headers });
let bytes = 0;
for await (const chunk of response.body) bytes += chunk.byteLength;
const seconds = (performance.now() - started) / 1000;
process.stdout.write(JSON.stringify({ seconds, bytes, status: response.status }) + '\\n');
`;

/**
 * One GET whose whole answer is read by a process of its own (a streamed export, say), so the server's event
 * loop does not also pay for reading it.
 */
export async function download(
  url: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Download> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', downloader, JSON.stringify([new URL(path, url).href, headers])],
    { maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as Download;
}
