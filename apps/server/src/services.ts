// The composition root's services: every service of the application built once, here, with what it depends on
// handed in. Route plugins receive the service they expose; workflows receive the services they call. Nothing
// is started here (app.ts starts the transports once the app is ready).
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '@/config.js';
import type { DatabaseHandle } from '@/db/client.js';
import type { AuthServer } from '@/auth-server/index.js';
import { authServerSettings } from '@/auth-server/index.js';
import { createGrantCheck } from '@/auth-server/grants.js';
import { IdentityService } from '@/auth-server/identities.js';
import { RequestService } from '@/auth-server/requests.js';
import type { OutsideServices } from '@/lib/outside-services.js';
import type { SecretBox } from '@/lib/secret-box.js';
import type { Store } from '@/lib/store.js';
import { createAlertsService } from '@/modules/alerts/alerts.service.js';
import { createAuditService } from '@/modules/audit/audit.service.js';
import { createCommandCenterScopeService } from '@/modules/command-centers/command-center-scope.service.js';
import { createCommandCentersService } from '@/modules/command-centers/command-centers.service.js';
import { createDevicesService } from '@/modules/devices/devices.service.js';
import { openDocumentsService } from '@/modules/documents/open-documents.js';
import { createEventsService } from '@/modules/events/events.service.js';
import { createIotService } from '@/modules/iot/iot.service.js';
import { createMetricsService } from '@/modules/metrics/metrics.service.js';
import { createPrescriptionsService } from '@/modules/prescriptions/prescriptions.service.js';
import { createServiceProvidersService } from '@/modules/service-providers/service-providers.service.js';
import { createStatsService } from '@/modules/stats/stats.service.js';
import { createUsersService } from '@/modules/users/users.service.js';

export interface ServiceDependencies {
  config: AppConfig;
  database: DatabaseHandle;
  store: Store;
  secrets: SecretBox;
  /** The auth server of this process; null when it runs in another (AUTH_SERVER=0). */
  authServer: AuthServer | null;
  /** Redis and the MQTT broker, as the metrics report them. */
  outside: OutsideServices;
  log: FastifyBaseLogger;
}

export async function createServices({
  config,
  database,
  store,
  secrets,
  authServer,
  outside,
  log,
}: ServiceDependencies) {
  // Without the auth server in this process, its services run on its tables (the same database): the API
  // looks up identities and asks phones for signatures there, and never answers sign-ins.
  const identities = authServer?.identities ?? new IdentityService(store.db, authServerSettings(config));
  const authRequests =
    authServer?.requests ??
    new RequestService(store.db, identities, authServerSettings(config), () => {
      throw new Error('Sign-in requests are answered by the auth server process');
    });

  // Whether a sign-in stands: one cache for the API's bearer check and the live streams, the auth server's own
  // when it runs here.
  const isGrantActive = authServer?.isGrantActive ?? createGrantCheck(store.db, store.changes);
  const users = createUsersService(store, identities);
  const devices = createDevicesService(store);
  const alerts = createAlertsService(store);
  const commandCenterScope = createCommandCenterScopeService(store);
  const documents = await openDocumentsService({
    store,
    config,
    identities,
    requests: authRequests,
    secrets,
  });
  const iot = createIotService(store, {
    ...config.iot,
    onRelayError: (error) =>
      log.warn({ err: error }, 'stored MQTT readings were not announced to the other server processes'),
  });
  const events = createEventsService(store, {
    secrets,
    scope: commandCenterScope,
    signIns: { isGrantActive, findUser: users.findCaller },
    limits: { perUser: config.events.maxStreamsPerUser, perTicket: config.events.maxStreamsPerTicket },
    onError: (error) => log.error({ err: error }, 'a live event stream failed'),
  });
  return {
    identities,
    isGrantActive,
    users,
    devices,
    alerts,
    audit: createAuditService(store.db),
    stats: createStatsService(store.db, { deviceDomains: config.deviceDomains }),
    commandCenters: createCommandCentersService(store, { devices, alerts }),
    commandCenterScope,
    serviceProviders: createServiceProvidersService(store),
    documents,
    prescriptions: createPrescriptionsService(store, {
      documents,
      publicUrl: config.publicUrl,
      timeZone: config.timeZone,
    }),
    iot,
    events,
    metrics: createMetricsService({ database, iot, devices, events, documents, outside }),
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
