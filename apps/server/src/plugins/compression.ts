// Compressed answers (decision 018). Registered before any route, so that every route gets it: an answer of
// 1 KiB or more is compressed, brotli or else gzip, for a client that accepts it. The built web files are not
// compressed here: they come precompressed from the build (see web.ts), and an answer that already has a
// Content-Encoding is left alone. Request bodies are never decompressed (no compressed uploads, no zip bombs).
// The auth server's OpenID Provider writes its own answers (a hijacked reply) and is not compressed.
import { constants } from 'node:zlib';
import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

export const COMPRESSION_THRESHOLD = 1024;

export const compressionOptions: FastifyCompressOptions = {
  threshold: COMPRESSION_THRESHOLD,
  encodings: ['br', 'gzip'],
  // Answers are compressed as they are made: brotli's default (quality 11, for files built once) costs tens of
  // times what quality 4 does for a few percent of size; 4 is faster than gzip and still smaller.
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  globalDecompression: false,
};

export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, compressionOptions);
}
