// Documents (decisions §6): PDFs users store, share with the parties who should sign them, sign on the phone
// and anyone can verify. What the API accepts and answers.
import { z } from 'zod';
import { defineListSpec, filterKinds as k, resourceEndpoints } from '../common/list-spec.ts';
import { idList, isoDateTime, recordSchema, text, uuidSchema } from '../common/primitives.ts';

export const MAX_DOCUMENT_TITLE = 200;
/** At most this many users are asked to sign one document. */
export const MAX_SIGNING_PARTIES = 50;
/** The party picker's page: names only, never more than this many. */
export const MAX_PARTY_SUGGESTIONS = 20;

/** `filters=scope~own|shared|waiting`: which of the caller's documents a list shows (comma = any of). */
export const documentScopes = ['own', 'shared', 'waiting'] as const;
export type DocumentScope = (typeof documentScopes)[number];

/** The multipart fields of an upload: `file` (the PDF) and an optional `title`. */
export const documentUploadFieldsSchema = z.strictObject({
  title: text(MAX_DOCUMENT_TITLE)
    .transform((value) => value.trim())
    .optional(),
});

/** A signed revision or the uploaded file: its size and SHA-256 (hex). */
export const documentFileSchema = z.object({
  size: z.number().int(),
  sha256: z.string(),
});
export type DocumentFile = z.infer<typeof documentFileSchema>;

/** Who signed, when, with which key and certificate (one entry per signature, oldest first). */
export const signatureEntrySchema = z.object({
  userId: z.string().nullable(),
  name: z.string(),
  username: z.string().optional(),
  /** owner, party (this API), or the role the signer had for a prescription receipt. */
  role: z.string().optional(),
  signedAt: isoDateTime,
  method: z.string().optional(),
  keyId: z.string().optional(),
  certificateSerial: z.string().optional(),
  certificateSha256: z.string().optional(),
  /** SHA-256 of the file this signature produced. */
  revisionSha256: z.string().optional(),
});
export type SignatureEntry = z.infer<typeof signatureEntrySchema>;

export const documentPartySchema = z.object({
  userId: z.string(),
  name: z.string(),
  state: z.enum(['pending', 'signed']),
  signedAt: isoDateTime.nullable(),
});
export type DocumentParty = z.infer<typeof documentPartySchema>;

export const documentSchema = z.object({
  ...recordSchema,
  title: z.string(),
  /** The uploaded file; null for a document that has none (a receipt whose file is made later). */
  file: documentFileSchema.nullable(),
  /** The latest signed revision; null until the first signature. */
  signedFile: documentFileSchema.nullable(),
  owner: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdByUserId: z.string().nullable(),
  /** True once signed and no party asked to sign is still pending. */
  isSigned: z.boolean(),
  parties: z.array(documentPartySchema),
  signingPartiesMetadata: z.array(signatureEntrySchema),
  /** What the caller may do with it. */
  access: z.object({
    role: z.enum(['owner', 'party', 'admin']),
    canSign: z.boolean(),
    canShare: z.boolean(),
    canDelete: z.boolean(),
    hasSigned: z.boolean(),
  }),
});
export type Document = z.infer<typeof documentSchema>;

export const documentShareSchema = z.strictObject({
  /** The users asked to sign; replaces the list (parties who signed already stay). */
  userIds: idList.max(MAX_SIGNING_PARTIES),
});
export type DocumentShare = z.infer<typeof documentShareSchema>;

/** The answer of POST /api/documents/{id}/sign: the phone's request to follow. */
export const signingStartedSchema = z.object({
  requestId: uuidSchema,
  /** Seconds the phone has to answer. */
  expiresIn: z.number().int(),
  /** Seconds between two polls of the signing state. */
  interval: z.number().int(),
  /** The code the phone shows beside the request: compare it with the console. */
  bindingMessage: z.string(),
});
export type SigningStarted = z.infer<typeof signingStartedSchema>;

export const signingStatuses = ['pending', 'signed', 'denied', 'expired', 'failed'] as const;
export type SigningStatus = (typeof signingStatuses)[number];

export const signingStateSchema = z.object({
  requestId: uuidSchema,
  status: z.enum(signingStatuses),
  /** Pending: seconds left for the phone. */
  expiresIn: z.number().int().optional(),
  /** Failed: why, in plain words. */
  message: z.string().optional(),
  /** Signed: the document as it is now. */
  document: documentSchema.optional(),
});
export type SigningState = z.infer<typeof signingStateSchema>;

export const signingParamsSchema = z.object({ id: uuidSchema, requestId: uuidSchema });

export const partySearchQuerySchema = z.object({
  search: text(100).optional(),
});
export type PartySearchQuery = z.infer<typeof partySearchQuerySchema>;

export const partySuggestionsSchema = z.object({
  items: z.array(z.object({ id: z.string(), name: z.string() })).max(MAX_PARTY_SUGGESTIONS),
});
export type PartySuggestions = z.infer<typeof partySuggestionsSchema>;

// ---------------------------------------------------------------------------------------------------------
// Verification: the report of every signature of any PDF, for anyone.

export const verdictStatuses = [
  'authentic',
  'modified-after-signing',
  'untrusted',
  'unsupported',
  'tampered',
  'unsigned',
  'unreadable',
] as const;
export type VerdictStatus = (typeof verdictStatuses)[number];

/**
 * What a change after a signature was. `other` is never allowed; the rest by the permission level in force
 * (DocMDP P): `validation-data` always, signing, form filling, the form's appearance settings and the document
 * information's dates from P=2 (the level without a certification signature), annotations at P=3.
 */
export const changeKinds = [
  'signature',
  'signature-field',
  'form-fill',
  'form-settings',
  'document-dates',
  'annotation',
  'validation-data',
  'other',
] as const;
export type ChangeKind = (typeof changeKinds)[number];

/** Changes listed per signature; more are summed up in a last entry. */
export const MAX_LISTED_CHANGES = 50;

export const signatureChangeSchema = z.object({
  /** The revision whose incremental update made the change; null when the changes could not be compared. */
  revision: z.number().int().nullable(),
  kind: z.enum(changeKinds),
  /** What it did, to read after "revision 2 of 3": `filled in form field "Name"`. */
  description: z.string(),
  /** Whether this signature allows it. */
  allowed: z.boolean(),
});
export type SignatureChange = z.infer<typeof signatureChangeSchema>;

const permissionLevel = z.number().int().min(1).max(3);

export const signatureReportSchema = z.object({
  index: z.number().int(),
  fieldName: z.string().nullable(),
  signer: z
    .object({
      commonName: z.string().nullable(),
      username: z.string().nullable(),
      email: z.string().nullable(),
      serialNumber: z.string(),
      fingerprint: z.string(),
    })
    .nullable(),
  signingTime: isoDateTime.nullable(),
  /** The signed bytes are as they were signed. */
  intact: z.boolean(),
  /** False when the signature is in a form Careplane does not check. */
  supported: z.boolean(),
  /** The signature covers the whole file (else a later revision was added after it, which is normal for all
   * but the last signature: see `covers` and `changesAfter`). */
  coversWholeFile: z.boolean(),
  laterRevisionAdded: z.boolean(),
  /**
   * What it covers: bytes 0 to `bytes`, revision `revision` of `revisions` (revision 1 is the file as the first
   * signature covers it; each later incremental update is the next). `revision` is null when those bytes are
   * not a readable revision; `covers` is null when the byte range is unusable.
   */
  covers: z
    .object({ revision: z.number().int().nullable(), revisions: z.number().int(), bytes: z.number().int() })
    .nullable(),
  /** Set for a certification signature: the DocMDP permission level it certifies the document with. */
  certification: z.object({ permission: permissionLevel }).nullable(),
  /** What each later revision changed, oldest first, with whether this signature allows it. */
  changesAfter: z.array(signatureChangeSchema).max(MAX_LISTED_CHANGES),
  /** A change this signature does not allow was made after it. A later signature never undoes that: it
   * vouches only for what its own signer signed. */
  changedAfterSigning: z.boolean(),
  /** The signer's certificate was issued by the platform's CA (the server's own, never one in the file). */
  chainsToPlatformCa: z.boolean(),
  /**
   * The certificate chains to the platform's CA, but Careplane no longer vouches for its signer: the phone key
   * it certifies was revoked or is no longer enrolled, and Careplane did not complete this signature, so its
   * signing time is only the signer's word (the reason is the last of `problems`; the verdict is "untrusted").
   */
  signerWithdrawn: z.boolean(),
  /** Careplane completed this signature: the file as this signature left it is one Careplane made. */
  knownToPlatform: z.boolean(),
  revisionSha256: z.string().nullable(),
  problems: z.array(z.string()),
});
export type SignatureReport = z.infer<typeof signatureReportSchema>;

export const verificationReportSchema = z.object({
  fileSha256: z.string(),
  size: z.number().int(),
  /** The whole file is one Careplane made by completing a signature (an upload alone does not count). */
  fileKnownToPlatform: z.boolean(),
  verdict: z.object({
    status: z.enum(verdictStatuses),
    /** The verdict in plain words (times in UTC). */
    summary: z.string(),
    /** The earliest signature after which a change it does not allow was made, and that change. */
    changedAfter: z
      .object({
        signature: z.number().int(),
        revision: z.number().int().nullable(),
        description: z.string(),
      })
      .nullable(),
  }),
  /** Which changes are allowed after signing: a certification signature's DocMDP level, or P=2 without one. */
  allowedChanges: z.object({
    level: permissionLevel,
    /** The certification signature's index; null when there is none. */
    certifiedBy: z.number().int().nullable(),
    description: z.string(),
  }),
  signatures: z.array(signatureReportSchema),
});
export type VerificationReport = z.infer<typeof verificationReportSchema>;

// ---------------------------------------------------------------------------------------------------------

export const documentListSpec = defineListSpec({
  resource: 'documents',
  filters: {
    scope: k.enum(documentScopes),
    id: k.uuid,
    isSigned: k.boolean,
    'createdByUser.id': k.ref('users'),
    'signingParties.id': k.ref('users'),
  },
  search: ['id', 'title'],
  sort: ['createdAt', 'updatedAt', 'title'],
  relations: [],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});

const base = '/api/documents';
const item = (id: string) => `${base}/${encodeURIComponent(id)}`;

export const documentEndpoints = {
  ...resourceEndpoints(base),
  /** The uploaded file (attachment). */
  download: (id: string) => `${item(id)}/download`,
  /** The latest signed revision (attachment); 404 until signed. */
  downloadSigned: (id: string) => `${item(id)}/download/signed`,
  share: (id: string) => `${item(id)}/share`,
  sign: (id: string) => `${item(id)}/sign`,
  signing: (id: string, requestId: string) => `${item(id)}/signing/${encodeURIComponent(requestId)}`,
  /** Public: the report of any PDF's signatures. */
  verify: `${base}/verify`,
  /** Public: the platform's document-signing CA certificate (PEM). */
  caCertificate: `${base}/ca.pem`,
  /** Users to share with, by name (id and display name only). */
  parties: `${base}/parties`,
} as const;

/** `document <timestamp>.pdf` (decisions §6): the name a download is saved under. */
export const downloadFileName = (at: Date | string | number) => `document ${new Date(at).getTime()}.pdf`;
