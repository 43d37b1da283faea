// The documents service on the platform CA, opened once by the composition root (services.ts) and shared by
// the documents routes and the workflows that have documents signed (prescriptions).
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import type { IdentityService } from '@/auth-server/identities.js';
import type { RequestService } from '@/auth-server/requests.js';
import type { AppConfig } from '@/config.js';
import type { SecretBox } from '@/lib/secret-box.js';
import type { Store } from '@/lib/store.js';
import { createDocumentsService, signingGatewayOf, type DocumentsService } from './documents.service.js';
import { openPlatformCa, resolveCaPassphrase } from './platform-ca.js';

export interface OpenDocumentsOptions {
  store: Store;
  config: AppConfig;
  /** The auth server's services: in this process, or built on its tables (AUTH_SERVER=0). */
  identities: IdentityService;
  requests: RequestService;
  /** The server's encryption key: the CA passphrase derives from it unless one is configured. */
  secrets: SecretBox;
}

/** Loads (or, on the first start, creates) the platform CA and builds the service on it. */
export async function openDocumentsService(options: OpenDocumentsOptions): Promise<DocumentsService> {
  const passphrase = resolveCaPassphrase({
    source: options.config.documents.caPassphrase,
    secrets: options.secrets,
  });
  const ca = await openPlatformCa(options.store.db, passphrase);
  return createDocumentsService({
    store: options.store,
    ca,
    gateway: signingGatewayOf(options.identities, options.requests, CONSOLE_CLIENT_ID),
  });
}
