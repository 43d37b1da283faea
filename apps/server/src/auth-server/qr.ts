// QR sign-in sessions (spec §4). The console creates a session and shows `cbUrl` as a QR code; the
// authenticator claims it with a signature; the auth server then starts a CIBA sign-in for that identity and
// the session's status hands its auth_req_id to the console. `cbUrl` carries a secret that is not the session
// id, and the secret rotates every few seconds (the previous one stays valid for one period), so a photographed
// code soon stops working.
import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt, or } from 'drizzle-orm';
import type { QrSession, QrSessionStatus } from '@careplane/shared/auth/qr-session.contract';
import { verifyCanonical, type QrClaimPayload } from '@careplane/shared/authenticator/protocol';
import type { Database } from '@/db/client.js';
import { authQrSessions } from '@/db/schema/index.js';
import { AppError, notFound, serviceTexts, unauthorized } from '@/lib/errors.js';
import { sha256Hex, type Identity, type IdentityService } from './identities.js';
import { SIGNED_CLOCK_WINDOW_SECONDS } from './requests.js';

export interface QrSettings {
  issuer: string;
  publicUrl: string;
  requestTtl: number;
  /** Seconds between secret rotations; 0 keeps one secret for the session's life. */
  qrSecretRotation: number;
}

const newSecret = () => randomBytes(24).toString('base64url');

export class QrService {
  constructor(
    private readonly db: Database,
    private readonly identities: IdentityService,
    private readonly settings: QrSettings,
    /** Starts the CIBA sign-in of a claimed session. */
    private readonly startLogin: (
      identity: Identity,
      clientId: string,
      bindingMessage: string | null,
    ) => Promise<{ authReqId: string; requestId: string }>,
  ) {}

  cbUrl(secret: string) {
    return `${this.settings.publicUrl}/authenticator/qr#s=${secret}`;
  }

  async create(clientId: string, bindingMessage: string | null): Promise<QrSession> {
    const sessionId = randomBytes(24).toString('base64url');
    const secret = newSecret();
    const expIn = this.settings.requestTtl;
    await this.db.insert(authQrSessions).values({
      id: sessionId,
      clientId,
      secretHash: sha256Hex(secret),
      secretIssuedAt: new Date(),
      bindingMessage,
      expiresAt: new Date(Date.now() + expIn * 1000),
    });
    return { sessionId, cbUrl: this.cbUrl(secret), expIn };
  }

  /** The session's state; a pending session whose secret is due answers a fresh `cbUrl` to show instead. */
  async status(sessionId: string): Promise<QrSessionStatus> {
    if (sessionId.length > 64) throw notFound('QR session');
    const [row] = await this.db
      .select()
      .from(authQrSessions)
      .where(eq(authQrSessions.id, sessionId))
      .limit(1);
    if (!row) throw notFound('QR session');
    const now = Date.now();
    if (row.status === 'claimed' && row.authReqId) return { status: 'claimed', authRequestId: row.authReqId };
    if (row.expiresAt.getTime() <= now) return { status: 'expired' };
    const expIn = Math.max(0, Math.floor((row.expiresAt.getTime() - now) / 1000));
    const period = this.settings.qrSecretRotation;
    if (period > 0 && now - row.secretIssuedAt.getTime() >= period * 1000) {
      const secret = newSecret();
      // Conditional on the secret we read, so concurrent polls rotate once; the loser shows the current code.
      const [rotated] = await this.db
        .update(authQrSessions)
        .set({
          secretHash: sha256Hex(secret),
          previousSecretHash: row.secretHash,
          secretIssuedAt: new Date(),
        })
        .where(
          and(
            eq(authQrSessions.id, row.id),
            eq(authQrSessions.secretHash, row.secretHash),
            eq(authQrSessions.status, 'pending'),
          ),
        )
        .returning({ id: authQrSessions.id });
      if (rotated) return { status: 'pending', expIn, cbUrl: this.cbUrl(secret) };
    }
    return { status: 'pending', expIn };
  }

  /** The authenticator claims the session shown by the QR code; a sign-in request for its identity starts. */
  async claim(input: { keyId: string; secret: string; iat: number; signature: string }) {
    const found = await this.identities.activeKey(input.keyId);
    if (!found) throw unauthorized(serviceTexts.unknownAuthenticatorKey);
    const { key, identity } = found;
    const nowSeconds = Math.floor(Date.now() / 1000);
    if (Math.abs(nowSeconds - input.iat) > SIGNED_CLOCK_WINDOW_SECONDS) {
      throw unauthorized(serviceTexts.signedTimeOff);
    }
    const payload: QrClaimPayload = {
      typ: 'careplane-qr-claim',
      v: 1,
      aud: this.settings.issuer,
      keyId: key.id,
      secret: input.secret,
      iat: input.iat,
    };
    if (!(await verifyCanonical(key.publicJwk, payload, input.signature))) {
      throw unauthorized(serviceTexts.signatureDoesNotVerify);
    }
    const hash = sha256Hex(input.secret);
    const now = new Date();
    // The previous secret counts for one more rotation period after it was replaced.
    const graceStart = new Date(now.getTime() - Math.max(this.settings.qrSecretRotation, 1) * 1000);
    const [claimed] = await this.db
      .update(authQrSessions)
      .set({ status: 'claimed', identityId: identity.id, claimedAt: now })
      .where(
        and(
          eq(authQrSessions.status, 'pending'),
          gt(authQrSessions.expiresAt, now),
          or(
            eq(authQrSessions.secretHash, hash),
            and(eq(authQrSessions.previousSecretHash, hash), gt(authQrSessions.secretIssuedAt, graceStart)),
          ),
        ),
      )
      .returning();
    if (!claimed) throw new AppError(404, serviceTexts.signInCodeUnknown);
    const started = await this.startLogin(identity, claimed.clientId, claimed.bindingMessage);
    await this.db
      .update(authQrSessions)
      .set({ authReqId: started.authReqId })
      .where(eq(authQrSessions.id, claimed.id));
    await this.identities.touchKey(key.id);
    return {
      requestId: started.requestId,
      clientId: claimed.clientId,
      bindingMessage: claimed.bindingMessage,
    };
  }

  async sweep() {
    await this.db
      .delete(authQrSessions)
      .where(lt(authQrSessions.expiresAt, new Date(Date.now() - 3_600_000)));
  }
}
