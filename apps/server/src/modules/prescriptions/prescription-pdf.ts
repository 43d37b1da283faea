// The documents a prescription's phone signatures go into: the prescription itself (issuer, recipient, items,
// supplier, date, a QR code of its verification link) and the pickup receipt. Made with pdf-lib, in Sarabun
// (pdf-type.ts), so Thai names print as Thai. Labels are in the recipient's language (decision 048); names and
// items print as they were written.
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { isLanguage, type Language } from '@careplane/shared/i18n/languages';
import { drawLine, embedType, hasThai } from './pdf-type.js';

/**
 * A receipt speaks its recipient's language: the patient's choice when they made one, else Thai, the
 * language of the platform's patients and pharmacies.
 */
export const receiptLanguage = (stored: string | null | undefined): Language =>
  isLanguage(stored) ? stored : 'th';

/** Every label a receipt prints, per language; the type makes a missing Thai label a compile error. */
export interface ReceiptTexts {
  prescription: string;
  pickupReceipt: string;
  reference: string;
  issuedBy: string;
  recipient: string;
  supplier: string;
  pickedUpBy: string;
  from: string;
  for: string;
  deliverTo: string;
  date: string;
  items: string;
  verify: string;
  /**
   * The day as its readers write it, in the platform's time zone (a receipt signed at 01:00 in Bangkok is dated
   * that day, not the day before in UTC): ISO in English, the Buddhist era in Thai.
   */
  formatDate: (date: Date, timeZone: string) => string;
}

/** The day of `date` in `timeZone`, in the language's calendar and style. */
const dayIn = (locale: string, options: Intl.DateTimeFormatOptions) => (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat(locale, { ...options, timeZone }).format(date);

export const receiptTexts: Record<Language, ReceiptTexts> = {
  en: {
    prescription: 'Prescription',
    pickupReceipt: 'Prescription pickup receipt',
    reference: 'Reference',
    issuedBy: 'Issued by',
    recipient: 'Recipient',
    supplier: 'Supplier',
    pickedUpBy: 'Picked up by',
    from: 'From',
    for: 'For',
    deliverTo: 'Deliver to',
    date: 'Date',
    items: 'Items',
    verify: 'Verify this document:',
    // en-CA writes the ISO day, 2026-11-25.
    formatDate: dayIn('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }),
  },
  th: {
    prescription: 'ใบสั่งยา',
    pickupReceipt: 'ใบรับยาตามใบสั่งยา',
    reference: 'เลขที่อ้างอิง',
    issuedBy: 'ผู้สั่งยา',
    recipient: 'ผู้รับยา',
    supplier: 'ร้านยา',
    pickedUpBy: 'ผู้รับยาไปส่ง',
    from: 'รับจาก',
    for: 'สำหรับ',
    deliverTo: 'ส่งที่',
    date: 'วันที่',
    items: 'รายการยา',
    verify: 'ตรวจสอบเอกสารนี้ได้ที่:',
    formatDate: dayIn('th-TH-u-ca-buddhist', { day: 'numeric', month: 'long', year: 'numeric' }),
  },
};

export interface PdfItem {
  name: string;
  strength?: string | undefined;
  form?: string | undefined;
  quantity: number;
  unit?: string | undefined;
  dosage?: string | undefined;
  notes?: string | undefined;
}

export interface PrescriptionPdfInput {
  prescriptionId: string;
  issuer: string;
  recipient: string;
  supplier: string;
  items: PdfItem[];
  date: Date;
  /** The platform's time zone, in which `date` is printed. */
  timeZone: string;
  /** Where anyone checks the signed file; shown as text and as a QR code. */
  verificationUrl: string;
  /** The labels' language. */
  language: Language;
}

export interface PickupReceiptInput {
  prescriptionId: string;
  picker: string;
  supplier: string;
  recipient: string;
  deliveryAddress: string;
  items: PdfItem[];
  date: Date;
  timeZone: string;
  verificationUrl: string;
  language: Language;
}

const PAGE: [number, number] = [595.28, 841.89];
const INK = rgb(0.1, 0.1, 0.12);
const ACCENT = rgb(0.04, 0.24, 0.29);

/** One line of text: control characters out, at most 180 characters. */
const printable = (text: string) => text.replace(/\p{Cc}/gu, ' ').slice(0, 180);

const itemLine = (item: PdfItem) =>
  [
    item.name,
    item.strength,
    item.form,
    `x ${item.quantity}${item.unit ? ` ${item.unit}` : ''}`,
    item.dosage ? `- ${item.dosage}` : undefined,
  ]
    .filter(Boolean)
    .join(' ');

function drawQr(page: PDFPage, text: string, x: number, y: number, size: number) {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const count = qr.modules.size;
  const cell = size / count;
  for (let row = 0; row < count; row++) {
    for (let column = 0; column < count; column++) {
      if (!qr.modules.get(row, column)) continue;
      page.drawRectangle({
        x: x + column * cell,
        y: y + size - (row + 1) * cell,
        width: cell,
        height: cell,
        color: rgb(0, 0, 0),
      });
    }
  }
}

async function render(
  texts: ReceiptTexts,
  title: string,
  date: Date,
  timeZone: string,
  fields: [string, string][],
  items: PdfItem[],
  verificationUrl: string,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreationDate(date);
  doc.setModificationDate(date);
  doc.setProducer('Careplane');
  doc.setCreator('Careplane');
  const rows: [string, string][] = [...fields, [texts.date, texts.formatDate(date, timeZone)]];
  const printed = [
    title,
    ...rows.flat(),
    texts.items,
    texts.verify,
    ...items.flatMap((item) => [itemLine(item), item.notes ?? '']),
  ];
  const type = await embedType(doc, printed.some(hasThai));
  const page = doc.addPage(PAGE);
  const line = (text: string, x: number, y: number, size: number, bold = false, color = INK) =>
    drawLine(page, printable(text), { x, y, size, face: bold ? type.bold : type.regular, color });
  line(title, 56, 770, 20, true, ACCENT);
  let y = 735;
  for (const [label, value] of rows) {
    line(`${label}:`, 56, y, 11, true);
    line(value, 150, y, 11);
    y -= 18;
  }
  y -= 10;
  line(texts.items, 56, y, 13, true, ACCENT);
  y -= 20;
  items.forEach((item, index) => {
    if (y < 200) return;
    line(`${index + 1}. ${itemLine(item)}`, 56, y, 11);
    y -= 16;
    if (item.notes) {
      line(item.notes, 72, y, 9);
      y -= 14;
    }
  });
  drawQr(page, verificationUrl, 56, 60, 110);
  line(texts.verify, 180, 150, 10, true);
  line(verificationUrl, 180, 134, 9);
  return doc.save({ useObjectStreams: false });
}

export function prescriptionPdf(input: PrescriptionPdfInput): Promise<Uint8Array> {
  const texts = receiptTexts[input.language];
  return render(
    texts,
    texts.prescription,
    input.date,
    input.timeZone,
    [
      [texts.reference, input.prescriptionId],
      [texts.issuedBy, input.issuer],
      [texts.recipient, input.recipient],
      [texts.supplier, input.supplier],
    ],
    input.items,
    input.verificationUrl,
  );
}

export function pickupReceiptPdf(input: PickupReceiptInput): Promise<Uint8Array> {
  const texts = receiptTexts[input.language];
  return render(
    texts,
    texts.pickupReceipt,
    input.date,
    input.timeZone,
    [
      [texts.reference, input.prescriptionId],
      [texts.pickedUpBy, input.picker],
      [texts.from, input.supplier],
      [texts.for, input.recipient],
      [texts.deliverTo, input.deliveryAddress],
    ],
    input.items,
    input.verificationUrl,
  );
}
