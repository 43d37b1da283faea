// Documents: upload (streamed into the database, checked as a PDF by its content), lists and reads for the owner, the parties and admins
// (anyone else gets 404), downloads streamed from the database, sharing, signing on the phone through the
// auth server's resource authorization, and verification of any PDF for anyone. One service, made of a part
// per kind of operation; the PDF signatures themselves are @careplane/pdf-signatures.
import type { DocumentsServiceOptions } from './document-access.js';
import { createDocumentFiles } from './document-files.service.js';
import { createDocumentReads } from './document-reads.service.js';
import { createDocumentSharing } from './document-sharing.service.js';
import { createDocumentVerification } from './document-verification.service.js';
import { createSigningRequests } from './signing-requests.service.js';
import { createSigningSettlement } from './signing-settlement.service.js';

// What the routes, the app, other modules and the demo data take from here.
export type { DocumentsServiceOptions } from './document-access.js';
export type { FileDownload, StagedUpload, UploadedFile } from './document-files.service.js';
export { STALE_UPLOAD_MS } from './document-files.service.js';
export { signingGatewayOf, type SigningGateway } from './signing-gateway.js';
export { SIGNING_REASON } from './signing-requests.service.js';
export type { SigningOutcome, SigningSettledHook } from './signing-settlement.service.js';

export function createDocumentsService({ store, ca, gateway }: DocumentsServiceOptions) {
  const reads = createDocumentReads({ store });
  const files = createDocumentFiles({ store, read: reads.read });
  const sharing = createDocumentSharing({ store, read: reads.read });
  const requests = createSigningRequests({ store, ca, gateway });
  const settlement = createSigningSettlement({ store, ca, gateway, read: reads.read });
  const verification = createDocumentVerification({ store, ca });

  return {
    stageUpload: files.stage,
    discardStaged: files.discardStaged,
    upload: files.upload,
    sweepStaleUploads: files.sweepStaleUploads,
    list: reads.list,
    read: reads.read,
    download: files.download,
    share: sharing.share,
    remove: sharing.remove,
    requestSignature: requests.requestSignature,
    signingState: settlement.signingState,
    // For other modules: documents the platform generates and has signed in a workflow (prescription receipts)
    createGenerated: files.createGenerated,
    discardGenerated: files.discardGenerated,
    withdrawGenerated: files.withdrawGenerated,
    requestSignatureOf: requests.requestSignatureOf,
    withdrawSignatureRequests: requests.withdrawSignatureRequests,
    settleSigning: settlement.settleSigning,
    signingOutcome: settlement.signingOutcome,
    waitingSignature: settlement.waitingSignature,
    waitingSigningRequests: settlement.waitingSigningRequests,
    onSigningSettled: settlement.onSigningSettled,
    onSigningEnded: settlement.onSigningEnded,
    latestFile: files.latestFile,
    signedFile: files.signedFile,
    // For anyone
    verify: verification.verify,
    verifyStored: verification.verifyStored,
    suggestParties: reads.suggestParties,
    caCertificatePem: ca.certificatePem,
  };
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;
