// The one error the signing core throws on purpose. It knows nothing of HTTP: whoever calls the core decides
// what a refusal means to its own callers (the server answers 400 for `invalid-input`, 500 for `internal`).

/**
 * - `invalid-input`: what was given cannot be signed or certified (not a PDF, encrypted, certified without
 *   changes, a signature that does not verify, a certificate not from the CA, a name too long, …).
 * - `internal`: the prepared signature no longer matches the document, or does not fit the room reserved.
 */
export type SigningErrorReason = 'invalid-input' | 'internal';

export class SigningError extends Error {
  constructor(
    readonly reason: SigningErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'SigningError';
  }
}

/** A refusal of what the caller gave. */
export const invalidInput = (message: string) => new SigningError('invalid-input', message);
