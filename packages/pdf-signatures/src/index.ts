// @careplane/pdf-signatures: PDF signatures made on a phone and checked by anyone (PAdES baseline B-B over
// incremental updates; decision 020). This file is the package's whole public surface; everything else in
// src/ is internal. The two other entries are `./samples` (PDFs for demos and benchmarks, made with pdf-lib)
// and `./testing` (a test CA, test signers and poppler's pdfsig, for tests only).

// Signing in two steps, the signature over `toBeSigned` made elsewhere in between.
export {
  completeSignature,
  prepareSignature,
  type ByteRange,
  type PreparedSignature,
  type PrepareSignatureOptions,
} from './pdf-signing.js';

// Verifying any PDF, trusting nothing it says about itself.
export {
  verifyPdf,
  type ChangeReport,
  type SignatureReport,
  type SignerSummary,
  type VerdictStatus,
  type VerificationReport,
  type VerifyPdfOptions,
} from './pdf-verification.js';
export type { ChangeKind, PermissionLevel } from './pdf-changes.js';

// The certificate authority that certifies the signers' keys.
export {
  certificateAuthorityPem,
  CertificateAuthorityError,
  createCertificateAuthority,
  loadCertificateAuthority,
  type CertificateAuthority,
  type IssuedCertificate,
  type SignerIdentity,
  type SignerPublicKey,
  type StoredCertificateAuthority,
} from './certificate-authority.js';

// Whether a file is a PDF the core can read, and what it throws when it refuses.
export { isReadablePdf } from './pdf/pdf-structure.js';
export { SigningError, type SigningErrorReason } from './signing-error.js';
