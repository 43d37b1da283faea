// Bulk inserts: many rows per statement, sent as one JSON document and unpacked by jsonb_to_recordset.
//
// One parameter per statement sidesteps PostgreSQL's limit of 65,535 bind parameters, and parsing one
// document is several times faster on PGlite than binding tens of thousands of parameters.
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../client.js';

/** Statements carry at most about this much JSON, so memory stays flat for any row count. */
const MAX_STATEMENT_BYTES = 4 * 1024 * 1024;

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** Inserts rows in as few statements as the size bound allows; returns the row count. */
export async function insertRows<T extends PgTable>(
  executor: Executor,
  table: T,
  rows: readonly T['$inferInsert'][],
): Promise<number> {
  if (rows.length === 0) return 0;
  const columns = getTableColumns(table);
  const present = new Set<string>();
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) if (value !== undefined) present.add(key);
  }
  const fields = Object.entries(columns).filter(([key]) => present.has(key));
  const unknown = [...present].filter((key) => !(key in columns));
  if (unknown.length > 0)
    throw new Error(`Unknown columns for ${getTableName(table)}: ${unknown.join(', ')}`);

  const target = fields.map(([, column]) => quote(column.name)).join(', ');
  const definition = fields.map(([key, column]) => `${quote(key)} ${column.getSQLType()}`).join(', ');
  const source = fields.map(([key]) => `x.${quote(key)}`).join(', ');
  const statement = (json: string) =>
    sql`insert into ${table} (${sql.raw(target)}) select ${sql.raw(source)} from jsonb_to_recordset(${json}::jsonb) as x(${sql.raw(definition)})`;

  let batch: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await executor.execute(statement(`[${batch.join(',')}]`));
    batch = [];
    bytes = 0;
  };
  for (const row of rows) {
    const json = JSON.stringify(row);
    if (bytes + json.length > MAX_STATEMENT_BYTES) await flush();
    batch.push(json);
    bytes += json.length + 1;
  }
  await flush();
  return rows.length;
}
