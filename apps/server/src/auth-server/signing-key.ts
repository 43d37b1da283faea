// The provider's signing keys, signed with through node:crypto. oidc-provider otherwise signs every JWT with
// jose, that is WebCrypto: on this machine an ES256 signature costs about 100 µs of CPU there, 27 µs through
// `crypto.sign` on the same key (a job and a promise per signature against one synchronous call). A refresh
// signs once, a sign-in twice (decision 055). The keys, their rotation and what is published are the key store's,
// as before; only the call that makes the signature changes.
import { createPrivateKey, createPublicKey, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { ExternalSigningKey } from './oidc.js';

/** The one algorithm the key store makes (keys.ts). */
const ALGORITHM = 'ES256';

export class NodeSigningKey extends ExternalSigningKey {
  readonly #privateKey: KeyObject;
  readonly #publicKey: KeyObject;

  /** `jwk`: a private key of the key store (P-256, with its kid). */
  constructor(jwk: Readonly<Record<string, string>>) {
    super();
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || (jwk.alg ?? ALGORITHM) !== ALGORITHM || !jwk.kid) {
      throw new TypeError(
        `A signing key must be an ES256 key on P-256 with a kid (got ${jwk.kty} ${jwk.crv})`,
      );
    }
    this.#privateKey = createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
    this.#publicKey = createPublicKey(this.#privateKey);
    this.kid = jwk.kid;
    this.alg = ALGORITHM;
  }

  /** What the provider publishes in its JWKS and verifies with: the public half only. */
  override keyObject(): KeyObject {
    return this.#publicKey;
  }

  /** The JWS signature of ES256: r and s, 32 bytes each (RFC 7518 § 3.4), not DER. */
  override async sign(data: Buffer): Promise<Uint8Array> {
    return sign('sha256', data, { key: this.#privateKey, dsaEncoding: 'ieee-p1363' });
  }
}
