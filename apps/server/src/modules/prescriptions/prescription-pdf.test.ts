// The generated prescription documents print Thai as Thai: the text reads back from the file (pdftotext), the
// Sarabun faces are embedded, the page renders (pdftoppm), a phone signature over it is valid for pdfsig, and
// the same input makes the same bytes. Their labels are in English or Thai, with the date in the Buddhist era.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ANN, pdfsig, signPdf, testAuthority, testSigner } from '@careplane/pdf-signatures/testing';
import { pickupReceiptPdf, prescriptionPdf, receiptLanguage, receiptTexts } from './prescription-pdf.js';
import { runsOf } from './pdf-type.js';

const run = promisify(execFile);

async function withFile<T>(bytes: Uint8Array, work: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'careplane-rx-pdf-'));
  try {
    const file = path.join(dir, 'prescription.pdf');
    await writeFile(file, bytes);
    return await work(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const input = {
  prescriptionId: '0190a0b0-0000-7000-8000-00000000b001',
  issuer: 'Arthit Charoenrat',
  recipient: 'มาลี ศรีสวัสดิ์',
  supplier: 'ร้านยาสุขุมวิท Sukhumvit Care Pharmacy',
  items: [
    { name: 'Metformin', strength: '500 mg', quantity: 60, unit: 'tablets', dosage: 'หลังอาหารเช้า-เย็น' },
  ],
  date: new Date('2026-11-25T09:00:00Z'),
  timeZone: 'Asia/Bangkok',
  verificationUrl: 'https://careplane.example/verify?prescription=0190a0b0-0000-7000-8000-00000000b001',
  language: 'en' as const,
};

/** Gray levels of a page rendered by pdftoppm as PGM (P5): width, height, one byte per pixel. */
async function renderGray(file: string, dir: string, dpi: number) {
  await run('pdftoppm', ['-r', String(dpi), '-gray', file, path.join(dir, 'gray')]);
  const name = (await readdir(dir)).find((entry) => entry.startsWith('gray') && entry.endsWith('.pgm'))!;
  const bytes = await readFile(path.join(dir, name));
  const [, width, height] = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 40).toString('latin1'))!;
  const header = bytes.length - Number(width) * Number(height);
  /** Dark pixels in a box given in PDF points from the top left. */
  const ink = (x: number, y: number, w: number, h: number) => {
    const scale = dpi / 72;
    let dark = 0;
    for (let row = Math.round(y * scale); row < Math.round((y + h) * scale); row++) {
      for (let column = Math.round(x * scale); column < Math.round((x + w) * scale); column++) {
        if (bytes[header + row * Number(width) + column]! < 128) dark++;
      }
    }
    return dark;
  };
  return { ink };
}

describe('prescription documents', () => {
  it('print Thai names and notes as Thai, in embedded Sarabun faces', async () => {
    const bytes = await prescriptionPdf(input);
    await withFile(bytes, async (file, dir) => {
      const { stdout: text } = await run('pdftotext', ['-layout', file, '-']);
      expect(text).toContain('มาลี ศรีสวัสดิ์');
      expect(text).toContain('ร้านยาสุขุมวิท Sukhumvit Care Pharmacy');
      expect(text).toContain('หลังอาหารเช้า-เย็น');
      // No letter was replaced by '?' (the link's own '?' aside).
      expect(text.replace('verify?prescription', '')).not.toContain('?');
      const { stdout: fonts } = await run('pdffonts', [file]);
      expect(fonts).toMatch(/Sarabun-Regular-Thai\s+CID TrueType\s+Identity-H\s+yes/);
      expect(fonts).toMatch(/Sarabun-Bold\s+CID TrueType\s+Identity-H\s+yes/);
      await run('pdftoppm', ['-r', '50', '-png', file, path.join(dir, 'page')]);
      expect((await readdir(dir)).filter((name) => name.endsWith('.png'))).toHaveLength(1);
    });
  });

  it('embeds only the Latin faces when nothing is Thai, and makes the same bytes for the same input', async () => {
    const latin = { ...input, recipient: 'Malee Srisawat', supplier: 'Sukhumvit Care Pharmacy', items: [] };
    const bytes = await pickupReceiptPdf({
      ...latin,
      picker: 'Somchai Thongdee',
      deliveryAddress: 'Silom Road 351',
    });
    await withFile(bytes, async (file) => {
      const { stdout: fonts } = await run('pdffonts', [file]);
      expect(fonts).not.toContain('Thai');
      expect(fonts).toContain('Sarabun-Regular');
    });
    expect(Buffer.from(await prescriptionPdf(input)).equals(Buffer.from(await prescriptionPdf(input)))).toBe(
      true,
    );
  });

  it('stays valid for pdfsig once a phone signs it', async () => {
    const ca = await testAuthority();
    const signed = await signPdf(await prescriptionPdf(input), await testSigner(ca, ANN), ca);
    const { signatures } = await pdfsig(signed);
    expect(signatures).toHaveLength(1);
    expect(signatures[0]).toMatchObject({ validation: 'Signature is Valid.', totalDocumentSigned: true });
  });
});

describe('receipts in Thai', () => {
  const thai = {
    ...input,
    language: 'th' as const,
    picker: 'สมชาย ทองดี',
    deliveryAddress: '351 ถนนสีลม บางรัก กรุงเทพมหานคร 10500',
  };

  it('label a pickup receipt in Thai, with the date in the Buddhist era, and the Thai reads back', async () => {
    const bytes = await pickupReceiptPdf(thai);
    await withFile(bytes, async (file, dir) => {
      const { stdout: text } = await run('pdftotext', ['-layout', file, '-']);
      for (const expected of [
        'ใบรับยาตามใบสั่งยา',
        'ผู้รับยาไปส่ง: สมชาย ทองดี',
        'สำหรับ:',
        'มาลี ศรีสวัสดิ์',
        'ส่งที่:',
        '351 ถนนสีลม บางรัก กรุงเทพมหานคร 10500',
        'วันที่:',
        '25 พฤศจิกายน 2569',
        'รายการยา',
        'ตรวจสอบเอกสารนี้ได้ที่:',
      ]) {
        // pdftotext reads SARA AM back as drawn, NIKHAHIT then SARA AA ('สำา'): the page shows 'สำ'.
        expect(text.replace(/ {2,}/g, ' ').replaceAll('ำา', 'ำ')).toContain(expected);
      }
      expect(text).not.toMatch(/Picked up by|Deliver to|Items|Verify this/);
      // Thai labels are bold: both Thai faces are embedded (as subsets, named without a tag), none left out.
      const { stdout: fonts } = await run('pdffonts', [file]);
      expect(fonts).toMatch(/Sarabun-Bold-Thai\s+CID TrueType\s+Identity-H\s+yes/);
      expect(fonts).toMatch(/Sarabun-Regular-Thai\s+CID TrueType\s+Identity-H\s+yes/);
      expect(fonts).not.toMatch(/Identity-H\s+no/);
      // The Thai title is drawn: ink where it stands, none in the empty margin above it.
      const page = await renderGray(file, dir, 72);
      expect(page.ink(56, 52, 200, 26)).toBeGreaterThan(150);
      expect(page.ink(56, 10, 200, 30)).toBe(0);
    });
  });

  it('stays valid for pdfsig once a phone signs it', async () => {
    const ca = await testAuthority();
    const signed = await signPdf(await prescriptionPdf(thai), await testSigner(ca, ANN), ca);
    const { signatures } = await pdfsig(signed);
    expect(signatures).toHaveLength(1);
    expect(signatures[0]).toMatchObject({ validation: 'Signature is Valid.', totalDocumentSigned: true });
    await withFile(signed, async (file) => {
      const { stdout: text } = await run('pdftotext', ['-layout', file, '-']);
      expect(text).toContain('ใบสั่งยา');
      expect(text.replace(/ {2,}/g, ' ')).toContain('ผู้รับยา: มาลี ศรีสวัสดิ์');
    });
  });

  it('speak the recipient’s chosen language, else Thai, and have every label in both', () => {
    expect(receiptLanguage('en')).toBe('en');
    expect(receiptLanguage('th')).toBe('th');
    expect(receiptLanguage(null)).toBe('th');
    expect(receiptLanguage('fr')).toBe('th');
    const date = new Date('2026-11-25T09:00:00Z');
    const labels = (language: 'en' | 'th') =>
      Object.entries(receiptTexts[language]).map(([key, value]) => [
        key,
        typeof value === 'function' ? value(date, 'Asia/Bangkok') : value,
      ]);
    expect(labels('th').map(([key]) => key)).toEqual(labels('en').map(([key]) => key));
    expect(labels('th').filter(([, text]) => !/[\u0E00-\u0E7F]/.test(text))).toEqual([]);
    expect(receiptTexts.en.formatDate(date, 'Asia/Bangkok')).toBe('2026-11-25');
  });

  it('are dated by the day in the platform’s time zone, not in UTC', () => {
    // 01:30 on the 26th in Bangkok is still the 25th in UTC.
    const earlyMorning = new Date('2026-11-25T18:30:00Z');
    expect(receiptTexts.en.formatDate(earlyMorning, 'Asia/Bangkok')).toBe('2026-11-26');
    expect(receiptTexts.th.formatDate(earlyMorning, 'Asia/Bangkok')).toBe('26 พฤศจิกายน 2569');
    expect(receiptTexts.en.formatDate(earlyMorning, 'UTC')).toBe('2026-11-25');
  });
});

describe('runs of a line', () => {
  it('keeps each script in its face, spaces with their run, and marks what no face draws', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const { embedType } = await import('./pdf-type.js');
    const type = await embedType(await PDFDocument.create(), true);
    const runs = runsOf('For มาลี ศรีสวัสดิ์, 2 ☃', type.regular);
    expect(runs.map((part) => [part.text, part.font === type.regular.thai ? 'thai' : 'latin'])).toEqual([
      ['For ', 'latin'],
      ['มาลี ศรีสวัสดิ์', 'thai'],
      [', 2 ?', 'latin'],
    ]);
  });
});
