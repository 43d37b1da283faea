// What authenticators are asked: sign-ins (CIBA requests) and resource authorizations. An authenticator lists
// the pending requests of its identity and answers one with a signature by its enrolled key over the request
// id, the server's nonce and what it was shown; the first valid answer wins, so a replay finds nothing pending.
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import { errors, type Provider } from './oidc.js';
import { z } from 'zod';
import { clientNames } from '@careplane/shared/auth/clients';
import { text } from '@careplane/shared/common/primitives';
import {
  base64url,
  DOCUMENT_SIGN_ACTION,
  fromBase64url,
  verifyBytes,
  verifyCanonical,
  type DecisionPayload,
  type PendingPayload,
  type PendingRequest,
  type PublicJwk,
} from '@careplane/shared/authenticator/protocol';
import type { Database, Executor } from '@/db/client.js';
import { AUTH_REQUEST_ANSWERED, type ChangeFeed } from '@/lib/changes.js';
import { authAuthenticatorKeys, authRequests } from '@/db/schema/index.js';
import { AppError, badRequest, notFound, serviceTexts, unauthorized } from '@/lib/errors.js';
import type { IdentityService } from './identities.js';
import { BINDING_MESSAGE } from './binding-message.js';
import { grantRevoked } from './grants.js';

export type AuthRequestRow = typeof authRequests.$inferSelect;

/** Signed listings carry their time; this far off the server's clock they are refused. */
export const SIGNED_CLOCK_WINDOW_SECONDS = 120;

export const resourceAuthorizationInputSchema = z
  .object({
    action: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[a-z][a-z0-9._-]*$/, 'a lower-case action name'),
    resource: text(256).min(1),
    /** SHA-256 of what is approved (for a document, its bytes), base64url. */
    digest: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a base64url SHA-256 digest'),
    // Shown on the person's phone: text as people type it, and a binding message as a sign-in's.
    description: text(280).optional(),
    bindingMessage: z.string().regex(BINDING_MESSAGE).optional(),
  })
  .strict();
export type ResourceAuthorizationInput = z.infer<typeof resourceAuthorizationInputSchema>;

/** A document-signing request, made by the documents API for its caller (never over the public route). */
export interface DocumentSigningInput {
  documentId: string;
  title: string;
  /** SHA-256 (hex) of the uploaded file, for the user to compare with the console. */
  documentSha256: string;
  /** The DER signed attributes the phone signs. */
  signedAttributes: Uint8Array;
  signingTime: Date;
  /** SHA-256 (hex) of the certificate issued for `keyId`. */
  certificateSha256: string;
  /** The one authenticator key that may answer (the certificate is for it). */
  keyId: string;
  bindingMessage: string;
  description?: string;
}

export interface DocumentSigningState {
  /** `revoked`: the phone asked was revoked before it answered (its revocation took the request back). */
  status: 'pending' | 'approved' | 'denied' | 'expired' | 'revoked';
  keyId: string | null;
  /** The phone's signature over the signed attributes (P1363, base64url), once approved. */
  documentSignature: string | null;
  decidedAt: Date | null;
  expiresAt: Date;
}

export interface RequestServiceSettings {
  issuer: string;
  resource: string;
  pollInterval: number;
  requestTtl: number;
}

const newNonce = () => randomBytes(24).toString('base64url');

/** Sign-in requests that may wait on one identity's phone at once. */
export const MAX_PENDING_LOGINS = 5;

export class RequestService {
  /** Seconds between two polls of a sign-in or signing request. */
  get pollInterval(): number {
    return this.settings.pollInterval;
  }

  constructor(
    private readonly db: Database,
    private readonly identities: IdentityService,
    private readonly settings: RequestServiceSettings,
    private readonly provider: () => Provider,
    /**
     * Told of every answer to a resource request (every server process hears it through the database), so
     * that the process that asked completes what was approved without anybody polling.
     */
    private readonly changes?: ChangeFeed,
  ) {}

  /** Records a CIBA sign-in request for the identity's authenticators (identityId null: unknown identifier). */
  async recordLogin(input: {
    identityId: string | null;
    clientId: string;
    bindingMessage: string | null;
    scope: string;
    authReqId: string;
    expiresAt: Date;
  }): Promise<AuthRequestRow> {
    const [row] = await this.db
      .insert(authRequests)
      .values({
        kind: 'login',
        identityId: input.identityId,
        clientId: input.clientId,
        bindingMessage: input.bindingMessage,
        details: { scope: input.scope },
        authReqId: input.authReqId,
        nonce: newNonce(),
        expiresAt: input.expiresAt,
      })
      .returning();
    if (input.identityId) await this.supersedeOldLogins(input.identityId);
    return row!;
  }

  /**
   * Keeps at most MAX_PENDING_LOGINS sign-in requests waiting on an identity's phone: older ones are set
   * aside (never approvable), so requests a stranger starts with someone's identifier cannot bury the one the
   * person starts themselves, which is always the newest.
   */
  private async supersedeOldLogins(identityId: string) {
    const mine = and(
      eq(authRequests.identityId, identityId),
      eq(authRequests.kind, 'login'),
      eq(authRequests.status, 'pending'),
    );
    const newest = this.db
      .select({ id: authRequests.id })
      .from(authRequests)
      .where(mine)
      .orderBy(desc(authRequests.createdAt))
      .limit(MAX_PENDING_LOGINS);
    await this.db
      .update(authRequests)
      .set({ status: 'denied', decidedAt: new Date() })
      .where(and(mine, notInArray(authRequests.id, newest)));
  }

  private async verifiedKey(keyId: string) {
    const found = await this.identities.activeKey(keyId);
    if (!found) throw unauthorized(serviceTexts.unknownAuthenticatorKey);
    return found;
  }

  /**
   * The identity's requests still waiting for an answer, newest first: the one the person just started is on
   * top, and requests a stranger started earlier with their identifier sit below it. The PWA and the CLI show
   * this order as it comes.
   */
  async pending(input: { keyId: string; iat: number; signature: string }): Promise<PendingRequest[]> {
    const { key, identity } = await this.verifiedKey(input.keyId);
    const now = Math.floor(Date.now() / 1000);
    if (Math.abs(now - input.iat) > SIGNED_CLOCK_WINDOW_SECONDS)
      throw unauthorized(serviceTexts.signedTimeOff);
    const payload: PendingPayload = {
      typ: 'careplane-pending',
      v: 1,
      aud: this.settings.issuer,
      keyId: key.id,
      iat: input.iat,
    };
    if (!(await verifyCanonical(key.publicJwk, payload, input.signature))) {
      throw unauthorized(serviceTexts.signatureDoesNotVerify);
    }
    const rows = await this.db
      .select()
      .from(authRequests)
      .where(
        and(
          eq(authRequests.identityId, identity.id),
          eq(authRequests.status, 'pending'),
          gt(authRequests.expiresAt, new Date()),
          // A document signature is asked of one key (its certificate is for that key).
          sql`coalesce(${authRequests.details} ->> 'keyId', ${key.id}) = ${key.id}`,
        ),
      )
      .orderBy(desc(authRequests.createdAt), desc(authRequests.id))
      .limit(50);
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      clientId: row.clientId,
      clientName: clientNames[row.clientId] ?? row.clientId,
      bindingMessage: row.bindingMessage,
      details: row.details,
      nonce: row.nonce,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    }));
  }

  private decisionPayload(row: AuthRequestRow, keyId: string, decision: 'approve' | 'deny'): DecisionPayload {
    const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return {
      typ: 'careplane-decision',
      v: 1,
      aud: this.settings.issuer,
      keyId,
      requestId: row.id,
      nonce: row.nonce,
      decision,
      kind: row.kind,
      bindingMessage: row.bindingMessage,
      ...(row.kind === 'resource'
        ? {
            action: str(row.details.action),
            resource: str(row.details.resource),
            digest: str(row.details.digest),
            title: str(row.details.title),
            documentSha256: str(row.details.documentSha256),
            signingTime: str(row.details.signingTime),
          }
        : {}),
    };
  }

  /**
   * An approval of a document signature carries the phone's signature over the signed attributes; it must
   * verify with the same key as the decision. Answers it, or undefined for any other request or a denial.
   */
  private async documentSignatureOf(
    row: AuthRequestRow,
    key: { id: string; publicJwk: PublicJwk },
    decision: 'approve' | 'deny',
    documentSignature: string | undefined,
  ): Promise<string | undefined> {
    if (row.kind !== 'resource' || row.details.action !== DOCUMENT_SIGN_ACTION) {
      if (documentSignature) throw badRequest(serviceTexts.documentSignatureOnlyForDocuments);
      return undefined;
    }
    // Only the key the certificate was issued for may answer (other keys never see the request).
    if (row.details.keyId !== key.id) throw notFound('Request');
    if (decision === 'deny') return undefined;
    if (!documentSignature) throw badRequest(serviceTexts.documentSignatureNeeded);
    const signedAttributes =
      typeof row.details.signedAttributes === 'string' ? fromBase64url(row.details.signedAttributes) : null;
    if (!signedAttributes || !(await verifyBytes(key.publicJwk, signedAttributes, documentSignature))) {
      throw unauthorized(serviceTexts.documentSignatureDoesNotVerify);
    }
    return documentSignature;
  }

  /** Approves or denies one pending request of the key's identity. */
  async decide(input: {
    keyId: string;
    requestId: string;
    decision: 'approve' | 'deny';
    signature: string;
    documentSignature?: string | undefined;
  }): Promise<{ status: 'approved' | 'denied' }> {
    const { key, identity } = await this.verifiedKey(input.keyId);
    if (!z.uuid().safeParse(input.requestId).success) throw notFound('Request');
    const [row] = await this.db
      .select()
      .from(authRequests)
      .where(and(eq(authRequests.id, input.requestId), eq(authRequests.identityId, identity.id)))
      .limit(1);
    if (!row) throw notFound('Request');
    const documentSignature = await this.documentSignatureOf(
      row,
      key,
      input.decision,
      input.documentSignature,
    );
    const payload = this.decisionPayload(row, key.id, input.decision);
    if (!(await verifyCanonical(key.publicJwk, payload, input.signature))) {
      throw unauthorized(serviceTexts.signatureDoesNotVerify);
    }
    const status = input.decision === 'approve' ? ('approved' as const) : ('denied' as const);
    const now = new Date();
    const [decided] = await this.db
      .update(authRequests)
      .set({
        status,
        decidedAt: now,
        keyId: key.id,
        signedPayload: JSON.stringify(payload),
        signature: input.signature,
        documentSignature: documentSignature ?? null,
      })
      .where(
        and(
          eq(authRequests.id, row.id),
          eq(authRequests.status, 'pending'),
          gt(authRequests.expiresAt, now),
          // The phone may have been revoked since it was looked up: a revoked phone answers nothing.
          sql`exists (select 1 from ${authAuthenticatorKeys} where ${and(
            eq(authAuthenticatorKeys.id, key.id),
            isNull(authAuthenticatorKeys.revokedAt),
          )})`,
        ),
      )
      .returning({ id: authRequests.id });
    if (!decided) {
      if (!(await this.identities.activeKey(key.id)))
        throw unauthorized(serviceTexts.unknownAuthenticatorKey);
      throw new AppError(
        409,
        row.expiresAt <= now ? serviceTexts.requestExpired : serviceTexts.requestAnswered,
      );
    }
    await this.identities.touchKey(key.id);
    if (row.kind === 'resource') {
      await this.changes?.announce(this.db, [
        {
          resource: AUTH_REQUEST_ANSWERED,
          action: input.decision,
          recordId: row.id,
          actorUserId: null,
          at: now.getTime(),
        },
      ]);
    }

    if (row.kind === 'login' && row.authReqId) {
      const provider = this.provider();
      if (status === 'approved') {
        const grant = new provider.Grant({ accountId: identity.id, clientId: row.clientId });
        const scope = typeof row.details.scope === 'string' ? row.details.scope : 'openid';
        grant.addOIDCScope(scope);
        grant.addResourceScope(this.settings.resource, 'api');
        await grant.save();
        try {
          await provider.backchannelResult(row.authReqId, grant, {
            acr: identity.assuranceLevel,
            amr: ['hwk', 'user'],
            authTime: Math.floor(now.getTime() / 1000),
          });
        } catch (error) {
          // The sign-in ended meanwhile (the phone revoked or the person blocked ended it): nothing to approve.
          if (!(error instanceof Error && error.message === 'BackchannelAuthenticationRequest not found'))
            throw error;
          await this.endLateSignIns(identity.id);
          throw new AppError(409, serviceTexts.signInEndedBeforeApproval);
        }
        // A revocation or a block that committed while this approval was saved ended the person's sign-ins
        // before this one existed: this one ends too.
        if (!(await this.identities.activeKey(key.id))) {
          await this.endLateSignIns(identity.id);
          throw unauthorized(serviceTexts.unknownAuthenticatorKey);
        }
      } else {
        await provider.backchannelResult(
          row.authReqId,
          new errors.AccessDenied(serviceTexts.signInDenied.en),
        );
      }
    }
    return { status };
  }

  /** Ends the sign-ins an approval that raced a revocation or a block saved after those ended them. */
  private async endLateSignIns(identityId: string) {
    const ended = await this.identities.endSignIns(this.db, identityId);
    await this.changes?.announce(
      this.db,
      ended.map((grantId) => ({ ...grantRevoked(grantId), actorUserId: null, at: Date.now() })),
    );
  }

  // ------------------------------------------------------------------------------------------------------
  // Resource authorization

  async createResourceAuthorization(
    identityId: string,
    clientId: string,
    input: ResourceAuthorizationInput,
  ): Promise<{ id: string; expires_in: number; interval: number }> {
    if (input.action === DOCUMENT_SIGN_ACTION) {
      throw badRequest(serviceTexts.documentsApiSigns);
    }
    const expiresIn = this.settings.requestTtl;
    const [row] = await this.db
      .insert(authRequests)
      .values({
        kind: 'resource',
        identityId,
        clientId,
        bindingMessage: input.bindingMessage ?? null,
        details: {
          action: input.action,
          resource: input.resource,
          digest: input.digest,
          ...(input.description ? { description: input.description } : {}),
        },
        nonce: newNonce(),
        expiresAt: new Date(Date.now() + expiresIn * 1000),
      })
      .returning({ id: authRequests.id });
    return { id: row!.id, expires_in: expiresIn, interval: this.settings.pollInterval };
  }

  /** Asks the identity's authenticator (the key `input.keyId`) to sign a document's signed attributes. */
  async createDocumentSigning(
    identityId: string,
    clientId: string,
    input: DocumentSigningInput,
  ): Promise<{ id: string; expires_in: number; interval: number }> {
    const expiresIn = this.settings.requestTtl;
    const details = {
      action: DOCUMENT_SIGN_ACTION,
      resource: `documents/${input.documentId}`,
      digest: createHash('sha256').update(input.signedAttributes).digest('base64url'),
      title: input.title,
      documentSha256: input.documentSha256,
      signedAttributes: base64url(input.signedAttributes),
      signingTime: input.signingTime.toISOString(),
      certificateSha256: input.certificateSha256,
      keyId: input.keyId,
      ...(input.description ? { description: input.description } : {}),
    };
    const [row] = await this.db
      .insert(authRequests)
      .values({
        kind: 'resource',
        identityId,
        clientId,
        bindingMessage: input.bindingMessage,
        details,
        nonce: newNonce(),
        expiresAt: new Date(Date.now() + expiresIn * 1000),
      })
      .returning({ id: authRequests.id });
    return { id: row!.id, expires_in: expiresIn, interval: this.settings.pollInterval };
  }

  /**
   * Takes back document-signing requests whose signature is no longer wanted (the workflow that asked ended
   * without it), in the caller's transaction: the phone no longer lists them and cannot approve them.
   */
  async withdrawDocumentSignings(executor: Executor, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await executor
      .update(authRequests)
      .set({ status: 'denied', decidedAt: new Date() })
      .where(
        and(
          inArray(authRequests.id, [...ids]),
          eq(authRequests.kind, 'resource'),
          eq(authRequests.status, 'pending'),
        ),
      );
  }

  /** The state of a document-signing request of the identity; undefined when there is none. */
  async documentSigningState(identityId: string, id: string): Promise<DocumentSigningState | undefined> {
    if (!z.uuid().safeParse(id).success) return undefined;
    const [found] = await this.db
      .select({ row: authRequests, keyRevokedAt: authAuthenticatorKeys.revokedAt })
      .from(authRequests)
      // The one key that may answer, named when the request was made.
      .leftJoin(authAuthenticatorKeys, sql`${authAuthenticatorKeys.id} = ${authRequests.details} ->> 'keyId'`)
      .where(
        and(
          eq(authRequests.id, id),
          eq(authRequests.identityId, identityId),
          eq(authRequests.kind, 'resource'),
          sql`${authRequests.details} ->> 'action' = ${DOCUMENT_SIGN_ACTION}`,
        ),
      )
      .limit(1);
    if (!found) return undefined;
    const { row, keyRevokedAt } = found;
    const expired = row.status === 'pending' && row.expiresAt <= new Date();
    // A phone's own answer is signed; a denial with none is the platform's, here its key's revocation.
    const revoked = row.status === 'denied' && row.signedPayload === null && keyRevokedAt !== null;
    return {
      status: expired ? 'expired' : revoked ? 'revoked' : row.status,
      keyId: row.keyId,
      documentSignature: row.documentSignature,
      decidedAt: row.decidedAt,
      expiresAt: row.expiresAt,
    };
  }

  /**
   * The state of the caller's own resource authorization. Polling faster than the interval is refused (429
   * slow_down); an approval answers the authenticator's signature and what it signed.
   */
  async pollResourceAuthorization(identityId: string, id: string) {
    if (!z.uuid().safeParse(id).success) throw notFound('Resource authorization');
    const key = and(
      eq(authRequests.id, id),
      eq(authRequests.identityId, identityId),
      eq(authRequests.kind, 'resource'),
    );
    const threshold = new Date(Date.now() - this.settings.pollInterval * 1000 + 250);
    const [row] = await this.db
      .update(authRequests)
      .set({ polledAt: new Date() })
      .where(and(key, or(isNull(authRequests.polledAt), lt(authRequests.polledAt, threshold))))
      .returning();
    if (!row) {
      const [exists] = await this.db.select({ id: authRequests.id }).from(authRequests).where(key).limit(1);
      if (!exists) throw notFound('Resource authorization');
      throw new AppError(429, serviceTexts.slowDown);
    }
    if (row.status === 'approved') {
      const found = row.keyId ? await this.identities.activeKey(row.keyId) : undefined;
      return {
        status: 'approved' as const,
        keyId: row.keyId,
        signedPayload: row.signedPayload,
        signature: row.signature,
        ...(row.documentSignature ? { documentSignature: row.documentSignature } : {}),
        ...(found ? { publicJwk: found.key.publicJwk } : {}),
        decidedAt: row.decidedAt?.toISOString(),
      };
    }
    if (row.status === 'denied') return { status: 'denied' as const };
    if (row.expiresAt <= new Date()) return { status: 'expired' as const };
    return {
      status: 'pending' as const,
      expires_in: Math.max(0, Math.floor((row.expiresAt.getTime() - Date.now()) / 1000)),
    };
  }
}
