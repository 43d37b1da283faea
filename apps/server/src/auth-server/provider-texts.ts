// The sign-in server's OAuth refusals in the request's language (decision 048). oidc-provider writes each
// refusal as `{ error, error_description }`, the description in English; the console shows a description as it
// comes (a refused start, a failed refresh), so a Thai request gets it in Thai. The code (`error`) is what clients
// read and never changes, nor does the English: it is oidc-provider's own words, or this server's
// (lib/service-texts.ts). A description is known by its wording; one nobody translated yet reaches a Thai reader
// after a Thai sentence naming what kind of refusal it is. An answer without a description stays without one.
import type { Language } from '@careplane/shared/i18n/languages';
import { serviceTexts } from '@/lib/errors.js';

/** oidc-provider's fixed descriptions on the routes this server offers, and this server's own, with Thai. */
const descriptions: Record<string, string> = {
  // the request and its parameters
  'request is invalid': 'คำขอไม่ถูกต้อง',
  'failed to parse the request body': 'อ่านข้อมูลที่ส่งมาไม่ได้',
  'missing one of required parameters login_hint_token, id_token_hint, or login_hint':
    'ต้องระบุผู้ใช้ที่จะเข้าสู่ระบบ: login_hint_token, id_token_hint หรือ login_hint อย่างใดอย่างหนึ่ง',
  'only one of required parameters login_hint_token, id_token_hint, or login_hint must be provided':
    'ระบุผู้ใช้ที่จะเข้าสู่ระบบได้เพียงพารามิเตอร์เดียว: login_hint_token, id_token_hint หรือ login_hint',
  'invalid requested_expiry parameter value': 'ค่า requested_expiry ไม่ถูกต้อง',
  'invalid max_age parameter value': 'ค่า max_age ไม่ถูกต้อง',
  'could not validate id_token_hint': 'ตรวจสอบ id_token_hint ไม่ผ่าน',
  'could not identify end-user': 'ระบุตัวผู้ใช้ที่จะเข้าสู่ระบบไม่ได้',
  'openid scope must be requested for this request': 'คำขอนี้ต้องขอ scope openid ด้วย',
  'scope contains invalid characters': 'scope มีอักขระที่ใช้ไม่ได้',
  'requested scope is not allowed': 'ไม่อนุญาตให้ขอ scope นี้',
  'resource indicator is missing, or unknown': 'ไม่ได้ระบุ resource หรือไม่รู้จัก resource ที่ระบุ',
  'resource indicator must be an absolute URI': 'resource ต้องเป็น URI แบบเต็ม',
  'resource indicator must not contain a fragment component': 'resource ต้องไม่มีส่วน fragment (#)',
  'only a single resource indicator value must be requested/resolved during Access Token Request':
    'ขอโทเค็นได้ครั้งละหนึ่ง resource เท่านั้น',
  // the client
  'no client authentication mechanism provided': 'ไม่ได้ระบุไคลเอนต์ที่ส่งคำขอ (client_id)',
  'client authentication failed': 'ยืนยันตัวตนของไคลเอนต์ไม่สำเร็จ',
  'client authentication must only be provided using one mechanism': 'ยืนยันตัวตนของไคลเอนต์ได้เพียงวิธีเดียว',
  'invalid authorization header value format': 'ส่วนหัว Authorization มีรูปแบบไม่ถูกต้อง',
  'client_id mismatch': 'client_id ไม่ตรงกัน',
  'client is invalid': 'ไคลเอนต์ไม่ถูกต้อง',
  'requested grant type is not allowed for this client': 'ไคลเอนต์นี้ใช้ grant_type ที่ขอไม่ได้',
  // the token endpoint
  'unsupported grant_type requested': 'ไม่รองรับ grant_type ที่ขอ',
  'grant request is invalid': 'คำขอรับโทเค็นไม่ถูกต้อง: รหัสที่ส่งมาไม่ถูกต้อง หมดอายุ หรือถูกใช้ไปแล้ว',
  "authorization request is still pending as the end-user hasn't yet completed the user interaction steps":
    'คำขอเข้าสู่ระบบยังรอผู้ใช้ยืนยันบนโทรศัพท์',
  'you are polling too quickly and should back off at a reasonable rate': 'ถามสถานะถี่เกินไป โปรดเว้นระยะให้นานขึ้น',
  'backchannel authentication request is expired': 'คำขอเข้าสู่ระบบหมดอายุแล้ว โปรดเริ่มเข้าสู่ระบบใหม่',
  'invalid token provided': 'โทเค็นไม่ถูกต้อง',
  'oops! something went wrong': 'เซิร์ฟเวอร์เข้าสู่ระบบขัดข้อง',
  // this server's own (provider.ts, requests.ts)
  [serviceTexts.signInsTooMany.en]: serviceTexts.signInsTooMany.th,
  [serviceTexts.loginHintTokenUnsupported.en]: serviceTexts.loginHintTokenUnsupported.th,
  [serviceTexts.bindingMessageInvalid.en]: serviceTexts.bindingMessageInvalid.th,
  [serviceTexts.signInDenied.en]: serviceTexts.signInDenied.th,
};

/** oidc-provider's descriptions that carry values, and their Thai with the same values. */
const patterns: [RegExp, (...values: string[]) => string][] = [
  [/^missing required parameters? (.+)$/, (names) => `ต้องระบุพารามิเตอร์ ${names}`],
  [/^(.+) parameters? must not be provided twice$/, (names) => `ส่งพารามิเตอร์ ${names} ซ้ำไม่ได้`],
  [
    /^only (\S+) content-type bodies are supported on (\S+) (\S+)$/,
    (type, method, path) => `${method} ${path} รับข้อมูลแบบ ${type} เท่านั้น`,
  ],
  [/^refresh token missing requested scopes?$/, () => 'refresh token ไม่ครอบคลุม scope ที่ขอ'],
  [/^(\S+) is not allowed for this client$/, (grant) => `ไคลเอนต์นี้ใช้ ${grant} ไม่ได้`],
  [
    /^origin (\S+) not allowed for client: (\S+)$/,
    (origin, client) => `ไคลเอนต์ ${client} ส่งคำขอจาก ${origin} ไม่ได้`,
  ],
];

/** What kind of refusal each OAuth error code is, in Thai: said before a description nobody translated yet. */
const codes: Record<string, string> = {
  invalid_request: 'คำขอไม่ถูกต้อง',
  invalid_client: 'ไคลเอนต์ไม่ถูกต้อง',
  invalid_grant: 'คำขอรับโทเค็นไม่ถูกต้อง',
  invalid_scope: 'scope ไม่ถูกต้อง',
  invalid_target: 'resource ไม่ถูกต้อง',
  invalid_token: 'โทเค็นไม่ถูกต้อง',
  invalid_binding_message: 'binding_message ไม่ถูกต้อง',
  invalid_request_object: 'request object ไม่ถูกต้อง',
  invalid_authorization_details: 'authorization_details ไม่ถูกต้อง',
  invalid_dpop_proof: 'DPoP proof ไม่ถูกต้อง',
  unauthorized_client: 'ไคลเอนต์นี้ไม่ได้รับอนุญาต',
  unsupported_grant_type: 'ไม่รองรับ grant_type นี้',
  unsupported_token_type: 'ไม่รองรับโทเค็นชนิดนี้',
  unknown_user_id: 'ระบุตัวผู้ใช้ไม่ได้',
  access_denied: 'ผู้ใช้ปฏิเสธคำขอ',
  expired_token: 'คำขอหมดอายุแล้ว',
  authorization_pending: 'คำขอยังรอผู้ใช้ยืนยัน',
  slow_down: 'ถามสถานะถี่เกินไป',
  too_many_requests: 'มีคำขอมากเกินไป',
  temporarily_unavailable: 'ยังให้บริการไม่ได้ชั่วคราว',
  server_error: 'เซิร์ฟเวอร์เข้าสู่ระบบขัดข้อง',
};

/** A refusal's description in `language`: English as written; Thai where known, else after its code's Thai. */
export function providerErrorDescription(error: string, description: string, language: Language): string {
  if (language !== 'th') return description;
  const known = descriptions[description];
  if (known) return known;
  for (const [pattern, thai] of patterns) {
    const match = pattern.exec(description);
    if (match) return thai(...match.slice(1));
  }
  const kind = codes[error];
  return kind ? `${kind}: ${description}` : description;
}

/** For tests: the fixed descriptions and the codes with Thai. */
export const providerTexts = { descriptions, codes };
