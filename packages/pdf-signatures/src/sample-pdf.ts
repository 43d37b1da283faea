// Real PDFs for tests, demos and benchmarks, made with pdf-lib: a short text document, and a large one whose
// size comes from photo-like image streams (noise does not compress, like JPEG data).
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  StandardFonts,
} from 'pdf-lib';

export interface SamplePdfOptions {
  title?: string;
  lines?: string[];
  /** pdf-lib's default packs objects in object streams with a cross-reference stream; false writes a table. */
  useObjectStreams?: boolean;
  /** Fixed dates make the bytes reproducible. */
  date?: Date;
}

const DEFAULT_DATE = new Date('2026-11-23T09:00:00Z');

export async function createSamplePdf(options: SamplePdfOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const date = options.date ?? DEFAULT_DATE;
  doc.setTitle(options.title ?? 'Care plan');
  doc.setCreationDate(date);
  doc.setModificationDate(date);
  doc.setProducer('Careplane');
  doc.setCreator('Careplane');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([595.28, 841.89]);
  page.drawText(options.title ?? 'Care plan', {
    x: 56,
    y: 770,
    size: 20,
    font: bold,
    color: rgb(0.04, 0.24, 0.29),
  });
  const lines = options.lines ?? [
    'Patient: Ann Example, born 02.03.1941',
    'Visits: daily at 08:00 and 18:00; medication check at each visit.',
    'Blood pressure measured every morning and sent from the home device.',
    'Alert the command center when the heart rate leaves 40-130.',
  ];
  lines.forEach((line, i) => page.drawText(line, { x: 56, y: 730 - i * 18, size: 11, font }));
  return doc.save({ useObjectStreams: options.useObjectStreams ?? true });
}

/**
 * A PDF of about `targetBytes`: pages each showing one uncompressed 8-bit RGB image of deterministic noise
 * (an xorshift generator, so runs are comparable), plus a caption.
 */
export async function createLargeSamplePdf(
  targetBytes: number,
  options: { useObjectStreams?: boolean; imageBytes?: number } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Scanned records');
  doc.setCreationDate(DEFAULT_DATE);
  doc.setModificationDate(DEFAULT_DATE);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const side = Math.max(16, Math.floor(Math.sqrt((options.imageBytes ?? 512 * 1024) / 3)));
  const imageBytes = side * side * 3;
  const pages = Math.max(1, Math.round(targetBytes / imageBytes));
  let state = 0x9e3779b9;
  for (let p = 0; p < pages; p++) {
    const pixels = new Uint8Array(imageBytes);
    const words = new Uint32Array(pixels.buffer, 0, Math.floor(imageBytes / 4));
    for (let i = 0; i < words.length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      words[i] = state >>> 0;
    }
    const image = doc.context.stream(pixels, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: side,
      Height: side,
      ColorSpace: 'DeviceRGB',
      BitsPerComponent: 8,
    });
    const imageRef = doc.context.register(image);
    const page = doc.addPage([595.28, 841.89]);
    const name = page.node.newXObject('Scan', imageRef);
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(480, 0, 0, 480, 56, 200),
      drawObject(name),
      popGraphicsState(),
    );
    page.drawText(`Scanned page ${p + 1} of ${pages}`, { x: 56, y: 60, size: 10, font });
  }
  return doc.save({ useObjectStreams: options.useObjectStreams ?? true });
}
