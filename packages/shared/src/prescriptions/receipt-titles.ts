// A prescription receipt's title among its owner's documents: which receipt, for whom, and which prescription
// (the first eight characters of its id, as the console shows a record's short id). The server gives it to the
// receipts a phone signs, the demo data to the receipts it seeds.
import type { Language } from '../i18n/language-tags.ts';

export type ReceiptKind = 'issue' | 'pickup';

const titles: Record<Language, Record<ReceiptKind, (recipient: string) => string>> = {
  en: {
    issue: (recipient) => `Prescription for ${recipient}`,
    pickup: (recipient) => `Pickup receipt for ${recipient}`,
  },
  th: {
    issue: (recipient) => `ใบสั่งยาของ ${recipient}`,
    pickup: (recipient) => `ใบรับยาของ ${recipient}`,
  },
};

export const receiptTitle = (
  language: Language,
  kind: ReceiptKind,
  recipient: string,
  prescriptionId: string,
): string => `${titles[language][kind](recipient)} (${prescriptionId.slice(0, 8)})`;
