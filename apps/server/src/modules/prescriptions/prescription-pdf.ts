// The documents a prescription's phone signatures go into: the prescription itself (issuer, recipient, items,
// supplier, date, a QR code of its verification link) and the pickup receipt. Made with pdf-lib.
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';

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

/** The standard fonts encode WinAnsi only: anything else becomes '?', so no name breaks the file. */
const printable = (text: string) => text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?').slice(0, 180);

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
  const font: PDFFont = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage(PAGE);
  page.drawText(printable(title), { x: 56, y: 770, size: 20, font: bold, color: ACCENT });
  let y = 735;
  for (const [label, value] of [...fields, ['Date', date.toISOString().slice(0, 10)] as [string, string]]) {
    page.drawText(`${label}:`, { x: 56, y, size: 11, font: bold, color: INK });
    page.drawText(printable(value), { x: 150, y, size: 11, font, color: INK });
    y -= 18;
  }
  y -= 10;
  page.drawText('Items', { x: 56, y, size: 13, font: bold, color: ACCENT });
  y -= 20;
  items.forEach((item, index) => {
    if (y < 200) return;
    page.drawText(printable(`${index + 1}. ${itemLine(item)}`), { x: 56, y, size: 11, font, color: INK });
    y -= 16;
    if (item.notes) {
      page.drawText(printable(item.notes), { x: 72, y, size: 9, font, color: INK });
      y -= 14;
    }
  });
  drawQr(page, verificationUrl, 56, 60, 110);
  page.drawText('Verify this document:', { x: 180, y: 150, size: 10, font: bold, color: INK });
  page.drawText(printable(verificationUrl), { x: 180, y: 134, size: 9, font, color: INK });
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
