// How the documents module reaches the auth server to ask a phone for a signature: the auth server's services
// in this process, or the same services on its tables when it runs in a process of its own (AUTH_SERVER=0).
import type { PublicJwk } from '@careplane/shared/authenticator/protocol';
import type { IdentityService } from '@/auth-server/identities.js';
import type { Executor } from '@/db/client.js';
import type { DocumentSigningInput, DocumentSigningState, RequestService } from '@/auth-server/requests.js';

export interface SigningGateway {
  identity(
    identityId: string,
  ): Promise<
    { id: string; username: string; firstName: string; lastName: string; email: string | null } | undefined
  >;
  /** The key a signature is asked of: the identity's active key used last. */
  latestActiveKey(identityId: string): Promise<{ id: string; publicJwk: PublicJwk } | undefined>;
  create(
    identityId: string,
    input: DocumentSigningInput,
  ): Promise<{ id: string; expires_in: number; interval: number }>;
  state(identityId: string, id: string): Promise<DocumentSigningState | undefined>;
  /** Takes requests back from the phones, in the caller's transaction: they can no longer be approved. */
  withdraw(executor: Executor, ids: readonly string[]): Promise<void>;
  /** Seconds between two polls of a request's state. */
  readonly pollInterval: number;
}

/** The gateway on the auth server's own services (in this process, or on its tables with AUTH_SERVER=0). */
export const signingGatewayOf = (
  identities: IdentityService,
  requests: RequestService,
  clientId: string,
): SigningGateway => ({
  identity: (identityId) => identities.findById(identityId),
  latestActiveKey: async (identityId) => {
    const key = await identities.latestActiveKey(identityId);
    return key ? { id: key.id, publicJwk: key.publicJwk } : undefined;
  },
  create: (identityId, input) => requests.createDocumentSigning(identityId, clientId, input),
  state: (identityId, id) => requests.documentSigningState(identityId, id),
  withdraw: (executor, ids) => requests.withdrawDocumentSignings(executor, ids),
  get pollInterval() {
    return requests.pollInterval;
  },
});
