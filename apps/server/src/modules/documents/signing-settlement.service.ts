// Ending a signature asked of a phone, once: signed (the phone's signature completed into the PDF, stored as
// the document's new revision with its signature entry), denied, expired or failed. Whoever comes first ends
// it (the completion that hears the phone's answer, a sweep, or a look at the request: decision 031); the
// request row is locked, so the others find it ended. The workflows that asked are told inside the same
// transaction.
import {
  type SignatureEntry,
  type SigningStarted,
  type SigningState,
} from '@careplane/shared/documents/documents.contract';
import { completeSignature, SigningError } from '@careplane/pdf-signatures';
import type { DocumentSigningState } from '@/auth-server/requests.js';
import { actingFor, type ActionContext } from '@/lib/audit.js';
import { AppError, notFound, serviceTexts } from '@/lib/errors.js';
import type { WriteScope } from '@/lib/store.js';
import {
  isFullySigned,
  normalizeEntry,
  RESOURCE,
  sha256Hex,
  userOf,
  type DocumentsServiceOptions,
} from './document-access.js';
import type { ReadDocument } from './document-reads.service.js';
import { readFile, upsertFile } from './document-files.repository.js';
import { lockDocument, partyIdsOf, updateDocument, userNames } from './documents.repository.js';
import {
  findSigningRequest,
  insertCompletedSignature,
  lockSigningRequest,
  updateSigningRequest,
  waitingSigningRequestIds,
  type SigningRequestRow,
} from './signing.repository.js';
import { signingFailureText } from './signing-failure-texts.js';
import { prepareFor } from './signing-requests.service.js';

/** How a signature asked of a phone ended. */
export interface SigningOutcome {
  requestId: string;
  documentId: string;
  /** Whose phone was asked. */
  signerUserId: string;
  status: 'signed' | 'denied' | 'expired' | 'failed';
  failure: string | null;
}

/**
 * Told how a signature ended, inside the transaction that records it, so that the workflow that asked for it
 * (a prescription's transition) commits with it or not at all.
 */
export type SigningSettledHook = (scope: WriteScope, outcome: SigningOutcome) => Promise<void>;

export function createSigningSettlement({
  store,
  ca,
  gateway,
  read,
}: DocumentsServiceOptions & { read: ReadDocument }) {
  const db = store.db;

  const stateOf = (row: SigningRequestRow): SigningState => ({
    requestId: row.id,
    status: row.status,
    ...(row.status === 'failed' && row.failure ? { message: row.failure } : {}),
  });

  const settledHooks: SigningSettledHook[] = [];
  const committedListeners: ((outcome: SigningOutcome) => void)[] = [];

  /** Tells the workflows how a request ended, in the transaction that records it; answers the outcome. */
  async function tellSettled(
    scope: WriteScope,
    row: SigningRequestRow,
    ended: Omit<SigningOutcome, 'requestId' | 'documentId' | 'signerUserId'>,
  ): Promise<SigningOutcome> {
    const outcome = { requestId: row.id, documentId: row.documentId, signerUserId: row.userId, ...ended };
    for (const hook of settledHooks) await hook(scope, outcome);
    return outcome;
  }

  /** A write that may end a request; once it has committed, the listeners hear the request it ended. */
  async function ending<T>(
    row: SigningRequestRow,
    work: (scope: WriteScope, ended: (outcome: SigningOutcome) => void) => Promise<T>,
  ): Promise<T> {
    let outcome: SigningOutcome | undefined;
    const result = await store.write(signerContext(row), (scope) => work(scope, (told) => (outcome = told)));
    if (outcome) for (const listener of committedListeners) listener(outcome);
    return result;
  }

  /** The phone answered (or did not in time): what follows is recorded as the signer's. */
  const signerContext = (row: SigningRequestRow) =>
    actingFor({ userId: row.userId, subject: row.identityId });

  /** Ends a pending request without touching the document (denied, expired or failed). */
  async function finish(
    row: SigningRequestRow,
    status: 'denied' | 'expired' | 'failed',
    failure?: string,
  ): Promise<SigningState> {
    return ending(row, async (scope, ended) => {
      const locked = await lockSigningRequest(scope.tx, row.id);
      if (!locked) throw notFound('Signing request');
      if (locked.status !== 'pending') return stateOf(locked);
      const values = { status, failure: failure ?? null, completedAt: new Date() };
      await updateSigningRequest(scope.tx, row.id, values);
      await scope.audit({
        action: `sign-${status}`,
        resource: RESOURCE,
        recordId: row.documentId,
        changes: { requestId: row.id, ...(failure ? { failure } : {}) },
      });
      ended(await tellSettled(scope, locked, { status, failure: values.failure }));
      return stateOf({ ...locked, ...values });
    });
  }

  /** Completes an approved request: the phone's signature goes into the PDF, which becomes the new revision. */
  async function complete(row: SigningRequestRow, state: DocumentSigningState) {
    if (state.keyId !== row.keyId || !state.documentSignature) {
      return finish(row, 'failed', serviceTexts.phoneAnsweredWithoutSignature.en);
    }
    const certificate = await ca.certificate(row.certificateFingerprint);
    const bytes = await readFile(db, row.baseSha256);
    if (!certificate || !bytes) return finish(row, 'failed', serviceTexts.signingMaterialMissing.en);
    let signed: Uint8Array;
    try {
      const prepared = prepareFor(ca, bytes, {
        signerName: row.signerName,
        signingTime: row.signingTime,
        certificate,
      });
      if (Buffer.compare(prepared.toBeSigned, row.signedAttributes) !== 0) {
        return await finish(row, 'failed', serviceTexts.preparedSignatureChanged.en);
      }
      signed = completeSignature(prepared, { signature: state.documentSignature });
    } catch (error) {
      if (!(error instanceof SigningError)) throw error;
      return finish(row, 'failed', serviceTexts.signatureNotCompleted(error.message).en);
    }
    const sha256 = sha256Hex(signed);

    const answer = await ending(row, async (scope, ended): Promise<SigningState | null> => {
      const locked = await lockSigningRequest(scope.tx, row.id);
      if (!locked) throw notFound('Signing request');
      if (locked.status !== 'pending') return stateOf(locked);
      const document = await lockDocument(scope.tx, row.documentId);
      if (!document) throw notFound('Document');
      if ((document.signedSha256 ?? document.originalSha256) !== row.baseSha256) {
        const failure = serviceTexts.signedMeanwhile.en;
        await updateSigningRequest(scope.tx, row.id, { status: 'failed', failure, completedAt: new Date() });
        await scope.audit({
          action: 'sign-failed',
          resource: RESOURCE,
          recordId: row.documentId,
          changes: { requestId: row.id, failure },
        });
        ended(await tellSettled(scope, locked, { status: 'failed', failure }));
        return { requestId: row.id, status: 'failed', message: failure };
      }
      await upsertFile(scope.tx, { sha256, size: signed.length, bytes: signed });
      const users = await userNames(scope.tx, [row.userId]);
      const entry: SignatureEntry = {
        userId: row.userId,
        name: row.signerName,
        ...(users[0] ? { username: users[0].username } : {}),
        role: document.createdByUserId === row.userId ? 'owner' : 'party',
        signedAt: row.signingTime.toISOString(),
        method: 'authenticator',
        keyId: row.keyId,
        certificateSerial: certificate.serialNumber,
        certificateSha256: certificate.fingerprint,
        revisionSha256: sha256,
      };
      const metadata = [...document.signingPartiesMetadata.map(normalizeEntry), entry];
      const parties = await partyIdsOf(scope.tx, document.id);
      await updateDocument(scope.tx, document.id, {
        signedSha256: sha256,
        signingPartiesMetadata: metadata,
        isSigned: isFullySigned(metadata, parties),
      });
      await insertCompletedSignature(scope.tx, {
        certificateFingerprint: certificate.fingerprint,
        revisionSha256: sha256,
        signingTime: row.signingTime,
      });
      await updateSigningRequest(scope.tx, row.id, { status: 'signed', completedAt: new Date() });
      await scope.audit({
        action: 'sign',
        resource: RESOURCE,
        recordId: document.id,
        changes: {
          requestId: row.id,
          revisionSha256: sha256,
          keyId: row.keyId,
          certificateSerial: certificate.serialNumber,
        },
      });
      ended(await tellSettled(scope, locked, { status: 'signed', failure: null }));
      return null;
    });
    if (answer) return answer;
    return { requestId: row.id, status: 'signed' as const };
  }

  /**
   * Where a request stands, ending it once the phone answered or the time ran out. The server does this as
   * soon as it hears of an answer (signing-completion.ts); a look at the request does it too, and whichever
   * comes first ends it, once: the rest find it ended.
   */
  async function advance(row: SigningRequestRow): Promise<SigningState> {
    if (row.status !== 'pending') return stateOf(row);
    const state = await gateway.state(row.identityId, row.id);
    if (!state || state.status === 'expired') return finish(row, 'expired');
    if (state.status === 'denied') return finish(row, 'denied');
    if (state.status === 'revoked') return finish(row, 'failed', serviceTexts.phoneRevokedBeforeAnswer.en);
    if (state.status === 'approved') return complete(row, state);
    return {
      requestId: row.id,
      status: 'pending',
      expiresIn: Math.max(0, Math.floor((state.expiresAt.getTime() - Date.now()) / 1000)),
    };
  }

  /** Where a signature asked of the caller's phone stands; why it failed in the caller's language. */
  async function signingState(id: string, requestId: string, context: ActionContext): Promise<SigningState> {
    const user = userOf(context.caller);
    const row = await findSigningRequest(db, { id: requestId, documentId: id, userId: user.userId });
    if (!row) throw notFound('Signing request');
    const state = await advance(row);
    if (state.status === 'signed') return { ...state, document: await read(id, context.caller) };
    return state.message ? { ...state, message: signingFailureText(state.message, context.language) } : state;
  }

  /**
   * Ends the request if its phone answered or its time ran out; any request id (others are ignored, as is one
   * that goes meanwhile: its document was removed, a workflow's receipt withdrawn by another process).
   */
  async function settleSigning(requestId: string): Promise<SigningState | undefined> {
    const row = await findSigningRequest(db, { id: requestId });
    if (!row) return undefined;
    try {
      return await advance(row);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404) return undefined;
      throw error;
    }
  }

  /**
   * A request still waiting for its phone, as it was started (the same code to compare, the time left), or
   * undefined once it has ended or its time has run out (or for an unknown id).
   */
  async function waitingSignature(requestId: string): Promise<SigningStarted | undefined> {
    const row = await findSigningRequest(db, { id: requestId });
    const left = row ? Math.floor((row.expiresAt.getTime() - Date.now()) / 1000) : 0;
    if (!row || row.status !== 'pending' || left <= 0) return undefined;
    return {
      requestId: row.id,
      expiresIn: left,
      interval: gateway.pollInterval,
      bindingMessage: row.bindingMessage,
    };
  }

  /** How a request ended, once it has; undefined while it waits (or for an unknown id). */
  async function signingOutcome(requestId: string): Promise<SigningOutcome | undefined> {
    const row = await findSigningRequest(db, { id: requestId });
    if (!row || row.status === 'pending') return undefined;
    return {
      requestId: row.id,
      documentId: row.documentId,
      signerUserId: row.userId,
      status: row.status,
      failure: row.failure,
    };
  }

  /** Adds a workflow told of every ended request inside the transaction that ends it. */
  function onSigningSettled(hook: SigningSettledHook) {
    settledHooks.push(hook);
  }

  /** Adds a listener told of each request this process ended, once its transaction has committed. */
  function onSigningEnded(listener: (outcome: SigningOutcome) => void) {
    committedListeners.push(listener);
  }

  return {
    signingState,
    settleSigning,
    signingOutcome,
    waitingSignature,
    waitingSigningRequests: (limit: number) => waitingSigningRequestIds(db, limit),
    onSigningSettled,
    onSigningEnded,
  };
}
