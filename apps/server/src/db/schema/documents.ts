// The documents' files and signing keys: PDF bytes stored once per SHA-256, the platform's signing CA and the
// certificates it issued for authenticator keys. The documents themselves (title, owner, parties, the
// signatures asked of phones) are in prescriptions.ts, beside the prescriptions that name them.
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt } from './columns.js';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** File contents, addressed by their SHA-256: identical uploads and revisions share one row. */
export const documentFiles = pgTable('document_files', {
  /** SHA-256 of the bytes, lower-case hex. */
  sha256: text('sha256').primaryKey(),
  size: integer('size').notNull(),
  /** Stored uncompressed out of line (STORAGE EXTERNAL), so a download reads it in slices. */
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt(),
});

/**
 * An upload on its way in, a slice at a time, so a large file is never held whole in the server's memory; once
 * it is whole and checked, the database joins the slices into its `document_files` row (decision 037).
 */
export const documentUploadChunks = pgTable(
  'document_upload_chunks',
  {
    uploadId: uuid('upload_id').notNull(),
    index: integer('index').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.uploadId, t.index] }),
    index('document_upload_chunks_created_at_idx').on(t.createdAt),
  ],
);

/** The platform's document-signing CA: one row. The private key is encrypted under the configured passphrase. */
export const documentCertificateAuthority = pgTable('document_certificate_authority', {
  id: text('id').primaryKey(),
  certificatePem: text('certificate_pem').notNull(),
  encryptedPrivateKeyPem: text('encrypted_private_key_pem').notNull(),
  createdAt: createdAt(),
});

/** Certificates the CA issued for enrolled authenticator keys, reused while valid. */
export const documentSignerCertificates = pgTable(
  'document_signer_certificates',
  {
    /** SHA-256 of the DER, hex. */
    fingerprint: text('fingerprint').primaryKey(),
    /** The authenticator key (its RFC 7638 thumbprint) the certificate certifies. */
    keyId: text('key_id').notNull(),
    identityId: uuid('identity_id').notNull(),
    serialNumber: text('serial_number').notNull(),
    der: bytea('der').notNull(),
    notBefore: at('not_before').notNull(),
    notAfter: at('not_after').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('document_signer_certificates_key_idx').on(t.keyId, t.notAfter)],
);

/**
 * Every signature Careplane completed: the revision it made and the certificate it signed with. Once a phone
 * is revoked, its key may be in someone else's hands and a signature's time is the signer's word: the
 * verifier vouches for that key's signatures only when they are here (decision 099). Kept apart from the
 * signing requests, which go with their document.
 */
export const documentCompletedSignatures = pgTable(
  'document_completed_signatures',
  {
    certificateFingerprint: text('certificate_fingerprint').notNull(),
    /** SHA-256 of the file as the signature left it (bytes 0 to the end of its byte range). */
    revisionSha256: text('revision_sha256').notNull(),
    signingTime: at('signing_time').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.certificateFingerprint, t.revisionSha256] }),
    // The verifier asks whether Careplane completed a revision, whoever signed it.
    index('document_completed_signatures_revision_idx').on(t.revisionSha256),
  ],
);
