// Signatures complete across server processes on one PostgreSQL, as real processes: a phone answers at an
// auth-server-only process and the API process that asked completes it (it hears the answer through the
// database); with two API processes each signature completes exactly once; an API process killed with SIGKILL
// between the answer and the completion completes it after it restarts. Nobody polls a signing request.
// Needs a PostgreSQL server (DATABASE_URL_TEST): the embedded database is one process's only.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticatorClient,
  generateAuthenticatorKey,
  type AuthenticatorKey,
} from '@careplane/shared/authenticator/protocol';
import { IdentityService } from '@/auth-server/identities.js';
import { authServerSettings } from '@/auth-server/index.js';
import { loadConfig } from '@/config.js';
import { openDatabase, type DatabaseHandle } from '@/db/client.js';
import {
  auditLog,
  documentSigningRequests,
  documents,
  prescriptions,
  serviceProviders,
  users,
} from '@/db/schema/index.js';
import {
  TEST_CA_PASSPHRASE,
  TEST_ENCRYPTION_KEY,
  TEST_ISSUER,
  createPostgresDatabase,
  createSigner,
  type TokenSigner,
} from '@/test/harness.js';
import { createSamplePdf } from '@careplane/pdf-signatures/samples';
import { pdfsig } from '@careplane/pdf-signatures/testing';
import {
  inheritedEnvironment,
  killServerProcess,
  startServerProcess,
  type ServerProcess,
} from '@/test/server-processes.js';

const postgres = process.env.DATABASE_URL_TEST;

type Process = ServerProcess;

let databaseUrl = '';
let dropDatabase = async () => {};
let database: DatabaseHandle;
let jwks: Server;
let signer: TokenSigner;
let env: NodeJS.ProcessEnv = {};
const running: Process[] = [];

interface Person {
  userId: string;
  token: string;
  key: AuthenticatorKey;
}
let doctor: Person;
let patientId = '';
let pharmacyId = '';
let courierId = '';
/** The phone talks to the auth-server-only process. */
let phone: AuthenticatorClient;

const baseUrl = (process: Process) => process.baseUrl;

/** Starts `careplane start` (every part, or the auth server alone) from the sources and waits for health. */
async function start(name: string, part: 'all' | 'auth', port?: number): Promise<Process> {
  const started = await startServerProcess(name, { part, env, ...(port === undefined ? {} : { port }) });
  running.push(started);
  return started;
}

async function kill(process: Process) {
  await killServerProcess(process);
  running.splice(running.indexOf(process), 1);
}

const call = (to: Process, method: string, path: string, body?: unknown) =>
  fetch(`${baseUrl(to)}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${doctor.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function newPrescription(at: Process): Promise<string> {
  const response = await call(at, 'POST', '/api/prescriptions', {
    issuer: doctor.userId,
    supplier: pharmacyId,
    recipient: patientId,
    shipper: courierId,
    content: [{ name: 'Lisinopril', strength: '10 mg', quantity: 30, unit: 'tablets' }],
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return (JSON.parse(text) as { id: string }).id;
}

/** The doctor asks for `issue` at one process; the answer names the phone request. */
async function askIssue(at: Process, id: string): Promise<string> {
  const response = await call(at, 'POST', `/api/prescriptions/${id}/issue`);
  const text = await response.text();
  expect(response.status, text).toBe(202);
  return (JSON.parse(text) as { requestId: string }).requestId;
}

async function approveOnPhone(requestId: string) {
  const request = (await phone.pending(doctor.key)).find((pending) => pending.id === requestId);
  expect(request, 'the phone sees the request').toBeDefined();
  await phone.decide(doctor.key, request!, 'approve');
}

const statusesOf = async (ids: string[]) =>
  (await database.db.select().from(prescriptions).where(inArray(prescriptions.id, ids))).map(
    (row) => row.status,
  );

const countAudit = async (resource: string, action: string, recordIds: string[]) =>
  (
    await database.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.resource, resource),
          eq(auditLog.action, action),
          inArray(auditLog.recordId, recordIds),
        ),
      )
  ).length;

async function receiptsOf(ids: string[]) {
  const rows = await database.db.select().from(prescriptions).where(inArray(prescriptions.id, ids));
  return rows.map((row) => row.issuerReceiptId!);
}

beforeAll(async () => {
  if (!postgres) return;
  signer = await createSigner();
  jwks = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ keys: [signer.jwk] }));
  });
  jwks.listen(0, '127.0.0.1');
  await once(jwks, 'listening');
  const jwksPort = (jwks.address() as { port: number }).port;

  const created = await createPostgresDatabase('careplane_signing');
  databaseUrl = created.url;
  dropDatabase = created.drop;
  database = await openDatabase({ databaseUrl, poolSize: 2 });

  env = {
    ...inheritedEnvironment(),
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://careplane.test',
    AUTH_ISSUER: TEST_ISSUER,
    // The API checks the test's own tokens; the auth servers still sign theirs with their keys.
    AUTH_JWKS_URL: `http://127.0.0.1:${jwksPort}/jwks`,
    AUTH_POLL_INTERVAL: '1',
    DEMO_DATA: '0',
    LOG_LEVEL: 'warn',
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    DOCUMENTS_CA_PASSPHRASE: TEST_CA_PASSPHRASE,
    API_WRITE_RATE_LIMIT: '1000000',
  };

  // The doctor: an identity with a phone key, and the user the API knows; a patient and a pharmacy.
  const identities = new IdentityService(database.db, authServerSettings(loadConfig(env)));
  const identity = await identities.create({
    username: 'dora.multi@careplane.test',
    firstName: 'Dora',
    lastName: 'Multi',
    roles: ['public'],
  });
  const { code } = await identities.issueEnrollmentCode(identity.id);
  const [doctorRow, patientRow] = await database.db
    .insert(users)
    .values([
      {
        username: identity.username,
        usernameWithoutDomain: 'dora.multi',
        primaryDomain: 'careplane.test',
        masterId: identity.id,
        firstName: 'Dora',
        lastName: 'Multi',
        roles: ['public'],
        localRoles: ['doctor'],
      },
      {
        username: 'pat.multi@careplane.test',
        usernameWithoutDomain: 'pat.multi',
        primaryDomain: 'careplane.test',
        masterId: randomUUID(),
        firstName: 'Pat',
        lastName: 'Multi',
        roles: ['public'],
        localRoles: ['patient'],
      },
    ])
    .returning({ id: users.id });
  patientId = patientRow!.id;
  const [pharmacy, courier] = await database.db
    .insert(serviceProviders)
    .values([
      { title: 'Two-Process Pharmacy', type: 'pharmacy', address: { title: 'Main' } },
      { title: 'Two-Process Couriers', type: 'courier', address: { title: 'Depot' } },
    ])
    .returning({ id: serviceProviders.id });
  pharmacyId = pharmacy!.id;
  courierId = courier!.id;

  const [, auth] = await Promise.all([start('api A', 'all'), start('auth B', 'auth')]);
  phone = new AuthenticatorClient({
    issuer: TEST_ISSUER,
    fetch: (target, init) => fetch(target.replace(TEST_ISSUER, `${baseUrl(auth)}/auth`), init),
  });
  const keys = await generateAuthenticatorKey();
  const enrolled = await phone.enroll(code, keys);
  doctor = {
    userId: doctorRow!.id,
    token: await signer.sign({ roles: ['public'] }, { subject: identity.id, expiresInSeconds: 1800 }),
    key: { keyId: enrolled.keyId, privateKey: keys.privateKey },
  };
}, 240_000);

afterAll(async () => {
  for (const process of [...running]) await kill(process).catch(() => undefined);
  jwks?.close();
  await database?.close();
  await dropDatabase();
});

const find = (name: string) => running.find((process) => process.name === name)!;

describe.runIf(postgres)('signatures across server processes on one PostgreSQL', () => {
  it('completes in the API process an approval that reached the auth-server-only process', async () => {
    const id = await newPrescription(find('api A'));
    const requestId = await askIssue(find('api A'), id);
    // A document of the doctor's own, signed the same way.
    const form = new FormData();
    form.append('file', new Blob([await createSamplePdf({ title: 'Care plan' })]), 'care-plan.pdf');
    const uploaded = await fetch(`${baseUrl(find('api A'))}/api/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${doctor.token}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const documentId = ((await uploaded.json()) as { id: string }).id;
    const asked = await call(find('api A'), 'POST', `/api/documents/${documentId}/sign`);
    expect(asked.status).toBe(200);
    const documentRequest = ((await asked.json()) as { requestId: string }).requestId;

    await approveOnPhone(requestId);
    await approveOnPhone(documentRequest);
    await expect.poll(() => statusesOf([id]), { timeout: 20_000, interval: 100 }).toEqual(['issued']);
    await expect
      .poll(
        async () =>
          (await database.db.select().from(documents).where(eq(documents.id, documentId)))[0]!.isSigned,
        { timeout: 20_000, interval: 100 },
      )
      .toBe(true);
    const [receipt] = await receiptsOf([id]);
    expect(await countAudit('documents', 'sign', [receipt!, documentId])).toBe(2);
    expect(await countAudit('prescriptions', 'issue', [id])).toBe(1);
  });

  it('completes each signature exactly once with two API processes hearing the answer', async () => {
    await start('api C', 'all');
    const ids = await Promise.all(
      Array.from({ length: 6 }, (_, index) => newPrescription(find(index % 2 ? 'api C' : 'api A'))),
    );
    const requestIds = await Promise.all(
      ids.map((id, index) => askIssue(find(index % 2 ? 'api A' : 'api C'), id)),
    );
    for (const requestId of requestIds) await approveOnPhone(requestId);
    await expect
      .poll(() => statusesOf(ids), { timeout: 30_000, interval: 100 })
      .toEqual(ids.map(() => 'issued'));
    const receipts = await receiptsOf(ids);
    // Let both processes finish whatever they heard before counting.
    await expect
      .poll(
        async () =>
          (
            await database.db
              .select({ status: documentSigningRequests.status })
              .from(documentSigningRequests)
              .where(inArray(documentSigningRequests.id, requestIds))
          ).every((row) => row.status === 'signed'),
        { timeout: 10_000 },
      )
      .toBe(true);
    expect(await countAudit('documents', 'sign', receipts)).toBe(ids.length);
    expect(await countAudit('prescriptions', 'issue', ids)).toBe(ids.length);
    const [first] = receipts;
    const file = await fetch(`${baseUrl(find('api C'))}/api/documents/${first}/download/signed`, {
      headers: { authorization: `Bearer ${doctor.token}` },
    });
    const { signatures } = await pdfsig(new Uint8Array(await file.arrayBuffer()));
    expect(signatures).toHaveLength(1);
    expect(signatures[0]).toMatchObject({ validation: 'Signature is Valid.' });
  });

  it('completes after a restart what was approved while no API process ran', async () => {
    const a = find('api A');
    const id = await newPrescription(a);
    const requestId = await askIssue(a, id);
    await kill(a);
    await kill(find('api C'));

    await approveOnPhone(requestId);
    // Nobody is left to complete it: the answer is in, the signature and the status wait.
    const [waiting] = await database.db
      .select({ status: documentSigningRequests.status })
      .from(documentSigningRequests)
      .where(eq(documentSigningRequests.id, requestId));
    expect(waiting!.status).toBe('pending');
    expect(await statusesOf([id])).toEqual(['new']);

    await start('api A', 'all', a.port);
    await expect.poll(() => statusesOf([id]), { timeout: 30_000, interval: 100 }).toEqual(['issued']);
    expect(await countAudit('prescriptions', 'issue', [id])).toBe(1);
  });
});
