// Asking a phone for a signature: the signer's latest key and its certificate, the signature prepared on the
// document's latest revision, the request handed to the auth server, and what is needed to complete it kept
// (not the prepared file: preparing is deterministic, so the completion prepares again). Decision 023.
import { randomInt } from 'node:crypto';
import { prepareSignature, SigningError, type PreparedSignature } from '@careplane/pdf-signatures';
import { MAX_DOCUMENT_TITLE, type SigningStarted } from '@careplane/shared/documents/documents.contract';
import { isLanguage, type Language } from '@careplane/shared/i18n/languages';
import type { ActionContext } from '@/lib/audit.js';
import type { WriteScope } from '@/lib/store.js';
import { AppError, conflict, forbidden, notFound, serviceTexts } from '@/lib/errors.js';
import {
  normalizeEntry,
  RESOURCE,
  userOf,
  visibleDocument,
  type DocumentsServiceOptions,
} from './document-access.js';
import { readFile } from './document-files.repository.js';
import { findDocument, partyIdsOf, userLanguage, type DocumentRecord } from './documents.repository.js';
import type { PlatformCa, SignerCertificate } from './platform-ca.js';
import { insertSigningRequest } from './signing.repository.js';

/** What the phone shows by default: the document's title, in the signer's language. */
const signDocument: Record<Language, (title: string) => string> = {
  en: (title) => `Sign the document "${title}"`,
  th: (title) => `ลงนามเอกสาร "${title}"`,
};

/** Written as /Reason into every signature. */
export const SIGNING_REASON = 'Signed with Careplane';

const BINDING_LETTERS = 'ACDEFHJKLMNPRTUVWXY';
const BINDING_DIGITS = '2345679';
/** Two letters and two digits without look-alikes, as the sign-in's (decision 015). */
export const newBindingMessage = () =>
  `${BINDING_LETTERS[randomInt(BINDING_LETTERS.length)]}${BINDING_LETTERS[randomInt(BINDING_LETTERS.length)]} ` +
  `${BINDING_DIGITS[randomInt(BINDING_DIGITS.length)]}${BINDING_DIGITS[randomInt(BINDING_DIGITS.length)]}`;

/**
 * Runs a step of the signing core, its refusals turned into the server's errors: what cannot be signed or
 * certified is the caller's (400); a prepared signature that no longer fits is ours (500).
 */
async function signingStep<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof SigningError)) throw error;
    throw new AppError(
      error.reason === 'invalid-input' ? 400 : 500,
      serviceTexts.signingRefused(error.message),
    );
  }
}

/** The signature on `bytes` as the platform prepares it: the same inputs give the same bytes. */
export const prepareFor = (
  ca: PlatformCa,
  bytes: Uint8Array,
  input: { signerName: string; signingTime: Date; certificate: SignerCertificate },
): PreparedSignature =>
  prepareSignature(bytes, {
    signerName: input.signerName,
    signingTime: input.signingTime,
    signerCertificate: input.certificate.der,
    caCertificate: ca.certificateDer,
    reason: SIGNING_REASON,
  });

export function createSigningRequests({ store, ca, gateway }: DocumentsServiceOptions) {
  const db = store.db;

  async function defaultDescription(record: DocumentRecord, userId: string, context: ActionContext) {
    const stored = await userLanguage(db, userId);
    const language = isLanguage(stored) ? stored : (context.language ?? 'en');
    return signDocument[language](record.title.slice(0, 200));
  }

  async function requestSignature(id: string, context: ActionContext): Promise<SigningStarted> {
    const user = userOf(context.caller);
    const record = await visibleDocument(store, id, user);
    const parties = await partyIdsOf(db, id);
    if (record.createdByUserId !== user.userId && !parties.includes(user.userId)) {
      throw forbidden(serviceTexts.ownerOrPartiesSign);
    }
    return startSigning(record, { userId: user.userId, subject: user.subject }, context);
  }

  /**
   * Asks the signer's phone to sign the document's latest revision. `signer` is the person whose key signs;
   * `context` is who asked (the audit's actor), which may be someone else acting for them.
   */
  async function startSigning(
    record: DocumentRecord,
    signer: { userId: string; subject: string },
    context: ActionContext,
    /**
     * What the phone shows the signer (at most 280 characters); by default, the document's title in the
     * signer's own language, else the request's.
     */
    description?: string,
  ): Promise<SigningStarted> {
    const id = record.id;
    const user = signer;
    const metadata = record.signingPartiesMetadata.map(normalizeEntry);
    if (metadata.some((entry) => entry.userId === user.userId)) throw conflict(serviceTexts.alreadySigned);
    const base = record.signedSha256 ?? record.originalSha256;
    if (!base || !record.originalSha256) throw conflict(serviceTexts.noFileToSign);

    const identity = await gateway.identity(user.subject);
    if (!identity) throw conflict(serviceTexts.signerUnknown);
    const key = await gateway.latestActiveKey(identity.id);
    if (!key) throw conflict(serviceTexts.noAuthenticator);
    const certificate = await signingStep(() =>
      ca.certificateForKey({
        keyId: key.id,
        identityId: identity.id,
        publicJwk: key.publicJwk,
        identity: {
          firstName: identity.firstName,
          lastName: identity.lastName,
          username: identity.username,
          ...(identity.email ? { email: identity.email } : {}),
        },
      }),
    );
    const bytes = await readFile(db, base);
    if (!bytes) throw conflict(serviceTexts.fileMissing);
    // PDF dates have whole seconds: the time kept is the one written into the file.
    const signingTime = new Date(Math.floor(Date.now() / 1000) * 1000);
    const signerName = `${identity.firstName} ${identity.lastName}`.trim() || identity.username;
    const prepared = await signingStep(() => prepareFor(ca, bytes, { signerName, signingTime, certificate }));
    const bindingMessage = newBindingMessage();
    const started = await gateway.create(identity.id, {
      documentId: id,
      title: record.title.slice(0, MAX_DOCUMENT_TITLE),
      documentSha256: record.originalSha256,
      signedAttributes: prepared.toBeSigned,
      signingTime,
      certificateSha256: certificate.fingerprint,
      keyId: key.id,
      bindingMessage,
      description: (description ?? (await defaultDescription(record, user.userId, context))).slice(0, 280),
    });
    await store.write(context, async (scope) => {
      await insertSigningRequest(scope.tx, {
        id: started.id,
        documentId: id,
        userId: user.userId,
        identityId: identity.id,
        keyId: key.id,
        certificateFingerprint: certificate.fingerprint,
        baseSha256: base,
        signingTime,
        signerName,
        signedAttributes: prepared.toBeSigned,
        bindingMessage,
        expiresAt: new Date(Date.now() + started.expires_in * 1000),
      });
      await scope.audit({
        action: 'sign-request',
        resource: RESOURCE,
        recordId: id,
        changes: { requestId: started.id, keyId: key.id, certificateSerial: certificate.serialNumber },
      });
    });
    return {
      requestId: started.id,
      expiresIn: started.expires_in,
      interval: started.interval,
      bindingMessage,
    };
  }

  /**
   * Asks `signer`'s phone to sign a document, whoever asks; the calling workflow decides who may, and says
   * what the phone shows (what is signed, for whom).
   */
  async function requestSignatureOf(
    documentId: string,
    signer: { userId: string; subject: string },
    context: ActionContext,
    description?: string,
  ): Promise<SigningStarted> {
    const record = await findDocument(db, documentId);
    if (!record) throw notFound('Document');
    return startSigning(record, signer, context, description);
  }

  /**
   * Takes back signatures a workflow no longer wants (another person completed it first), in the workflow's
   * transaction: the signers' phones stop listing them. Their documents are withdrawn by the workflow.
   */
  async function withdrawSignatureRequests(scope: WriteScope, requestIds: readonly string[]): Promise<void> {
    await gateway.withdraw(scope.tx, requestIds);
  }

  return { requestSignature, requestSignatureOf, withdrawSignatureRequests };
}
