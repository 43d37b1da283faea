// Query strings are checked against their contract once per distinct query (decision 061). A console asks the
// same lists with the same queries again and again (a page refreshed, a table polled), and checking one walks
// its schema (unions, defaults, transforms) on every request: on the hot list paths, run cold between requests,
// that walk cost more than the rest of the route's own work. A query checked once is remembered with its value
// frozen, deeply: every request with the same query reads the same object, which nothing downstream can change
// (a change throws), and which a list can remember its criteria by (resources/repository.ts).
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';

/** Distinct queries remembered per route; past it, the oldest is forgotten first. */
export const REMEMBERED_QUERIES = 256;
/** A longer query (as its JSON) is checked on every request: what is remembered holds its text. */
export const LONGEST_REMEMBERED_QUERY = 2048;

type Check = ReturnType<typeof validatorCompiler>;
type Checked = ReturnType<Check>;

function freeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) freeze(inner);
}

/** Remembers what `check` answered for each distinct query it accepted; a refused one is checked each time. */
export function rememberQueries(check: Check): Check {
  const remembered = new Map<string, Checked>();
  return (data: unknown) => {
    const key = JSON.stringify(data) ?? '';
    if (key.length > LONGEST_REMEMBERED_QUERY) return check(data);
    const known = remembered.get(key);
    if (known) return known;
    const checked = check(data);
    // zod's validator answers { value } or { error }; anything else is passed on as it came.
    if (typeof checked !== 'object' || 'then' in checked || checked.error || !('value' in checked))
      return checked;
    freeze(checked);
    if (remembered.size >= REMEMBERED_QUERIES) remembered.delete(remembered.keys().next().value!);
    remembered.set(key, checked);
    return checked;
  };
}

/** The zod validator of every route, remembering the queries it accepted (bodies, params and headers are not). */
export const queryValidatorCompiler: FastifySchemaCompiler<
  Parameters<typeof validatorCompiler>[0]['schema']
> = (route) => {
  const check = validatorCompiler(route);
  return route.httpPart === 'querystring' ? rememberQueries(check) : check;
};
