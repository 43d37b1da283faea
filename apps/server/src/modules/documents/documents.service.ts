// Documents: upload (checked as a PDF by its content), lists and reads for the owner, the parties and admins
// (anyone else gets 404), downloads streamed from the database, sharing, signing on the phone through the
// auth server's resource authorization, and verification of any PDF for anyone.
import { createHash, randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  downloadFileName,
  MAX_DOCUMENT_TITLE,
  MAX_PARTY_SUGGESTIONS,
  type Document,
  type DocumentShare,
  MAX_LISTED_CHANGES,
  type PartySuggestions,
  type SignatureEntry,
  type SigningStarted,
  type SigningState,
  type VerificationReport,
} from '@careplane/shared/documents/documents.contract';
import type { ListResponse } from '@careplane/shared/common/http';
import {
  completeSignature,
  isReadablePdf,
  prepareSignature,
  SigningError,
  verifyPdf,
  type PreparedSignature,
} from '@careplane/pdf-signatures';
import type { PublicJwk } from '@careplane/shared/authenticator/protocol';
import type { IdentityService } from '../../auth-server/identities.js';
import type {
  DocumentSigningInput,
  DocumentSigningState,
  RequestService,
} from '../../auth-server/requests.js';
import { actingFor, type ActionContext } from '../../lib/audit.js';
import type { Caller } from '../../lib/caller.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import type { Store, WriteScope } from '../../lib/store.js';
import { missingUserIds } from '../users/users.service.js';
import {
  deleteUnreferencedFiles,
  fileExists,
  readFile,
  readFileSlice,
  upsertFile,
} from './document-files.repository.js';
import {
  deleteDocument,
  findDocument,
  insertDocument,
  listDocuments,
  lockDocument,
  partiesOf,
  partyIdsOf,
  replaceParties,
  searchUserNames,
  updateDocument,
  userNames,
  visibleTo,
  type DocumentPage,
  type DocumentRecord,
  type UserName,
} from './documents.repository.js';
import {
  findSigningRequest,
  insertSigningRequest,
  lockSigningRequest,
  updateSigningRequest,
  waitingSigningRequestIds,
  type SigningRequestRow,
} from './signing.repository.js';
import type { PlatformCa, SignerCertificate } from './platform-ca.js';

/** Audit and change-feed name of the resource. */
const RESOURCE = 'documents';
/** Written as /Reason into every signature. */
export const SIGNING_REASON = 'Signed with Careplane';
/** A download reads the file from the database in slices of this size. */
export const DOWNLOAD_CHUNK_BYTES = 1024 * 1024;

/** How the documents module reaches the auth server: its service in this process, or its tables. */
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
});

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

export interface DocumentsServiceOptions {
  store: Store;
  ca: PlatformCa;
  gateway: SigningGateway;
}

/** A file as the upload route received it. */
export interface UploadedFile {
  bytes: Uint8Array;
  filename: string | undefined;
  title: string | undefined;
}

export interface FileDownload {
  filename: string;
  size: number;
  sha256: string;
  stream: Readable;
}

const unsupportedMediaType = (message: string) => new AppError(415, message);

/**
 * Runs a step of the signing core, its refusals turned into the server's errors: what cannot be signed or
 * certified is the caller's (400); a prepared signature that no longer fits is ours (500).
 */
async function signingStep<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof SigningError)) throw error;
    throw new AppError(error.reason === 'invalid-input' ? 400 : 500, error.message);
  }
}

/**
 * A PDF by its content, never by its name: `%PDF-` within the first 1024 bytes and a structure our reader
 * follows to a catalog (the same reader that signs it later).
 */
export function assertPdf(bytes: Uint8Array): void {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024));
  if (head.indexOf('%PDF-') < 0) throw unsupportedMediaType('The file is not a PDF');
  if (!isReadablePdf(bytes)) throw unsupportedMediaType('The file is not a readable PDF');
}

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const BINDING_LETTERS = 'ACDEFHJKLMNPRTUVWXY';
const BINDING_DIGITS = '2345679';
/** Two letters and two digits without look-alikes, as the sign-in's (decision 015). */
export const newBindingMessage = () =>
  `${BINDING_LETTERS[randomInt(BINDING_LETTERS.length)]}${BINDING_LETTERS[randomInt(BINDING_LETTERS.length)]} ` +
  `${BINDING_DIGITS[randomInt(BINDING_DIGITS.length)]}${BINDING_DIGITS[randomInt(BINDING_DIGITS.length)]}`;

const displayName = (user: Pick<UserName, 'firstName' | 'lastName' | 'usernameWithoutDomain'>) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ') || user.usernameWithoutDomain;

const optionalText = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** A stored signature entry in the contract's shape (entries written before this API have fewer fields). */
function normalizeEntry(raw: Record<string, unknown>): SignatureEntry {
  const entry: SignatureEntry = {
    userId: typeof raw.userId === 'string' ? raw.userId : null,
    name: optionalText(raw.name) ?? 'Unknown signer',
    signedAt: optionalText(raw.signedAt) ?? new Date(0).toISOString(),
  };
  for (const key of [
    'username',
    'role',
    'method',
    'keyId',
    'certificateSerial',
    'certificateSha256',
    'revisionSha256',
  ] as const) {
    const value = optionalText(raw[key]);
    if (value) entry[key] = value;
  }
  return entry;
}

/** Signed at least once, and no party asked to sign is still pending. */
const isFullySigned = (metadata: readonly SignatureEntry[], partyIds: readonly string[]) => {
  const signers = new Set(metadata.map((entry) => entry.userId));
  return metadata.length > 0 && partyIds.every((id) => signers.has(id));
};

/** The title of an upload: the given one, else the file's name without its extension. */
function titleOf(upload: UploadedFile): string {
  const given = upload.title?.trim();
  if (given) return given;
  const fromName = upload.filename
    ?.replace(/\.pdf$/i, '')
    .replace(/\p{Cc}/gu, '')
    .trim();
  return (fromName || 'Document').slice(0, MAX_DOCUMENT_TITLE);
}

export function createDocumentsService({ store, ca, gateway }: DocumentsServiceOptions) {
  const db = store.db;

  /** The caller's user id: documents belong to application users (created at the first sign-in). */
  const userOf = (caller: Caller | null) => {
    if (!caller) throw new AppError(401, 'Authentication required');
    if (!caller.userId) {
      throw forbidden('No user record for this identity yet: sign in once with POST /api/auth');
    }
    return { ...caller, userId: caller.userId };
  };

  /** What the caller may see: admins everything, others their own and what they are asked to sign. */
  const visibility = (caller: Caller & { userId: string }) =>
    caller.isAdmin ? undefined : visibleTo(caller.userId);

  async function visibleDocument(id: string, caller: Caller & { userId: string }) {
    const found = await findDocument(db, id, visibility(caller));
    if (!found) throw notFound('Document');
    return found;
  }

  async function toDocuments(
    records: DocumentRecord[],
    caller: Caller & { userId: string },
  ): Promise<Document[]> {
    const parties = await partiesOf(
      db,
      records.map((record) => record.id),
    );
    const ownerIds = [
      ...new Set(records.map((record) => record.createdByUserId).filter((id) => id !== null)),
    ];
    const owners = new Map((await userNames(db, ownerIds)).map((user) => [user.id, displayName(user)]));
    return records.map((record) => {
      const metadata = record.signingPartiesMetadata.map(normalizeEntry);
      const signedAt = new Map(metadata.map((entry) => [entry.userId, entry.signedAt]));
      const own = parties.filter((party) => party.documentId === record.id);
      const isOwner = record.createdByUserId === caller.userId;
      const isParty = own.some((party) => party.userId === caller.userId);
      const hasSigned = signedAt.has(caller.userId);
      const hasFile = record.originalSha256 !== null;
      return {
        id: record.id,
        title: record.title,
        createdAt: record.createdAt.toISOString(),
        updatedAt: record.updatedAt.toISOString(),
        file:
          record.originalSha256 && record.originalSize !== null
            ? { sha256: record.originalSha256, size: record.originalSize }
            : null,
        signedFile:
          record.signedSha256 && record.signedSize !== null
            ? { sha256: record.signedSha256, size: record.signedSize }
            : null,
        owner: record.createdByUserId
          ? { id: record.createdByUserId, name: owners.get(record.createdByUserId) ?? 'Unknown user' }
          : null,
        createdByUserId: record.createdByUserId,
        isSigned: record.isSigned,
        parties: own.map((party) => ({
          userId: party.userId,
          name: displayName(party),
          state: signedAt.has(party.userId) ? ('signed' as const) : ('pending' as const),
          signedAt: signedAt.get(party.userId) ?? null,
        })),
        signingPartiesMetadata: metadata,
        access: {
          role: isOwner ? 'owner' : isParty ? 'party' : 'admin',
          canSign: (isOwner || isParty) && hasFile && !hasSigned,
          canShare: isOwner || caller.isAdmin,
          canDelete: isOwner || caller.isAdmin,
          hasSigned,
        },
      };
    });
  }

  async function read(id: string, caller: Caller | null): Promise<Document> {
    const user = userOf(caller);
    const [document] = await toDocuments([await visibleDocument(id, user)], user);
    return document!;
  }

  async function upload(upload: UploadedFile, context: ActionContext): Promise<Document> {
    const user = userOf(context.caller);
    if (upload.bytes.length === 0) throw badRequest('The file is empty');
    assertPdf(upload.bytes);
    const title = titleOf(upload);
    const sha256 = sha256Hex(upload.bytes);
    const id = await store.write(context, async (scope) => {
      await upsertFile(scope.tx, { sha256, size: upload.bytes.length, bytes: upload.bytes });
      const documentId = await insertDocument(scope.tx, {
        title,
        isSigned: false,
        originalSha256: sha256,
        createdByUserId: user.userId,
      });
      await scope.audit({
        action: 'create',
        resource: RESOURCE,
        recordId: documentId,
        changes: { title, sha256, size: upload.bytes.length },
      });
      return documentId;
    });
    return read(id, context.caller);
  }

  async function list(page: DocumentPage, caller: Caller | null): Promise<ListResponse<Document>> {
    const user = userOf(caller);
    const { rows, total } = await listDocuments(db, page, user.userId, visibility(user));
    return { items: await toDocuments(rows, user), total, limit: page.limit, offset: page.offset };
  }

  /** The file read from the database in slices, so a large file is never held whole here. */
  function fileStream(sha256: string, size: number): Readable {
    async function* slices() {
      for (let offset = 0; offset < size; offset += DOWNLOAD_CHUNK_BYTES) {
        const chunk = await readFileSlice(db, sha256, offset, Math.min(DOWNLOAD_CHUNK_BYTES, size - offset));
        if (!chunk?.length) throw new Error('The file was removed during the download');
        yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
      }
    }
    return Readable.from(slices(), { objectMode: false });
  }

  async function download(
    id: string,
    which: 'original' | 'signed',
    caller: Caller | null,
  ): Promise<FileDownload> {
    const user = userOf(caller);
    const record = await visibleDocument(id, user);
    if (which === 'signed') {
      if (!record.signedSha256 || record.signedSize === null)
        throw notFound('Signed version of the document');
      const last = record.signingPartiesMetadata.map(normalizeEntry).at(-1);
      return {
        filename: downloadFileName(last?.signedAt ?? record.updatedAt),
        size: record.signedSize,
        sha256: record.signedSha256,
        stream: fileStream(record.signedSha256, record.signedSize),
      };
    }
    if (!record.originalSha256 || record.originalSize === null) throw notFound('File of the document');
    return {
      filename: downloadFileName(record.createdAt),
      size: record.originalSize,
      sha256: record.originalSha256,
      stream: fileStream(record.originalSha256, record.originalSize),
    };
  }

  async function share(id: string, body: DocumentShare, context: ActionContext): Promise<Document> {
    const user = userOf(context.caller);
    const record = await visibleDocument(id, user);
    if (record.createdByUserId !== user.userId && !user.isAdmin) {
      throw forbidden('Only the owner of the document can share it');
    }
    const wanted = [...new Set(body.userIds)];
    const missing = await missingUserIds(db, wanted);
    if (missing.length) {
      throw badRequest('Unknown users', [
        { path: 'body.userIds', message: `No user with id ${missing.join(', ')}` },
      ]);
    }
    await store.write(context, async (scope) => {
      const document = await lockDocument(scope.tx, id);
      if (!document) throw notFound('Document');
      const metadata = document.signingPartiesMetadata.map(normalizeEntry);
      // A party who signed stays one: their signature is in the file whatever the list says.
      const signed = new Set(metadata.map((entry) => entry.userId));
      const kept = (await partyIdsOf(scope.tx, id)).filter((partyId) => signed.has(partyId));
      const parties = [...new Set([...wanted, ...kept])];
      await replaceParties(scope.tx, id, parties);
      await updateDocument(scope.tx, id, { isSigned: isFullySigned(metadata, parties) });
      await scope.audit({
        action: 'share',
        resource: RESOURCE,
        recordId: id,
        changes: { signingParties: parties },
      });
    });
    return read(id, context.caller);
  }

  async function remove(id: string, context: ActionContext): Promise<void> {
    const user = userOf(context.caller);
    const record = await visibleDocument(id, user);
    if (record.createdByUserId !== user.userId && !user.isAdmin) {
      throw forbidden('Only the owner of the document can delete it');
    }
    await store.write(context, async (scope) => {
      const document = await lockDocument(scope.tx, id);
      if (!document) throw notFound('Document');
      const revisions = document.signingPartiesMetadata
        .map((entry) => optionalText(entry.revisionSha256))
        .filter((sha) => sha !== undefined);
      await deleteDocument(scope.tx, id);
      await deleteUnreferencedFiles(
        scope.tx,
        [document.originalSha256, document.signedSha256, ...revisions].filter((sha) => sha !== null),
      );
      await scope.audit({ action: 'delete', resource: RESOURCE, recordId: id });
    });
  }

  // -------------------------------------------------------------------------------------------------------
  // Signing on the phone

  const prepare = (
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

  async function requestSignature(id: string, context: ActionContext): Promise<SigningStarted> {
    const user = userOf(context.caller);
    const record = await visibleDocument(id, user);
    const parties = await partyIdsOf(db, id);
    if (record.createdByUserId !== user.userId && !parties.includes(user.userId)) {
      throw forbidden('Only the owner and the parties asked to sign can sign this document');
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
  ): Promise<SigningStarted> {
    const id = record.id;
    const user = signer;
    const metadata = record.signingPartiesMetadata.map(normalizeEntry);
    if (metadata.some((entry) => entry.userId === user.userId))
      throw conflict('This signer has signed this document already');
    const base = record.signedSha256 ?? record.originalSha256;
    if (!base || !record.originalSha256) throw conflict('This document has no file to sign');

    const identity = await gateway.identity(user.subject);
    if (!identity) throw conflict('The signer is not known to the sign-in server');
    const key = await gateway.latestActiveKey(identity.id);
    if (!key) throw conflict('No authenticator is enrolled for the signer: enroll the Careplane app first');
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
    if (!bytes) throw conflict('The file of this document is missing');
    // PDF dates have whole seconds: the time kept is the one written into the file.
    const signingTime = new Date(Math.floor(Date.now() / 1000) * 1000);
    const signerName = `${identity.firstName} ${identity.lastName}`.trim() || identity.username;
    const prepared = await signingStep(() => prepare(bytes, { signerName, signingTime, certificate }));
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
      description: `Sign the document "${record.title.slice(0, 200)}"`.slice(0, 280),
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

  const stateOf = (row: SigningRequestRow): SigningState => ({
    requestId: row.id,
    status: row.status,
    ...(row.status === 'failed' && row.failure ? { message: row.failure } : {}),
  });

  const settledHooks: SigningSettledHook[] = [];

  /** Tells the workflows how a request ended, in the transaction that records it. */
  async function tellSettled(
    scope: WriteScope,
    row: SigningRequestRow,
    ended: Omit<SigningOutcome, 'requestId' | 'documentId' | 'signerUserId'>,
  ) {
    for (const hook of settledHooks) {
      await hook(scope, {
        requestId: row.id,
        documentId: row.documentId,
        signerUserId: row.userId,
        ...ended,
      });
    }
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
    return store.write(signerContext(row), async (scope) => {
      const locked = await lockSigningRequest(scope.tx, row.id);
      if (!locked) throw notFound('Signing request');
      if (locked.status !== 'pending') return stateOf(locked);
      const ended = { status, failure: failure ?? null, completedAt: new Date() };
      await updateSigningRequest(scope.tx, row.id, ended);
      await scope.audit({
        action: `sign-${status}`,
        resource: RESOURCE,
        recordId: row.documentId,
        changes: { requestId: row.id, ...(failure ? { failure } : {}) },
      });
      await tellSettled(scope, locked, { status, failure: ended.failure });
      return stateOf({ ...locked, ...ended });
    });
  }

  /** Completes an approved request: the phone's signature goes into the PDF, which becomes the new revision. */
  async function complete(row: SigningRequestRow, state: DocumentSigningState) {
    if (state.keyId !== row.keyId || !state.documentSignature) {
      return finish(row, 'failed', 'The phone answered without a document signature');
    }
    const certificate = await ca.certificate(row.certificateFingerprint);
    const bytes = await readFile(db, row.baseSha256);
    if (!certificate || !bytes) return finish(row, 'failed', 'The document or the certificate is missing');
    let signed: Uint8Array;
    try {
      const prepared = prepare(bytes, {
        signerName: row.signerName,
        signingTime: row.signingTime,
        certificate,
      });
      if (Buffer.compare(prepared.toBeSigned, row.signedAttributes) !== 0) {
        return await finish(row, 'failed', 'The prepared signature changed; ask again');
      }
      signed = completeSignature(prepared, { signature: state.documentSignature });
    } catch (error) {
      if (!(error instanceof SigningError)) throw error;
      return finish(row, 'failed', `The signature could not be completed: ${error.message}`);
    }
    const sha256 = sha256Hex(signed);

    const answer = await store.write(signerContext(row), async (scope): Promise<SigningState | null> => {
      const locked = await lockSigningRequest(scope.tx, row.id);
      if (!locked) throw notFound('Signing request');
      if (locked.status !== 'pending') return stateOf(locked);
      const document = await lockDocument(scope.tx, row.documentId);
      if (!document) throw notFound('Document');
      if ((document.signedSha256 ?? document.originalSha256) !== row.baseSha256) {
        const failure = 'Someone else signed this document meanwhile: ask your phone again';
        await updateSigningRequest(scope.tx, row.id, { status: 'failed', failure, completedAt: new Date() });
        await scope.audit({
          action: 'sign-failed',
          resource: RESOURCE,
          recordId: row.documentId,
          changes: { requestId: row.id, failure },
        });
        await tellSettled(scope, locked, { status: 'failed', failure });
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
      await tellSettled(scope, locked, { status: 'signed', failure: null });
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
    if (state.status === 'approved') return complete(row, state);
    return {
      requestId: row.id,
      status: 'pending',
      expiresIn: Math.max(0, Math.floor((state.expiresAt.getTime() - Date.now()) / 1000)),
    };
  }

  /** Where a signature asked of the caller's phone stands. */
  async function signingState(id: string, requestId: string, context: ActionContext): Promise<SigningState> {
    const user = userOf(context.caller);
    const row = await findSigningRequest(db, { id: requestId, documentId: id, userId: user.userId });
    if (!row) throw notFound('Signing request');
    const state = await advance(row);
    return state.status === 'signed' ? { ...state, document: await read(id, context.caller) } : state;
  }

  // -------------------------------------------------------------------------------------------------------
  // For other modules: documents the platform generates and has signed in a workflow (prescription receipts)

  /** Stores a generated PDF as a document owned by `ownerUserId`, audited inside the caller's write. */
  async function createGenerated(
    scope: WriteScope,
    input: { title: string; bytes: Uint8Array; ownerUserId: string },
  ): Promise<string> {
    assertPdf(input.bytes);
    const sha256 = sha256Hex(input.bytes);
    await upsertFile(scope.tx, { sha256, size: input.bytes.length, bytes: input.bytes });
    const documentId = await insertDocument(scope.tx, {
      title: input.title.slice(0, MAX_DOCUMENT_TITLE),
      isSigned: false,
      originalSha256: sha256,
      createdByUserId: input.ownerUserId,
    });
    await scope.audit({
      action: 'create',
      resource: RESOURCE,
      recordId: documentId,
      changes: { title: input.title, sha256, size: input.bytes.length, generated: true },
    });
    return documentId;
  }

  /** Removes a generated document nobody was asked to sign after all (the phone could not be asked). */
  async function discardGenerated(documentId: string, context: ActionContext): Promise<void> {
    await store.write(context, async (scope) => {
      const document = await lockDocument(scope.tx, documentId);
      if (!document || document.signedSha256) return;
      await deleteDocument(scope.tx, documentId);
      await deleteUnreferencedFiles(
        scope.tx,
        [document.originalSha256].filter((sha) => sha !== null),
      );
      await scope.audit({ action: 'delete', resource: RESOURCE, recordId: documentId });
    });
  }

  /** Asks `signer`'s phone to sign a document, whoever asks; the calling workflow decides who may. */
  async function requestSignatureOf(
    documentId: string,
    signer: { userId: string; subject: string },
    context: ActionContext,
  ): Promise<SigningStarted> {
    const record = await findDocument(db, documentId);
    if (!record) throw notFound('Document');
    return startSigning(record, signer, context);
  }

  /** Where a request on a document stands, for the workflow that asked for it (it checks the caller). */
  async function signingStateOf(documentId: string, requestId: string): Promise<SigningState> {
    const row = await findSigningRequest(db, { id: requestId, documentId });
    if (!row) throw notFound('Signing request');
    return advance(row);
  }

  /** Ends the request if its phone answered or its time ran out; any request id (others are ignored). */
  async function settleSigning(requestId: string): Promise<SigningState | undefined> {
    const row = await findSigningRequest(db, { id: requestId });
    return row ? advance(row) : undefined;
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

  /** The latest revision of a document's file: the signed one once anybody signed, else the original. */
  async function latestFile(documentId: string): Promise<FileDownload> {
    const record = await findDocument(db, documentId);
    const sha = record?.signedSha256 ?? record?.originalSha256;
    const size = record?.signedSha256 ? record.signedSize : record?.originalSize;
    if (!record || !sha || size === null || size === undefined) throw notFound('File of the document');
    const last = record.signingPartiesMetadata.map(normalizeEntry).at(-1);
    return {
      filename: downloadFileName(last?.signedAt ?? record.updatedAt),
      size,
      sha256: sha,
      stream: fileStream(sha, size),
    };
  }

  // -------------------------------------------------------------------------------------------------------
  // For anyone

  async function verify(bytes: Uint8Array): Promise<VerificationReport> {
    if (bytes.length === 0) throw badRequest('The file is empty');
    const report = await verifyPdf(bytes, {
      caCertificate: ca.certificateDer,
      isKnownDigest: (sha256) => fileExists(db, sha256),
      maxListedChanges: MAX_LISTED_CHANGES,
    });
    return {
      fileSha256: report.fileDigest,
      size: bytes.length,
      fileKnownToPlatform: report.fileKnownToPlatform,
      verdict: report.verdict,
      allowedChanges: report.allowedChanges,
      signatures: report.signatures.map((signature) => ({
        index: signature.index,
        fieldName: signature.fieldName,
        signer: signature.signer,
        signingTime: signature.signingTime?.toISOString() ?? null,
        intact: signature.intact,
        supported: signature.supported,
        coversWholeFile: signature.coversWholeFile,
        laterRevisionAdded: signature.laterRevisionAdded,
        covers: signature.covers,
        certification: signature.certification,
        changesAfter: signature.changesAfter,
        changedAfterSigning: signature.changedAfterSigning,
        chainsToPlatformCa: signature.chainsToPlatformCa,
        knownToPlatform: signature.knownToPlatform,
        revisionSha256: signature.revisionDigest,
        problems: signature.problems,
      })),
    };
  }

  /** The verification of a stored document's latest signed revision, as if its file were uploaded. */
  async function verifyStored(documentId: string): Promise<VerificationReport | undefined> {
    const record = await findDocument(db, documentId);
    if (!record?.signedSha256) return undefined;
    const bytes = await readFile(db, record.signedSha256);
    return bytes ? verify(bytes) : undefined;
  }

  async function suggestParties(
    search: string | undefined,
    caller: Caller | null,
  ): Promise<PartySuggestions> {
    const user = userOf(caller);
    const found = await searchUserNames(db, { search, excludeId: user.userId, limit: MAX_PARTY_SUGGESTIONS });
    return { items: found.map((row) => ({ id: row.id, name: displayName(row) })) };
  }

  return {
    upload,
    list,
    read,
    download,
    share,
    remove,
    requestSignature,
    signingState,
    createGenerated,
    discardGenerated,
    requestSignatureOf,
    signingStateOf,
    settleSigning,
    signingOutcome,
    waitingSigningRequests: (limit: number) => waitingSigningRequestIds(db, limit),
    onSigningSettled,
    latestFile,
    verify,
    verifyStored,
    suggestParties,
    caCertificatePem: ca.certificatePem,
  };
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;
