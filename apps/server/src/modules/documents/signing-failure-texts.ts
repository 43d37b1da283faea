// A signing's failure in the reader's language (decision 048). A failure is stored once, in English, on the
// signing request (and on the prescription action that waited for it), and the audit keeps the same words;
// whoever reads it later, in the console's language, gets it told again: a failure the server writes is known
// by its English (lib/service-texts.ts), and the signing core's reason inside "could not be completed" is
// looked up by its wording. A failure nobody translated yet is shown as stored.
import type { Language } from '@careplane/shared/i18n/languages';
import { serviceTexts, type Text } from '@/lib/errors.js';

/** The failures the documents module stores, as written. */
const stored: readonly Text[] = [
  serviceTexts.phoneAnsweredWithoutSignature,
  serviceTexts.signingMaterialMissing,
  serviceTexts.preparedSignatureChanged,
  serviceTexts.signedMeanwhile,
  serviceTexts.phoneRevokedBeforeAnswer,
];

/** What the signing core says when it cannot complete a signature the phone made, and its Thai. */
export const completionReasons: Record<string, string> = {
  'The signature is not base64url': 'ลายมือชื่อที่ได้รับไม่ได้เข้ารหัสแบบ base64url',
  'The signature is neither P1363 (64 bytes) nor a DER ECDSA signature':
    'ลายมือชื่อที่ได้รับไม่ใช่ลายมือชื่อ ECDSA แบบ P1363 (64 ไบต์) หรือแบบ DER',
  "The signature does not verify with the signer's certificate": 'ตรวจสอบลายมือชื่อกับใบรับรองของผู้ลงนามแล้วไม่ผ่าน',
  'The prepared document changed after it was prepared': 'เอกสารที่เตรียมไว้ถูกเปลี่ยนแปลงหลังจากเตรียมแล้ว',
  'The signature does not fit the space reserved for it': 'ลายมือชื่อมีขนาดใหญ่เกินพื้นที่ที่เตรียมไว้ในเอกสาร',
};

const NOT_COMPLETED = /^The signature could not be completed: (.+)$/s;

/** The stored failure in `language`: English as stored; Thai where its words are known, else as stored. */
export function signingFailureText(failure: string, language: Language | undefined): string {
  if (language !== 'th') return failure;
  const known = stored.find((text) => text.en === failure);
  if (known) return known.th;
  const reason = NOT_COMPLETED.exec(failure)?.[1];
  if (reason !== undefined) return serviceTexts.signatureNotCompleted(completionReasons[reason] ?? reason).th;
  return failure;
}
