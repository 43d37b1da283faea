// The role × operation access matrix (docs/decisions/041). Every /api route declares who may call it
// (`config: { access }`, lib/access.ts); this file calls each one as every role of decisions §4 and §5, a
// device and nobody, with a plausible request (real ids, a body shaped by the route's schema), and checks the
// outcome class the declaration implies: allowed (neither 401 nor 403), denied (403, or 404 for records the
// caller may not see), 401 for nobody, never a 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectedOutcome, matrixRoles, type Access, type MatrixRole, type Outcome } from '@/lib/access.js';
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
import { operationsOf, valueOf, type JsonSchema, type Operation } from './stress.js';

let context: TestContext;
let operations: Map<string, Operation>;
let resolve: (schema: JsonSchema) => JsonSchema;
const tokens = new Map<MatrixRole, string | null>();
/** A real record for the routes under each prefix (longest prefix first). */
const recordOf: [string, string][] = [];
/** Bodies a schema cannot guess: a prescription the matrix's doctor submits in their own name. */
const bodyOf = new Map<string, unknown>();

beforeAll(async () => {
  context = await createTestContext();
  const found = await operationsOf(context);
  operations = new Map(
    found.operations.map((operation) => [`${operation.method} ${operation.route}`, operation]),
  );
  resolve = found.resolve;

  const center = await createCommandCenter(context);
  const pharmacy = await createServiceProvider(context);
  const courierService = await createServiceProvider(context, { type: 'courier' });
  const doctor = await createUser(context, { localRoles: ['doctor'] });
  const patient = await createPatient(context);
  const prescription = await createPrescription(context, {
    issuer: doctor.id,
    recipient: patient.id,
    supplier: pharmacy.id,
    shipper: courierService.id,
  });
  bodyOf.set('POST /api/prescriptions', {
    content: [{ name: 'Paracetamol', quantity: 10 }],
    issuer: doctor.id,
    recipient: patient.id,
    supplier: pharmacy.id,
    shipper: courierService.id,
  });
  const device = await createDevice(context);
  const workstation = await context.app.inject({
    method: 'POST',
    url: '/api/devices/workstations',
    headers: { authorization: `Bearer ${context.adminToken}` },
    payload: { title: 'Workstation' },
  });
  const iotDevice = await createIotDevice(context);

  tokens.set('anonymous', null);
  tokens.set('device', device.token);
  tokens.set('patient', patient.token);
  tokens.set('caregiver', (await createUser(context, { localRoles: ['caregiver'] })).token);
  tokens.set(
    'courier',
    (await createUser(context, { localRoles: ['courier'], employers: [courierService.id] })).token,
  );
  tokens.set('nurse', context.userToken);
  tokens.set(
    'pharmacist',
    (await createUser(context, { localRoles: ['pharmacist'], employers: [pharmacy.id] })).token,
  );
  tokens.set('doctor', doctor.token);
  tokens.set(
    'supervisor',
    (await createUser(context, { localRoles: ['supervisor'], commandCenters: [center.id] })).token,
  );
  tokens.set('admin', context.adminToken);

  recordOf.push(
    ['/api/prescriptions/', prescription.id],
    ['/api/users/', patient.id],
    ['/api/command-centers/users/', patient.id],
    ['/api/command-centers/devices/', device.id],
    ['/api/command-centers/', center.id],
    ['/api/service-providers/', pharmacy.id],
    ['/api/devices/workstations/', workstation.json<{ id: string }>().id ?? device.id],
    ['/api/devices/', device.id],
    ['/api/iot-devices/', iotDevice.id],
  );
  recordOf.sort((a, b) => b[0].length - a[0].length);
}, 120_000);

afterAll(async () => {
  await context?.close();
});

/** A plausible request for a route: its path with real ids, a body shaped by its schema (seeded, stable). */
function plausible(method: string, url: string) {
  const operation = operations.get(`${method} ${url}`);
  const record = recordOf.find(([prefix]) => url.startsWith(prefix))?.[1];
  let path = url.replace(/\/\*$/, '/');
  for (const parameter of operation?.parameters.filter((p) => p.in === 'path') ?? []) {
    const schema = parameter.schema ? resolve(parameter.schema) : {};
    const first = schema.enum?.[0];
    const ownRecord = method !== 'DELETE' && (parameter.name === 'id' || parameter.name === 'userId');
    // A delete gets an id no record has: the matrix removes nothing the next cell needs.
    const value =
      typeof first === 'string'
        ? first
        : ((ownRecord ? record : undefined) ?? '0190b6a0-0000-7000-8000-000000000000');
    path = path.replace(`:${parameter.name}`, value);
  }
  path = path.replace(/:\w+/g, '0190b6a0-0000-7000-8000-000000000000');
  const body = bodyOf.has(`${method} ${url}`)
    ? bodyOf.get(`${method} ${url}`)
    : operation?.body && method !== 'GET'
      ? fc.sample(valueOf(operation.body, resolve, []), { seed: 41, numRuns: 1 })[0]
      : undefined;
  return { path, body };
}

const fits = (outcome: Outcome, status: number) => {
  if (status >= 500) return false;
  switch (outcome) {
    case 'allowed':
      return status !== 401 && status !== 403;
    case 'denied':
      return status === 403 || status === 404;
    case 'unauthenticated':
      return status === 401;
    case 'depends':
      return status !== 401;
  }
};

it('every /api route declares who may call it, and every role gets what the declaration says', async () => {
  const routes = context.app.routeAccess.filter(
    (route) => route.url.startsWith('/api/') && !route.url.startsWith('/api/docs'),
  );
  const undeclared = routes
    .filter((route) => route.access === undefined)
    .map((route) => `${route.method} ${route.url}`);

  // Devices first and admins last: an admin's writes (a re-keyed device, say) come after every other cell.
  const order: MatrixRole[] = [
    'anonymous',
    'device',
    'patient',
    'caregiver',
    'courier',
    'nurse',
    'pharmacist',
    'doctor',
    'supervisor',
    'admin',
  ];
  expect([...order].sort()).toEqual([...matrixRoles].sort());
  const tally: Record<Outcome, number> = { allowed: 0, denied: 0, unauthenticated: 0, depends: 0 };
  const perRole = new Map<MatrixRole, { cells: number; mismatches: number }>();
  const mismatches: string[] = [];
  const declared = routes.filter((route) => route.access !== undefined) as {
    method: string;
    url: string;
    access: Access;
  }[];
  // Long polls and streams are called with a short wait (the agent's `wait`), so no cell hangs.
  const extraQuery: Record<string, string> = { '/api/devices/me/jobs/next': '?wait=0' };

  for (const role of order) {
    const token = tokens.get(role) ?? null;
    const row = { cells: 0, mismatches: 0 };
    perRole.set(role, row);
    for (const route of declared) {
      const expected = expectedOutcome(route.access, role);
      const { path, body } = plausible(route.method, route.url);
      const response = await context.app.inject({
        method: route.method as 'GET',
        url: path + (extraQuery[route.url] ?? ''),
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(body !== undefined ? { payload: body as object } : {}),
      });
      row.cells++;
      tally[expected]++;
      if (!fits(expected, response.statusCode)) {
        row.mismatches++;
        mismatches.push(
          `${role.padEnd(10)} ${route.method} ${route.url} [${route.access}] expected ${expected}, got ${response.statusCode}: ${response.body.slice(0, 160)}`,
        );
      }
    }
  }

  const cells = [...perRole.values()].reduce((sum, row) => sum + row.cells, 0);
  console.log(
    [
      'access matrix',
      `  operations        ${declared.length} (${undeclared.length} undeclared)`,
      `  roles             ${order.length} (${order.join(', ')})`,
      `  cells             ${cells}`,
      `  allowed           ${tally.allowed}`,
      `  denied            ${tally.denied}`,
      `  unauthenticated   ${tally.unauthenticated}`,
      `  record decides    ${tally.depends}`,
      `  mismatches        ${mismatches.length}`,
      ...order.map(
        (role) =>
          `    ${role.padEnd(12)} ${perRole.get(role)!.cells} cells, ${perRole.get(role)!.mismatches} mismatches`,
      ),
    ].join('\n'),
  );
  expect(undeclared, `routes without an access declaration:\n${undeclared.join('\n')}`).toEqual([]);
  expect(mismatches, mismatches.join('\n')).toEqual([]);
}, 600_000);
