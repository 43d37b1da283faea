// Verification of any PDF, for anyone: the signing core's report in the contract's shape, "known to the
// platform" meaning Careplane completed a signature that left a file with that SHA-256 (a stored upload is not
// known: anyone signed in can upload a file, so holding it vouches for nothing). A signature whose
// certificate chains to the CA is vouched for while its phone key is enrolled and not revoked, or when Careplane
// completed it (decision 099): a signing time is the signer's word, and a revoked phone may be in other hands.
import { verifyPdf } from '@careplane/pdf-signatures';
import { MAX_LISTED_CHANGES, type VerificationReport } from '@careplane/shared/documents/documents.contract';
import { badRequest, serviceTexts } from '@/lib/errors.js';
import type { Store } from '@/lib/store.js';
import { readFile } from './document-files.repository.js';
import { findDocument } from './documents.repository.js';
import type { PlatformCa } from './platform-ca.js';
import { findSignerStanding, isCompletedRevision } from './signing.repository.js';
import { signerStandingTexts } from './verification-texts.js';

export function createDocumentVerification({ store, ca }: { store: Store; ca: PlatformCa }) {
  const db = store.db;

  async function verify(bytes: Uint8Array): Promise<VerificationReport> {
    if (bytes.length === 0) throw badRequest(serviceTexts.fileEmpty);
    const report = await verifyPdf(bytes, {
      caCertificate: ca.certificateDer,
      isKnownDigest: (sha256) => isCompletedRevision(db, sha256),
      maxListedChanges: MAX_LISTED_CHANGES,
      signerStanding: async ({ certificateSha256, revisionSha256 }) => {
        const { completed, key } = await findSignerStanding(db, { certificateSha256, revisionSha256 });
        if (completed || (key && key.revokedAt === null)) return undefined;
        return key ? signerStandingTexts.revoked : signerStandingTexts.notEnrolled;
      },
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
        signerWithdrawn: signature.signerWithdrawn,
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

  return { verify, verifyStored };
}
