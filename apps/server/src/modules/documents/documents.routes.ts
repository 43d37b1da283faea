// /api/documents: upload (multipart), lists and reads, downloads, sharing, signing on the phone, delete; and
// for anyone, without signing in: the verifier (rate limited per address) and the CA certificate.
import multipart, { type MultipartFile } from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import {
  errorBodySchema,
  idParamsSchema,
  listQuerySchema,
  listResponseSchema,
} from '@careplane/shared/common/http';
import {
  documentEndpoints,
  documentSchema,
  documentShareSchema,
  documentUploadFieldsSchema,
  partySearchQuerySchema,
  partySuggestionsSchema,
  signingParamsSchema,
  signingStartedSchema,
  signingStateSchema,
  verificationReportSchema,
} from '@careplane/shared/documents/documents.contract';
import { accessRules, allow } from '@/lib/caller.js';
import { AppError, badRequest, serviceTexts, zodIssues } from '@/lib/errors.js';
import { actionContext, answerLanguage, errorResponses } from '@/lib/http.js';
import type { DocumentsService, FileDownload, StagedUpload } from './documents.service.js';
import { createUploadSlots } from './upload-slots.js';
import { localizeReport } from './verification-texts.js';

export interface DocumentsModuleOptions {
  service: DocumentsService;
  /** Uploads and verifications larger than this are refused (413). */
  maxBytes: number;
  /** Uploads (and verifications) one caller may send at once in this process; one more is a 429. */
  maxConcurrentUploads: number;
  /** Public verifications per minute and address. */
  verifyRateLimit: number;
  /** Shared rate-limit counts across processes (REDIS_URL). */
  redis: Redis | null;
  redisKeyPrefix: string;
}

const fileErrors = {
  ...errorResponses,
  413: errorBodySchema,
  415: errorBodySchema,
};

/** How a route takes the file of a multipart body: as it arrives, and how to undo that if the rest is refused. */
interface FileReader<T> {
  read(part: MultipartFile, tooLarge: () => AppError | undefined): Promise<T>;
  discard?(value: T): Promise<void>;
}

/** The one file (field `file`) and the optional `title` of a multipart body; refuses anything else. */
async function readUpload<T>(
  request: FastifyRequest,
  withTitle: boolean,
  maxBytes: number,
  reader: FileReader<T>,
): Promise<{ file: T; filename: string | undefined; title: string | undefined }> {
  if (!request.isMultipart()) {
    throw new AppError(415, serviceTexts.multipartOnly);
  }
  let file: { value: T; filename: string | undefined } | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          throw badRequest(serviceTexts.oneFileOnly, [
            { path: `body.${part.fieldname}`, message: 'Unexpected file' },
          ]);
        }
        const tooLarge = () => (part.file.truncated ? fileTooLarge(maxBytes) : undefined);
        file = { value: await reader.read(part, tooLarge), filename: part.filename || undefined };
      } else {
        if (!withTitle || part.fieldname !== 'title') {
          throw badRequest(serviceTexts.unexpectedField(part.fieldname.slice(0, 40)), [
            { path: `body.${part.fieldname.slice(0, 40)}`, message: 'Not accepted' },
          ]);
        }
        // A title past the reader's field size arrives cut at it, still far past the title's own limit: the
        // contract's check below refuses it in the same words as any title too long.
        fields.title = String(part.value);
      }
    }
    if (!file) throw badRequest(serviceTexts.noFile, [{ path: 'body.file', message: 'Required' }]);
    const parsed = documentUploadFieldsSchema.safeParse(fields);
    if (!parsed.success) {
      throw badRequest('Invalid fields', zodIssues('body', parsed.error.issues));
    }
    return { file: file.value, filename: file.filename, title: parsed.data.title };
  } catch (error) {
    if (file && reader.discard) await reader.discard(file.value);
    throw malformedForm(error) ? new AppError(400, serviceTexts.malformedMultipart) : error;
  }
}

/**
 * The multipart reader's own refusals of a body that is not the form it claims to be (no boundary in its type,
 * a body that ends before its closing boundary, or inside a part): plain errors without a status, which would
 * otherwise answer 500. They are the sender's: 400.
 */
const malformedForm = (error: unknown) =>
  error instanceof Error &&
  !('statusCode' in error) &&
  ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    /^(Multipart: Boundary not found|Unexpected end of multipart data|Part terminated early)/.test(
      error.message,
    ));

const fileTooLarge = (maxBytes: number) =>
  new AppError(413, serviceTexts.fileTooLarge(formatBytes(maxBytes)));

const formatBytes = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
    : `${Math.ceil(bytes / 1024)} KB`;

/** The whole file in memory: for a verification, which reads all of it at once anyway. */
const wholeFile: FileReader<Uint8Array> = {
  async read(part, tooLarge) {
    const chunks: Buffer[] = [];
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      const refused = tooLarge();
      if (refused) throw refused;
      chunks.push(chunk);
    }
    const refused = tooLarge();
    if (refused) throw refused;
    return Buffer.concat(chunks);
  },
};

function sendFile(reply: FastifyReply, file: FileDownload) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-length', String(file.size))
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('repr-digest', `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.stream);
}

export async function documentsModule(app: FastifyInstance, options: DocumentsModuleOptions) {
  const { service, maxBytes } = options;
  const slots = createUploadSlots(options.maxConcurrentUploads);
  /** Runs `work` in one of the caller's upload slots (429 when all are taken). */
  const inSlot = async <T>(caller: string, work: () => Promise<T>): Promise<T> => {
    const release = slots.take(caller);
    try {
      return await work();
    } finally {
      release();
    }
  };
  /** Staged in the database while it arrives, never whole in memory (decision 037). */
  const stagedFile: FileReader<StagedUpload> = {
    read: (part, tooLarge) => service.stageUpload(part.file, tooLarge),
    discard: (staged) => service.discardStaged(staged.uploadId),
  };

  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 2, fieldSize: 4096, parts: 4, headerPairs: 50 },
  });
  await app.register(rateLimit, {
    global: false,
    ...(options.redis
      ? { redis: options.redis, nameSpace: `${options.redisKeyPrefix}documents:rate:`, skipOnError: true }
      : {}),
  });

  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['documents'];
  const id = (request: { params: unknown }) => (request.params as { id: string }).id;

  typed.post(documentEndpoints.list, {
    // Anyone signed in uploads their own documents (and lists theirs and those shared with them, below).
    onRequest: allow(accessRules.signedIn),
    // The file arrives while the handler reads it: a slow upload is bounded by the stalled-body limit instead.
    config: { access: 'signedIn', deadline: false },
    schema: {
      tags,
      summary: 'Upload a PDF (multipart/form-data: file, optional title); checked as a PDF by its content',
      consumes: ['multipart/form-data'],
      response: { 201: documentSchema, ...fileErrors },
    },
    handler: async (request, reply) => {
      const caller = request.caller?.subject ?? request.ip;
      const created = await inSlot(caller, async () => {
        const { file, filename, title } = await readUpload(request, true, maxBytes, stagedFile);
        return service.upload({ staged: file, filename, title }, actionContext(request));
      });
      return reply.status(201).send(created);
    },
  });

  typed.get(documentEndpoints.list, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'signedIn' },
    schema: {
      tags,
      summary:
        'My documents, those shared with me and those waiting for my signature (filters=scope~own|shared|waiting)',
      querystring: listQuerySchema,
      response: { 200: listResponseSchema(documentSchema), ...errorResponses },
    },
    handler: async (request) => service.list(request.query, request.caller),
  });

  typed.get(documentEndpoints.parties, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'signedIn' },
    schema: {
      tags,
      summary: 'Users to share a document with, by name: id and display name only, at most 20',
      querystring: partySearchQuerySchema,
      response: { 200: partySuggestionsSchema, ...errorResponses },
    },
    handler: async (request) => service.suggestParties(request.query.search, request.caller),
  });

  typed.get(documentEndpoints.caCertificate, {
    config: { public: true, access: 'public' },
    schema: {
      tags,
      summary: "The platform's document-signing CA certificate (PEM), to check signatures with any tool",
      security: [],
      response: { 200: z.string().describe('application/x-pem-file') },
    },
    handler: async (_request, reply) =>
      reply
        .header('content-type', 'application/x-pem-file')
        .header('cache-control', 'public, max-age=3600')
        .send(service.caCertificatePem),
  });

  typed.post(documentEndpoints.verify, {
    config: {
      public: true,
      access: 'public',
      deadline: false,
      rateLimit: { max: options.verifyRateLimit, timeWindow: 60_000 },
    },
    schema: {
      tags,
      summary: 'Verify the signatures of any PDF (multipart/form-data: file); no sign-in',
      security: [],
      consumes: ['multipart/form-data'],
      response: {
        200: verificationReportSchema,
        400: errorBodySchema,
        413: errorBodySchema,
        415: errorBodySchema,
        429: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const language = answerLanguage(request, reply);
      return inSlot(`address:${request.ip}`, async () =>
        localizeReport(
          await service.verify((await readUpload(request, false, maxBytes, wholeFile)).file),
          language,
        ),
      );
    },
  });

  typed.get(`${documentEndpoints.list}/:id`, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'participant' },
    schema: {
      tags,
      summary: 'A document: title, size, SHA-256, owner, parties and their state, signatures',
      params: idParamsSchema,
      response: { 200: documentSchema, ...errorResponses },
    },
    handler: async (request) => service.read(request.params.id, request.caller),
  });

  typed.get(`${documentEndpoints.list}/:id/download`, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'participant' },
    schema: {
      tags,
      summary: 'The uploaded file (attachment "document <timestamp>.pdf")',
      params: idParamsSchema,
      response: { 200: z.any().describe('application/pdf'), ...errorResponses },
    },
    handler: async (request, reply) =>
      sendFile(reply, await service.download(id(request), 'original', request.caller)),
  });

  typed.get(`${documentEndpoints.list}/:id/download/signed`, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'participant' },
    schema: {
      tags,
      summary: 'The latest signed revision (attachment "document <timestamp>.pdf"); 404 until signed',
      params: idParamsSchema,
      response: { 200: z.any().describe('application/pdf'), ...errorResponses },
    },
    handler: async (request, reply) =>
      sendFile(reply, await service.download(id(request), 'signed', request.caller)),
  });

  typed.post(`${documentEndpoints.list}/:id/share`, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'participant' },
    schema: {
      tags,
      summary: 'Ask users to sign: they become the signing parties (owner or admin)',
      params: idParamsSchema,
      body: documentShareSchema,
      response: { 200: documentSchema, ...errorResponses },
    },
    handler: async (request) => service.share(request.params.id, request.body, actionContext(request)),
  });

  typed.post(`${documentEndpoints.list}/:id/sign`, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'participant' },
    schema: {
      tags,
      summary:
        "Ask the caller's own authenticator to sign (owner or party); follow it with the signing state",
      params: idParamsSchema,
      response: { 200: signingStartedSchema, ...errorResponses },
    },
    handler: async (request) => service.requestSignature(request.params.id, actionContext(request)),
  });

  typed.get(`${documentEndpoints.list}/:id/signing/:requestId`, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'participant' },
    schema: {
      tags,
      summary:
        'Where a signature asked of the phone stands: pending, signed (completed now), denied, expired, failed',
      params: signingParamsSchema,
      response: { 200: signingStateSchema, ...errorResponses },
    },
    handler: async (request) =>
      service.signingState(request.params.id, request.params.requestId, actionContext(request)),
  });

  typed.delete(`${documentEndpoints.list}/:id`, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'participant' },
    schema: {
      tags,
      summary: 'Delete a document and the files nothing else uses (owner or admin)',
      params: idParamsSchema,
      response: { 204: z.null(), ...errorResponses },
    },
    handler: async (request, reply) => {
      await service.remove(request.params.id, actionContext(request));
      return reply.status(204).send(null);
    },
  });
}
