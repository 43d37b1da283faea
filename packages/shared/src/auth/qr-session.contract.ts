// QR sign-in sessions of the auth server (decisions §3): the console creates one, shows `cbUrl` as a QR code
// and polls its status until the authenticator claims it; from then on it polls the token endpoint.
import { z } from 'zod';

/** Answer of `POST <issuer>/qr/sessions`. */
export const qrSessionSchema = z.object({
  sessionId: z.string(),
  /** The authenticator's link; it carries a secret that is not the session id and rotates while polled. */
  cbUrl: z.string(),
  /** Seconds until the session expires. */
  expIn: z.number(),
});
export type QrSession = z.infer<typeof qrSessionSchema>;

/** Answer of `GET <issuer>/qr/sessions/<sessionId>`. */
export const qrSessionStatusSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('pending'),
    /** Seconds until the session expires. */
    expIn: z.number(),
    /** A new link when the secret rotated: the console redraws its QR code. */
    cbUrl: z.string().optional(),
  }),
  z.object({ status: z.literal('claimed'), authRequestId: z.string() }),
  z.object({ status: z.literal('expired') }),
]);
export type QrSessionStatus = z.infer<typeof qrSessionStatusSchema>;
