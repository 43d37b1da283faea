// Runs autocannon in a child process (load-child.ts), so that the load it generates is not paid for by the
// event loop of the server it measures.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

export interface LoadResult {
  rps: number;
  /** Requests answered in all. */
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  answers: Record<string, number>;
}

const childFile = fileURLToPath(new URL('./load-child.ts', import.meta.url));

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
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
  return JSON.parse(line) as LoadResult;
}
