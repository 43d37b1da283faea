// The type of the generated prescription documents: Sarabun (the Thai government's typeface, SIL OFL), embedded
// and subset, so Thai names print as Thai in every viewer and in what pdftotext reads back. Sarabun comes as a
// Latin face and a Thai face; a line is drawn in runs, each in the face that has its letters.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib';

const require = createRequire(import.meta.url);

type Weight = 'regular' | 'bold';
type Script = 'latin' | 'thai';

const files: Record<Script, Record<Weight, string>> = {
  latin: { regular: 'sarabun-latin-400-normal.woff', bold: 'sarabun-latin-700-normal.woff' },
  thai: { regular: 'sarabun-thai-400-normal.woff', bold: 'sarabun-thai-700-normal.woff' },
};

const loaded = new Map<string, Uint8Array>();
/** The font file's bytes, read once per process. */
function fontBytes(file: string): Uint8Array {
  let bytes = loaded.get(file);
  if (!bytes) {
    bytes = readFileSync(require.resolve(`@fontsource/sarabun/files/${file}`));
    loaded.set(file, bytes);
  }
  return bytes;
}

/** Thai letters, vowels, tone marks and digits. */
const THAI = /[\u0E00-\u0E7F]/u;

export const hasThai = (text: string) => THAI.test(text);

/** A weight of the type: its Latin face, and its Thai face when the document has Thai text. */
export interface Face {
  latin: PDFFont;
  thai: PDFFont | undefined;
  /** Code points the Latin face draws; anything else becomes '?'. */
  latinSet: ReadonlySet<number>;
}

export type Type = Record<Weight, Face>;

/**
 * Embeds the faces a document needs (the Thai ones only when `withThai`), subset to the letters used. Named
 * without pdf-lib's random suffix, so the same input makes the same bytes.
 */
export async function embedType(doc: PDFDocument, withThai: boolean): Promise<Type> {
  doc.registerFontkit(fontkit);
  const face = async (weight: Weight): Promise<Face> => {
    const name = `Sarabun-${weight === 'bold' ? 'Bold' : 'Regular'}`;
    const latin = await doc.embedFont(fontBytes(files.latin[weight]), { subset: true, customName: name });
    const thai = withThai
      ? await doc.embedFont(fontBytes(files.thai[weight]), { subset: true, customName: `${name}-Thai` })
      : undefined;
    return { latin, thai, latinSet: new Set(latin.getCharacterSet()) };
  };
  return { regular: await face('regular'), bold: await face('bold') };
}

/** The line as runs of one face each: Thai letters in the Thai face, the rest in the Latin one. */
export function runsOf(text: string, face: Face): { text: string; font: PDFFont }[] {
  const runs: { text: string; font: PDFFont }[] = [];
  for (const character of text) {
    const thai = face.thai && THAI.test(character);
    const font = thai ? face.thai! : face.latin;
    const drawn = thai || face.latinSet.has(character.codePointAt(0)!) ? character : '?';
    const last = runs.at(-1);
    // A space stays with the run it is in, so a Thai name's words are one run.
    if (last && (last.font === font || character === ' ')) last.text += drawn;
    else runs.push({ text: drawn, font });
  }
  return runs;
}

/** Draws one line from `x`, run by run. */
export function drawLine(
  page: PDFPage,
  text: string,
  options: { x: number; y: number; size: number; face: Face; color: Color },
) {
  let x = options.x;
  for (const run of runsOf(text, options.face)) {
    page.drawText(run.text, { x, y: options.y, size: options.size, font: run.font, color: options.color });
    x += run.font.widthOfTextAtSize(run.text, options.size);
  }
}
