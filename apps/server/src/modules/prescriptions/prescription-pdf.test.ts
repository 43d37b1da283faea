// The generated prescription documents print Thai as Thai: the text reads back from the file (pdftotext), the
// Sarabun faces are embedded, the page renders (pdftoppm), a phone signature over it is valid for pdfsig, and
// the same input makes the same bytes.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ANN, pdfsig, signPdf, testAuthority, testSigner } from '@careplane/pdf-signatures/testing';
import { pickupReceiptPdf, prescriptionPdf } from './prescription-pdf.js';
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
  verificationUrl: 'https://careplane.example/verify?prescription=0190a0b0-0000-7000-8000-00000000b001',
};

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
