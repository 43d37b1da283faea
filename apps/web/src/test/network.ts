// The network edge faked for console tests: answers by method and path, every call recorded, and every
// answer of the application server checked against the shared contract of its endpoint.
import { vi } from 'vitest';
import type { z } from 'zod';
import { alertSchema } from '@careplane/shared/alerts/alerts.contract';
import { auditListResponseSchema } from '@careplane/shared/audit/audit.contract';
import {
  commandCenterSchema,
  deviceRebootRequestedSchema,
  userAlertCreatedSchema,
} from '@careplane/shared/command-centers/command-centers.contract';
import { errorBodySchema, listResponseSchema } from '@careplane/shared/common/http';
import {
  deviceCreatedSchema,
  deviceJobSchema,
  deviceSchema,
  deviceStatSchema,
  deviceStatsSummarySchema,
  workstationSchema,
} from '@careplane/shared/devices/devices.contract';
import {
  documentSchema,
  partySuggestionsSchema,
  signingStartedSchema,
  signingStateSchema,
  verificationReportSchema,
} from '@careplane/shared/documents/documents.contract';
import { eventTicketSchema } from '@careplane/shared/events/events.contract';
import {
  iotDataRecordSchema,
  iotDeviceSchema,
  lastDataSubmissionSchema,
  readingsSummarySchema,
} from '@careplane/shared/iot/iot.contract';
import {
  prescriptionChoicesSchema,
  prescriptionHistorySchema,
  prescriptionSchema,
  prescriptionSigningStartedSchema,
  prescriptionSigningStateSchema,
  prescriptionVerificationSchema,
  prescriptionViewerSchema,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { serviceProviderSchema } from '@careplane/shared/service-providers/service-providers.contract';
import { deviceChartsSchema, statsEndpoints, userStatsSchema } from '@careplane/shared/stats/stats.contract';
import { enrollmentSchema, phoneListSchema, phoneSchema } from '@careplane/shared/users/account.contract';
import { patientProfileSchema, userSchema } from '@careplane/shared/users/users.contract';
import { parseRuntimeConfig } from '@/lib/config.ts';

export interface RecordedCall {
  method: string;
  url: URL;
  body: string | null;
  headers: Record<string, string>;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Reads a successful answer of one endpoint; throws when it breaks the endpoint's contract. */
type Contract = (answer: Response) => Promise<unknown>;
const jsonBody =
  (parse: (body: unknown) => unknown): Contract =>
  async (answer) =>
    parse(await answer.json());

/**
 * The successful answers of the endpoints the console calls, by `METHOD path`. Error answers of /api/* are
 * error bodies. The auth server's sign-in endpoints (/auth/*) speak OAuth and have no shared contract.
 */
const contracts: Record<string, Contract> = {
  'GET /config.json': jsonBody(parseRuntimeConfig),
  'POST /api/events/ticket': jsonBody((body) => eventTicketSchema.parse(body)),
  'POST /api/auth': jsonBody((body) => userSchema.parse(body)),
  'GET /api/users/me': jsonBody((body) => userSchema.parse(body)),
  'PATCH /api/users/me/preferences': jsonBody((body) => userSchema.parse(body)),
  'GET /api/users/me/avatar': async (answer) => {
    if (answer.headers.get('content-type') !== 'image/svg+xml')
      throw new Error('The avatar is not an SVG image');
    return answer.text();
  },
  'GET /api/users/logs': jsonBody((body) => auditListResponseSchema.parse(body)),
  // The admin home's series.
  [`GET ${statsEndpoints.deviceCharts}`]: jsonBody((body) => deviceChartsSchema.parse(body)),
  [`GET ${statsEndpoints.userStats}`]: jsonBody((body) => userStatsSchema.parse(body)),
};

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The generic resources (decisions §2): list, create, read, change and delete, and the CSV export. */
const resources: [base: string, item: z.ZodType, created?: z.ZodType][] = [
  ['/api/users', userSchema],
  ['/api/patient-profiles', patientProfileSchema],
  ['/api/devices/stats', deviceStatSchema],
  ['/api/devices/workstations', workstationSchema],
  ['/api/devices/jobs', deviceJobSchema],
  ['/api/devices', deviceSchema, deviceCreatedSchema],
  ['/api/iot-devices/data', iotDataRecordSchema],
  ['/api/iot-devices', iotDeviceSchema],
  ['/api/alerts', alertSchema],
  ['/api/service-providers', serviceProviderSchema],
  ['/api/command-centers', commandCenterSchema],
  ['/api/prescriptions', prescriptionSchema],
  ['/api/documents', documentSchema],
];

/** Documents beyond the generic calls: sharing, signing on the phone, parties to pick, the verifier. */
const documentActions: [method: string, pattern: RegExp, answer: z.ZodType][] = [
  ['GET', /^\/api\/documents\/parties$/, partySuggestionsSchema],
  ['POST', /^\/api\/documents\/verify$/, verificationReportSchema],
  ['POST', new RegExp(`^/api/documents/${UUID}/share$`), documentSchema],
  ['POST', new RegExp(`^/api/documents/${UUID}/sign$`), signingStartedSchema],
  ['GET', new RegExp(`^/api/documents/${UUID}/signing/${UUID}$`), signingStateSchema],
  // Prescriptions beyond the generic calls: who asks, the status actions, the phone's answer, the history.
  ['GET', /^\/api\/prescriptions\/viewer$/, prescriptionViewerSchema],
  ['GET', /^\/api\/prescriptions\/choices$/, prescriptionChoicesSchema],
  [
    'POST',
    new RegExp(
      `^/api/prescriptions/${UUID}/(issue|accept|hold|resume|mark-ready|pickup|delivered|return|restock)$`,
    ),
    prescriptionSchema.or(prescriptionSigningStartedSchema),
  ],
  ['GET', new RegExp(`^/api/prescriptions/${UUID}/signing/${UUID}$`), prescriptionSigningStateSchema],
  ['GET', new RegExp(`^/api/prescriptions/${UUID}/history$`), prescriptionHistorySchema],
  ['GET', new RegExp(`^/api/prescriptions/${UUID}/verification$`), prescriptionVerificationSchema],
];

/** The command-center scoped calls and care actions (docs/decisions/027). */
const commandCenterCalls: [method: string, pattern: RegExp, answer: z.ZodType][] = [
  ['GET', /^\/api\/command-centers\/users$/, listResponseSchema(userSchema)],
  ['GET', /^\/api\/command-centers\/devices$/, listResponseSchema(deviceSchema)],
  ['GET', /^\/api\/command-centers\/alerts$/, listResponseSchema(alertSchema)],
  ['GET', /^\/api\/command-centers\/jobs$/, listResponseSchema(deviceJobSchema)],
  ['GET', new RegExp(`^/api/command-centers/users/${UUID}$`), userSchema],
  ['GET', /^\/api\/command-centers\/iot-devices$/, listResponseSchema(iotDeviceSchema)],
  ['GET', /^\/api\/command-centers\/readings$/, listResponseSchema(iotDataRecordSchema)],
  ['GET', new RegExp(`^/api/command-centers/iot-devices/${UUID}/readings-summary$`), readingsSummarySchema],
  ['POST', new RegExp(`^/api/command-centers/users/${UUID}/alert$`), userAlertCreatedSchema],
  ['POST', new RegExp(`^/api/command-centers/users/${UUID}/device/reboot$`), deviceRebootRequestedSchema],
  // The care team's actions on its centers' alerts (decision 079).
  ['POST', new RegExp(`^/api/command-centers/alerts/${UUID}/acknowledge$`), alertSchema],
  ['POST', new RegExp(`^/api/command-centers/alerts/${UUID}/close$`), alertSchema],
];

/** Alerts beyond the generic calls (acknowledging and closing one), an IoT device's last reading, summaries. */
const alertActions: [method: string, pattern: RegExp, answer: z.ZodType][] = [
  ['POST', new RegExp(`^/api/alerts/${UUID}/acknowledge$`), alertSchema],
  ['POST', new RegExp(`^/api/alerts/${UUID}/close$`), alertSchema],
  // An IoT device's last reading.
  ['GET', new RegExp(`^/api/iot-devices/${UUID}/last-data-submission$`), lastDataSubmissionSchema],
  // A device's readings summed up per equal part of a period.
  ['GET', new RegExp(`^/api/iot-devices/${UUID}/readings-summary$`), readingsSummarySchema],
  // A device's stats summed up the same way.
  ['GET', new RegExp(`^/api/devices/${UUID}/stats-summary$`), deviceStatsSummarySchema],
];

/** A user's phones and a fresh enrollment code (decision 099). */
const userActions: [method: string, pattern: RegExp, answer: z.ZodType][] = [
  ['GET', new RegExp(`^/api/users/${UUID}/phones$`), phoneListSchema],
  ['POST', new RegExp(`^/api/users/${UUID}/phones/[A-Za-z0-9_-]+/revoke$`), phoneSchema],
  ['POST', new RegExp(`^/api/users/${UUID}/enrollment$`), enrollmentSchema],
  ['GET', /^\/api\/users\/me\/phones$/, phoneListSchema],
  ['POST', /^\/api\/users\/me\/phones\/[A-Za-z0-9_-]+\/revoke$/, phoneSchema],
];

function resourceContract(method: string, path: string): Contract | undefined {
  const actions = [...documentActions, ...commandCenterCalls, ...alertActions, ...userActions];
  for (const [verb, pattern, answer] of actions) {
    if (verb === method && pattern.test(path)) return jsonBody((body) => answer.parse(body));
  }
  for (const [base, item, created = item] of resources) {
    if (path === base && method === 'GET') return jsonBody((body) => listResponseSchema(item).parse(body));
    if (path === base && method === 'POST') return jsonBody((body) => created.parse(body));
    if (path === `${base}/export.csv` && method === 'GET') {
      return async (answer) => {
        if (!answer.headers.get('content-type')?.startsWith('text/csv')) throw new Error('Not a CSV file');
        return answer.text();
      };
    }
    if (new RegExp(`^${base}/${UUID}$`).test(path)) {
      if (method === 'GET' || method === 'PATCH') return jsonBody((body) => item.parse(body));
      if (method === 'DELETE') {
        return async (answer) => {
          if (answer.status !== 204) throw new Error('A delete answers 204 without a body');
        };
      }
    }
  }
  return undefined;
}

const violations: string[] = [];

async function checkContract(method: string, path: string, answer: Response) {
  const api = path.startsWith('/api/');
  if (!answer.ok) {
    if (api) errorBodySchema.parse(await answer.clone().json());
    return;
  }
  if (!api && path !== '/config.json') return;
  const contract = contracts[`${method} ${path}`] ?? resourceContract(method, path);
  if (!contract) {
    throw new Error(
      `No contract is known for ${method} ${path}: add it to the contracts of src/test/network.ts`,
    );
  }
  await contract(answer.clone());
}

/**
 * The contract breaches of the fake answers given since the last call, forgotten once thrown: the test set-up
 * calls this after every test, so a fake that drifts from the contract fails the test that made it.
 */
export function assertNoContractViolations() {
  const found = violations.splice(0);
  if (found.length) throw new Error(found.join('\n'));
}

export function fakeNetwork() {
  const routes: { method: string; path: string; handler: Handler }[] = [];
  const calls: RecordedCall[] = [];

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://careplane.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const call: RecordedCall = {
      method,
      url,
      body: typeof init.body === 'string' ? init.body : null,
      headers,
    };
    calls.push(call);
    const route = routes.find((entry) => entry.method === method && entry.path === url.pathname);
    if (!route)
      return json(
        { statusCode: 404, error: 'Not Found', message: `No fake for ${method} ${url.pathname}` },
        404,
      );
    const answer = await route.handler(call);
    try {
      await checkContract(method, url.pathname, answer);
    } catch (error) {
      const violation = `The fake answer to ${method} ${url.pathname} (${answer.status}) breaks its contract: ${
        error instanceof Error ? error.message : String(error)
      }`;
      violations.push(violation);
      throw new Error(violation);
    }
    return answer;
  });

  return {
    fetch: fetchMock,
    calls,
    /** Answers `method path` with the handler (the last one registered for a path wins). */
    on(method: string, path: string, handler: Handler) {
      routes.unshift({ method, path, handler });
      return this;
    },
    /** Answers the listed responses in turn, repeating the last one. */
    sequence(method: string, path: string, answers: (() => Response)[]) {
      let index = 0;
      routes.unshift({
        method,
        path,
        handler: () => {
          const answer = answers[Math.min(index, answers.length - 1)]!;
          index += 1;
          return answer();
        },
      });
      return this;
    },
    callsTo(method: string, path: string) {
      return calls.filter((call) => call.method === method && call.url.pathname === path);
    },
    install() {
      vi.stubGlobal('fetch', fetchMock);
      return this;
    },
  };
}
export type FakeNetwork = ReturnType<typeof fakeNetwork>;
