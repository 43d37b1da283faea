// The verification report's sentences in the reader's language (decision 048). The signing core writes them in
// English; a Thai reader gets the verdict told again from the report's structured fields (which signature,
// whose, when, what changed), and each problem and change in Thai where its wording is known, else as the core
// wrote it. Only the sentences change: every structured field stays as the core reported it.
import type { Language } from '@careplane/shared/i18n/languages';
import type {
  SignatureChange,
  SignatureReport,
  VerificationReport,
} from '@careplane/shared/documents/documents.contract';

/**
 * Why Careplane no longer vouches for a signature whose certificate chains to its CA (decision 099): the server's
 * own problems, added to the core's by its signer-standing lookup. A signing time is the signer's word, so a
 * key that may be in other hands vouches only for the signatures Careplane completed itself.
 */
export const signerStandingTexts = {
  revoked:
    "The signer's phone was revoked, and Careplane did not complete this signature: it cannot tell when it was made",
  notEnrolled:
    "The signer's phone is no longer enrolled, and Careplane did not complete this signature: it cannot tell when it was made",
} as const;

/** Fixed sentences of the signing core (problems and changes) and of the server's standing, and their Thai. */
const sentences: Record<string, string> = {
  [signerStandingTexts.revoked]:
    'โทรศัพท์ของผู้ลงนามถูกเพิกถอนแล้ว และ Careplane ไม่ได้เป็นผู้ทำลายมือชื่อนี้ให้สมบูรณ์ จึงบอกไม่ได้ว่าลงนามเมื่อใด',
  [signerStandingTexts.notEnrolled]:
    'โทรศัพท์ของผู้ลงนามไม่ได้ลงทะเบียนไว้แล้ว และ Careplane ไม่ได้เป็นผู้ทำลายมือชื่อนี้ให้สมบูรณ์ จึงบอกไม่ได้ว่าลงนามเมื่อใด',
  'The signature cannot be read': 'อ่านลายมือชื่อไม่ได้',
  'The signature data is malformed': 'ข้อมูลลายมือชื่อผิดรูปแบบ',
  'Its signature field is no longer part of the document: the file was changed after it was signed':
    'ช่องลายมือชื่อนี้ไม่ได้เป็นส่วนหนึ่งของเอกสารแล้ว: ไฟล์ถูกเปลี่ยนแปลงหลังจากลงนาม',
  'No signature dictionary': 'ไม่มีพจนานุกรมลายมือชื่อ (signature dictionary)',
  'The signature field has no readable signature dictionary': 'ช่องลายมือชื่อไม่มีพจนานุกรมลายมือชื่อที่อ่านได้',
  'The byte range is missing or malformed': 'ช่วงไบต์ที่ลงนาม (ByteRange) ไม่มีหรือผิดรูปแบบ',
  // Why a file is not a readable PDF (pdf-structure.ts).
  'The file is not a PDF (no %PDF header)': 'ไฟล์นี้ไม่ใช่ PDF (ไม่มีส่วนหัว %PDF)',
  'The trailer has no valid /Size': 'ส่วนท้ายของไฟล์ (trailer) ไม่มี /Size ที่ถูกต้อง',
  'The trailer has no /Root reference': 'ส่วนท้ายของไฟล์ (trailer) ไม่มีการอ้างอิง /Root',
  'The document catalog is missing': 'ไม่มีโครงสร้างหลักของเอกสาร (document catalog)',
  'The document catalog nests too deeply to be read':
    'โครงสร้างหลักของเอกสาร (document catalog) ซ้อนกันลึกเกินกว่าจะอ่านได้',
  'No cross-reference section': 'ไม่มีตารางอ้างอิงออบเจกต์ (cross-reference)',
  'A cross-reference offset points outside the file': 'ตารางอ้างอิงออบเจกต์ชี้ไปนอกไฟล์',
  'A cross-reference stream has a bad /W': 'ตารางอ้างอิงออบเจกต์แบบสตรีมมี /W ไม่ถูกต้อง',
  'A cross-reference stream has empty rows': 'ตารางอ้างอิงออบเจกต์แบบสตรีมมีแถวว่าง',
  'A cross-reference stream has a bad /Index': 'ตารางอ้างอิงออบเจกต์แบบสตรีมมี /Index ไม่ถูกต้อง',
  'No startxref near the end of the file': 'ไม่พบ startxref ใกล้ท้ายไฟล์',
  'startxref is not followed by an offset': 'ไม่มีตำแหน่งต่อจาก startxref',
  'A stream decodes to too many bytes': 'สตรีมในไฟล์คลายออกมาใหญ่เกินไป',
  'A compressed stream cannot be decoded': 'คลายสตรีมที่บีบอัดไว้ไม่ได้',
  'Bad predictor parameters': 'ค่าพารามิเตอร์ predictor ไม่ถูกต้อง',
  'Unsupported TIFF predictor depth': 'ไม่รองรับความลึกของ TIFF predictor นี้',
  'The signed bytes do not start at the beginning of the file': 'ข้อมูลที่ลงนามไม่ได้เริ่มที่ต้นไฟล์',
  'The byte ranges overlap or are out of order': 'ช่วงไบต์ที่ลงนามซ้อนกันหรือเรียงลำดับผิด',
  'The byte range reaches beyond the end of the file': 'ช่วงไบต์ที่ลงนามเลยท้ายไฟล์',
  'The signature has no /Contents': 'ลายมือชื่อไม่มี /Contents',
  'The signature dictionary is not stored where signed bytes can cover it':
    'พจนานุกรมลายมือชื่อไม่ได้อยู่ในส่วนที่ข้อมูลที่ลงนามครอบคลุม',
  'The signature dictionary is not the one the signed bytes contain':
    'พจนานุกรมลายมือชื่อไม่ใช่ชุดเดียวกับที่อยู่ในข้อมูลที่ลงนาม',
  "The byte range's gap is not the signature's /Contents": 'ช่องว่างระหว่างช่วงไบต์ไม่ใช่ /Contents ของลายมือชื่อ',
  'The digest algorithm is not one Careplane checks': 'Careplane ไม่ได้ตรวจสอบอัลกอริทึมแฮชแบบนี้',
  'The signature is not detached from the document': 'ลายมือชื่อไม่ได้แยกจากเนื้อหาเอกสาร (detached)',
  'The signature has no signed attributes': 'ลายมือชื่อไม่มีแอตทริบิวต์ที่ลงนาม (signed attributes)',
  "The signer's certificate is not in the signature": 'ไม่มีใบรับรองของผู้ลงนามอยู่ในลายมือชื่อ',
  'The signed content type is not data': 'ประเภทเนื้อหาที่ลงนามไม่ใช่ data',
  'The signed bytes were changed: their digest does not match the signature':
    'ข้อมูลที่ลงนามถูกเปลี่ยนแปลง: ค่าแฮชไม่ตรงกับลายมือชื่อ',
  'The signature algorithm is not one Careplane checks': 'Careplane ไม่ได้ตรวจสอบอัลกอริทึมลายมือชื่อแบบนี้',
  "The signature does not verify with the signer's certificate": 'ตรวจสอบลายมือชื่อกับใบรับรองของผู้ลงนามแล้วไม่ผ่าน',
  'The embedded certificate is not the one the signer signed with': 'ใบรับรองที่แนบมาไม่ใช่ใบที่ผู้ลงนามใช้ลงนาม',
  'The signer certificate cannot be read': 'อ่านใบรับรองของผู้ลงนามไม่ได้',
  'The certificate was not issued by the Careplane document signing CA':
    'ใบรับรองนี้ไม่ได้ออกโดยผู้ออกใบรับรองสำหรับลงนามเอกสารของ Careplane',
  'The signer certificate is a CA certificate': 'ใบรับรองของผู้ลงนามเป็นใบรับรองของผู้ออกใบรับรอง (CA)',
  'The signing time is unknown, so the certificate cannot be checked':
    'ไม่ทราบเวลาที่ลงนาม จึงตรวจสอบใบรับรองไม่ได้',
  'The certificate was not valid at the signing time': 'ใบรับรองไม่มีผลใช้ ณ เวลาที่ลงนาม',
  'The CA certificate was not valid at the signing time': 'ใบรับรองของผู้ออกใบรับรองไม่มีผลใช้ ณ เวลาที่ลงนาม',
  'added validation data for the signatures (DSS)': 'เพิ่มข้อมูลสำหรับตรวจสอบลายมือชื่อ (DSS)',
  'updated the modification date or producer in the document information':
    'ปรับวันที่แก้ไขหรือชื่อโปรแกรมที่สร้างในข้อมูลของเอกสาร',
  "updated the form's appearance settings": 'ปรับการตั้งค่าการแสดงผลของแบบฟอร์ม',
  'replaced the document catalog': 'แทนที่โครงสร้างหลักของเอกสาร (catalog)',
  'changed the encryption of the file': 'เปลี่ยนการเข้ารหัสของไฟล์',
  'reordered the pages': 'สลับลำดับหน้า',
  'changed the page tree': 'เปลี่ยนโครงสร้างหน้า',
  'replaced the page tree': 'แทนที่โครงสร้างหน้า',
  "changed the form's fields": 'เปลี่ยนช่องของแบบฟอร์ม',
  'changed the document metadata (XMP)': 'เปลี่ยนข้อมูลกำกับของเอกสาร (XMP)',
};

const verbs: Record<string, string> = { added: 'เพิ่ม', changed: 'แก้ไข', removed: 'ลบ' };

/** Sentences of the core that carry values, and their Thai. */
const patterns: [RegExp, (...parts: string[]) => string][] = [
  [
    /^The signature format (.+) is not one Careplane checks$/,
    (format) => `Careplane ไม่ได้ตรวจสอบลายมือชื่อรูปแบบ ${format}`,
  ],
  [/^The signature data is malformed \((.+)\)$/, (detail) => `ข้อมูลลายมือชื่อผิดรูปแบบ (${detail})`],
  [
    /^The file around it cannot be read \((.+)\): it was changed after it was signed$/,
    (detail) => `อ่านไฟล์ส่วนรอบลายมือชื่อนี้ไม่ได้ (${detail}): ไฟล์ถูกเปลี่ยนแปลงหลังจากลงนาม`,
  ],
  [/^filled in form field "(.*)"$/, (name) => `กรอกช่องแบบฟอร์ม "${name}"`],
  [/^added form field "(.*)"$/, (name) => `เพิ่มช่องแบบฟอร์ม "${name}"`],
  [/^changed read-only form field "(.*)"$/, (name) => `แก้ไขช่องแบบฟอร์มแบบอ่านอย่างเดียว "${name}"`],
  [/^changed the signature in field "(.*)"$/, (name) => `แก้ไขลายมือชื่อในช่อง "${name}"`],
  [/^changed the appearance of signature field "(.*)"$/, (name) => `แก้ไขการแสดงผลของช่องลายมือชื่อ "${name}"`],
  [/^removed signature field "(.*)"$/, (name) => `ลบช่องลายมือชื่อ "${name}"`],
  [/^removed form field "(.*)"$/, (name) => `ลบช่องแบบฟอร์ม "${name}"`],
  [
    /^added signature (\d+) \((.*)\)(.*)$/,
    (index, name, rest) => `เพิ่มลายมือชื่อที่ ${index} (${name})${shownOn(rest)}`,
  ],
  [/^added a signature in field "(.*)"(.*)$/, (name, rest) => `เพิ่มลายมือชื่อในช่อง "${name}"${shownOn(rest)}`],
  [
    /^added an empty signature field "(.*)" with a visible appearance on page (\d+), which can draw over what was signed$/,
    (name, page) => `เพิ่มช่องลายมือชื่อว่าง "${name}" ที่แสดงให้เห็นในหน้า ${page} ซึ่งอาจแสดงทับเนื้อหาที่ลงนามไว้`,
  ],
  [
    /^added an empty signature field "(.*)"(.*)$/,
    (name, rest) => `เพิ่มช่องลายมือชื่อว่าง "${name}"${shownOn(rest)}`,
  ],
  [
    /^(added|changed|removed) an annotation \((.*)\) on page (\d+)$/,
    (verb, subtype, page) => `${verbs[verb]}คำอธิบายประกอบ (${subtype}) ในหน้า ${page}`,
  ],
  [
    /^(added|changed|removed) a form field's widget on page (\d+)$/,
    (verb, page) => `${verbs[verb]}ส่วนแสดงผลของช่องแบบฟอร์มในหน้า ${page}`,
  ],
  [/^changed the annotations on page (\d+)$/, (page) => `แก้ไขคำอธิบายประกอบในหน้า ${page}`],
  [/^changed the content of page (\d+)$/, (page) => `แก้ไขเนื้อหาของหน้า ${page}`],
  [
    /^changed the resources \(fonts, images\) of page (\d+)$/,
    (page) => `แก้ไขทรัพยากร (แบบอักษร รูปภาพ) ของหน้า ${page}`,
  ],
  [/^changed page (\d+) \((.*)\)$/, (page, keys) => `แก้ไขหน้า ${page} (${keys})`],
  [/^changed the document catalog \((.*)\)$/, (keys) => `แก้ไขโครงสร้างหลักของเอกสาร (${keys})`],
  [/^changed the document information \((.*)\)$/, (keys) => `แก้ไขข้อมูลของเอกสาร (${keys})`],
  [/^changed the form \((.*)\)$/, (keys) => `แก้ไขแบบฟอร์ม (${keys})`],
  [/^changed an appearance \(object (\d+)\)$/, (num) => `แก้ไขการแสดงผล (ออบเจกต์ ${num})`],
  [
    /^added object (\d+), to which the earlier revision already referred$/,
    (num) => `เพิ่มออบเจกต์ ${num} ที่ฉบับก่อนหน้าอ้างถึงอยู่แล้ว`,
  ],
  [/^could not be compared: (.*)$/, (reason) => `เปรียบเทียบไม่ได้: ${thai(reason)}`],
  [/^Unreadable PDF structure: (.*)$/, (reason) => `อ่านโครงสร้าง PDF ไม่ได้ (${reason})`],
  [/^Unsupported stream filter (.*)$/, (name) => `ไม่รองรับตัวกรองสตรีม ${name}`],
  [
    /^Malformed cross-reference (table|entry) at byte (\d+)$/,
    (_, at) => `ตารางอ้างอิงออบเจกต์ผิดรูปแบบที่ไบต์ ${at}`,
  ],
  [/^No cross-reference section at byte (\d+)$/, (at) => `ไม่มีตารางอ้างอิงออบเจกต์ที่ไบต์ ${at}`],
  [/^Object stream (\d+) is missing$/, (num) => `ไม่มีสตรีมออบเจกต์ ${num}`],
  [/^Unsupported predictor (\d+)$/, (predictor) => `ไม่รองรับ predictor ${predictor}`],
  [/^Bad PNG predictor row type (\d+)$/, (type) => `แถวของ PNG predictor มีชนิด ${type} ที่ไม่ถูกต้อง`],
  [/^made (\d+) further changes$/, (count) => `แก้ไขเพิ่มเติมอีก ${count} รายการ`],
];

/** ` with a visible appearance on page 2` after an added signature. */
function shownOn(rest = ''): string {
  const page = / with a visible appearance on page (\d+)$/.exec(rest)?.[1];
  return page ? ` โดยแสดงให้เห็นในหน้า ${page}` : rest;
}

/** A sentence of the core in Thai, else as it was written. */
function thai(sentence: string): string {
  const known = sentences[sentence];
  if (known) return known;
  for (const [pattern, render] of patterns) {
    const match = pattern.exec(sentence);
    if (match) return render(...match.slice(1));
  }
  return sentence;
}

const permissions: Record<number, string> = {
  1: 'ห้ามแก้ไขใด ๆ',
  2: 'กรอกแบบฟอร์มและลงนาม',
  3: 'กรอกแบบฟอร์ม ลงนาม และเพิ่มคำอธิบายประกอบ',
};

/** 23.11.2569 14:02 UTC: the product's date in the Buddhist era, as Thai dates are (decision 047). */
function thaiTime(iso: string | null): string {
  if (!iso) return 'เวลาที่ไม่ทราบ';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${date.getUTCFullYear() + 543} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

function who(report: SignatureReport): string {
  const name = report.signer?.commonName ?? 'ผู้ลงนามที่ไม่ทราบชื่อ';
  const id = report.signer?.username ?? report.signer?.email;
  return id ? `${name} (${id})` : name;
}

const revisionOf = (report: SignatureReport, change: { revision: number | null }) =>
  `ฉบับแก้ไขที่ ${change.revision} จาก ${report.covers?.revisions ?? '?'}`;

/** Why a file is unreadable, in Thai: the core's reason follows "Not a readable PDF: " with a small first letter. */
function unreadableReason(summary: string): string {
  const reason = summary.replace(/^Not a readable PDF: /, '').replace(/\.$/, '');
  const capitalized = reason.charAt(0).toUpperCase() + reason.slice(1);
  const told = thai(capitalized);
  return told === capitalized ? thai(reason) : told;
}

/** The verdict told again in Thai from the report's fields, as the core decides it (pdf-verification.ts). */
function thaiSummary(report: VerificationReport): string {
  const signatures = report.signatures;
  const known = report.fileKnownToPlatform
    ? ' ไฟล์นี้ตรงทุกไบต์กับฉบับที่ Careplane ลงนามให้สมบูรณ์'
    : signatures.some((signature) => signature.knownToPlatform)
      ? ' Careplane ลงนามฉบับหนึ่งของเอกสารนี้ให้สมบูรณ์'
      : '';
  const firstProblem = (signature: SignatureReport, otherwise: string) =>
    signature.problems[0] ? thai(signature.problems[0]) : otherwise;
  switch (report.verdict.status) {
    case 'unreadable':
      return `ไม่ใช่ไฟล์ PDF ที่อ่านได้: ${unreadableReason(report.verdict.summary)}`;
    case 'unsigned':
      return 'ไม่ได้ลงนาม: ไฟล์นี้ไม่มีลายมือชื่อดิจิทัล';
    case 'tampered': {
      const broken = signatures.find((signature) => !signature.intact && signature.supported);
      if (!broken) break;
      return `ถูกแก้ไขหรือเสียหาย: ลายมือชื่อที่ ${broken.index} (${who(broken)}) ใช้ไม่ได้: ${firstProblem(broken, 'ตรวจสอบไม่ได้')} อย่าใช้เอกสารนี้อ้างอิง`;
    }
    case 'unsupported': {
      const unchecked = signatures.find((signature) => !signature.supported);
      if (!unchecked) break;
      return `ตรวจสอบไม่ได้: ลายมือชื่อที่ ${unchecked.index} (${who(unchecked)}) อยู่ในรูปแบบที่ Careplane ไม่ได้ตรวจสอบ (${firstProblem(unchecked, 'ไม่ทราบรูปแบบ')}) อย่าถือว่าเอกสารนี้ได้รับการลงนาม`;
    }
    case 'untrusted': {
      const foreign = signatures.find(
        (signature) => !signature.chainsToPlatformCa || signature.signerWithdrawn,
      );
      if (!foreign) break;
      // As the core tells it: a certificate that chains was let down by its signer's standing, said last.
      const problem = foreign.chainsToPlatformCa ? foreign.problems.at(-1) : foreign.problems[0];
      return `ข้อมูลที่ลงนามยังครบถ้วน แต่ Careplane ไม่ได้รับรองลายมือชื่อที่ ${foreign.index} (${who(foreign)}): ${problem ? thai(problem) : 'ใบรับรองไม่ได้ออกโดยผู้ออกใบรับรองของ Careplane'}`;
    }
    case 'modified-after-signing': {
      const changedAfter = report.verdict.changedAfter;
      const changed =
        changedAfter && signatures.find((signature) => signature.index === changedAfter.signature);
      if (changedAfter && changed) {
        const kind = changed.changesAfter.find((entry) => !entry.allowed)?.kind;
        const certification = signatures.find(
          (signature) => signature.certification && signature.index <= changed.index,
        )?.certification;
        const reason =
          kind !== 'other' && certification
            ? ` ซึ่งลายมือชื่อรับรองไม่อนุญาต (อนุญาตเพียง${permissions[certification.permission]})`
            : '';
        const later = signatures.filter((signature) => signature.index > changed.index);
        const afterwards = later.length
          ? ` ลายมือชื่อที่ลงภายหลังรับรองเฉพาะสิ่งที่ผู้ลงนามคนหลังลงนาม ไม่ได้รับรองสิ่งที่ ${changed.signer?.commonName ?? 'ผู้ลงนามคนก่อน'} ลงนามไว้`
          : '';
        return changedAfter.revision === null
          ? `บอกไม่ได้ว่ามีอะไรเปลี่ยนไปหลังจาก ${who(changed)} ลงนาม: การเปลี่ยนแปลง${thai(changedAfter.description)}${afterwards}`
          : `มีการแก้ไขหลังจาก ${who(changed)} ลงนาม: ${revisionOf(changed, changedAfter)} ${thai(changedAfter.description)}${reason}${afterwards}`;
      }
      const last = signatures.at(-1);
      if (!last) break;
      const shown = last.changesAfter.filter((change) => change.kind !== 'validation-data');
      if (shown.length === 0) {
        const added = report.size - (last.covers?.bytes ?? 0);
        return `ลายมือชื่อทุกรายการยังครบถ้วน แต่ไฟล์ถูกแก้ไขหลังลายมือชื่อสุดท้าย (มีข้อมูลต่อท้ายเพิ่มมา ${added} ไบต์)${known}`;
      }
      const list = shown
        .map((change) => `${revisionOf(last, change)} ${thai(change.description)}`)
        .join('; ');
      return `ลายมือชื่อทุกรายการยังครบถ้วน แต่ไฟล์ถูกแก้ไขหลังจาก ${who(last)} ลงนามเป็นคนสุดท้าย: ${list} ลายมือชื่ออนุญาตการแก้ไขนี้ แต่ไม่มีผู้ใดลงนามรับรองการแก้ไขดังกล่าว${known}`;
    }
    case 'authentic': {
      const last = signatures.at(-1);
      if (!last) break;
      const signed = signatures.map(
        (signature) => `${who(signature)} เมื่อ ${thaiTime(signature.signingTime)}`,
      );
      const between = (signatures[0]?.changesAfter ?? []).filter(
        (change: SignatureChange) =>
          change.kind !== 'signature' &&
          change.kind !== 'validation-data' &&
          change.revision !== null &&
          change.revision <= (last.covers?.revision ?? 0),
      );
      const betweenNote = between.length
        ? ` ระหว่างการลงนามแต่ละครั้งมีการแก้ไขที่ลายมือชื่ออนุญาต: ${between.map((change) => `${revisionOf(last, change)} ${thai(change.description)}`).join('; ')}`
        : '';
      const validationNote =
        !last.coversWholeFile && last.changesAfter.some((change) => change.kind === 'validation-data')
          ? ' มีการเพิ่มข้อมูลสำหรับตรวจสอบลายมือชื่อหลังลายมือชื่อสุดท้าย'
          : '';
      return `ของจริงและไม่ถูกแก้ไข: ลงนามโดย ${signed.join(' ต่อด้วย ')}${betweenNote}${validationNote}${known}`;
    }
  }
  return report.verdict.summary;
}

function thaiReport(report: VerificationReport): VerificationReport {
  const allowed = report.allowedChanges;
  return {
    ...report,
    verdict: {
      ...report.verdict,
      summary: thaiSummary(report),
      changedAfter: report.verdict.changedAfter && {
        ...report.verdict.changedAfter,
        description: thai(report.verdict.changedAfter.description),
      },
    },
    allowedChanges: {
      ...allowed,
      description: `${permissions[allowed.level]} (${
        allowed.certifiedBy === null
          ? 'ไม่มีลายมือชื่อรับรอง จึงใช้ค่าเริ่มต้น'
          : `รับรองโดยลายมือชื่อที่ ${allowed.certifiedBy}`
      })`,
    },
    signatures: report.signatures.map((signature) => ({
      ...signature,
      changesAfter: signature.changesAfter.map((change) => ({
        ...change,
        description: thai(change.description),
      })),
      problems: signature.problems.map(thai),
    })),
  };
}

/** The report with its sentences in the language; English is the report as the core wrote it. */
export const localizeReport = (report: VerificationReport, language: Language): VerificationReport =>
  language === 'th' ? thaiReport(report) : report;
