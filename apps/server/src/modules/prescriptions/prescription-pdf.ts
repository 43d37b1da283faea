// The documents a prescription's phone signatures go into: the prescription itself (issuer, recipient, items,
// supplier, date, a QR code of its verification link) and the pickup receipt. Made with pdf-lib, in Sarabun
// (pdf-type.ts), so Thai names print as Thai.
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { drawLine, embedType, hasThai } from './pdf-type.js';

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
  /** Where anyone checks the signed file; shown as text and as a QR code. */
  verificationUrl: string;
}

export interface PickupReceiptInput {
  prescriptionId: string;
  picker: string;
  supplier: string;
  recipient: string;
  deliveryAddress: string;
  items: PdfItem[];
  date: Date;
  verificationUrl: string;
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
  title: string,
  date: Date,
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
  const texts = [title, ...fields.flat(), ...items.flatMap((item) => [itemLine(item), item.notes ?? ''])];
  const type = await embedType(doc, texts.some(hasThai));
  const page = doc.addPage(PAGE);
  const line = (text: string, x: number, y: number, size: number, bold = false, color = INK) =>
    drawLine(page, printable(text), { x, y, size, face: bold ? type.bold : type.regular, color });
  line(title, 56, 770, 20, true, ACCENT);
  let y = 735;
  for (const [label, value] of [...fields, ['Date', date.toISOString().slice(0, 10)] as [string, string]]) {
    line(`${label}:`, 56, y, 11, true);
    line(value, 150, y, 11);
    y -= 18;
  }
  y -= 10;
  line('Items', 56, y, 13, true, ACCENT);
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
  line('Verify this document:', 180, 150, 10, true);
  line(verificationUrl, 180, 134, 9);
  return doc.save({ useObjectStreams: false });
}

export function prescriptionPdf(input: PrescriptionPdfInput): Promise<Uint8Array> {
  return render(
    'Prescription',
    input.date,
    [
      ['Reference', input.prescriptionId],
      ['Issued by', input.issuer],
      ['Recipient', input.recipient],
      ['Supplier', input.supplier],
    ],
    input.items,
    input.verificationUrl,
  );
}

export function pickupReceiptPdf(input: PickupReceiptInput): Promise<Uint8Array> {
  return render(
    'Prescription pickup receipt',
    input.date,
    [
      ['Reference', input.prescriptionId],
      ['Picked up by', input.picker],
      ['From', input.supplier],
      ['For', input.recipient],
      ['Deliver to', input.deliveryAddress],
    ],
    input.items,
    input.verificationUrl,
  );
}
