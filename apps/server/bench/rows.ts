// The rows a bench reports for the table `npm run bench` prints (scripts/bench.mjs): one JSON object a line,
// appended to the file BENCH_ROWS names, or printed on stdout after "BENCH_ROW " when it names none.
// A row states a figure, its reference measured in the same run, their ratio and the aim; whether the aim was
// met is reported, never asserted: a bench fails only when it cannot run.
import { appendFileSync } from 'node:fs';

/** BENCH_SMOKE=1: every bench once, tiny data, seconds of load, only to show that it still runs. */
export const SMOKE = process.env.BENCH_SMOKE === '1';

export interface BenchRow {
  bench: 'api' | 'auth' | 'ingest' | 'documents';
  path: string;
  figure: number | null;
  unit: string;
  reference: number | null;
  /** What the reference is: the raw driver, a bare Fastify route, COPY, SHA-256 of the same bytes. */
  referenceName: string;
  ratio: number | null;
  aim: string;
  /** null: no aim for this row, or it could not be measured (see note). */
  met: boolean | null;
  note?: string;
}

export function emitRow(row: BenchRow) {
  const line = JSON.stringify(row);
  if (process.env.BENCH_ROWS) appendFileSync(process.env.BENCH_ROWS, `${line}\n`);
  else console.log(`BENCH_ROW ${line}`);
}
