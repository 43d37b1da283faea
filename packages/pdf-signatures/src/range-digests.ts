// Digests of several byte-range sets of one file in a single pass. A multi-signed PDF asks for the digest of
// each signature's byte ranges, of each signed revision and of the whole file: all of them start with the same
// long prefix (the original document), so hashing it once and copying the hash state where the sets part ways
// keeps a 10 MB file with three signatures close to the cost of hashing it once.
import { createHash, type Hash } from 'node:crypto';

export interface DigestTarget {
  algorithm: 'sha256' | 'sha384' | 'sha512';
  /** Half-open [start, end) ranges, ascending and not overlapping, inside the file. */
  ranges: Array<[number, number]>;
}

export function digestRanges(bytes: Uint8Array, targets: DigestTarget[]): Buffer[] {
  for (const target of targets) {
    let previousEnd = 0;
    for (const [start, end] of target.ranges) {
      if (!(start >= previousEnd && end >= start && end <= bytes.length)) {
        throw new RangeError('Digest ranges must be ascending, disjoint and inside the file');
      }
      previousEnd = end;
    }
  }
  const points = new Set<number>([0, bytes.length]);
  for (const target of targets) for (const [start, end] of target.ranges) points.add(start).add(end);
  const boundaries = [...points].sort((a, b) => a - b);

  const includes = (target: DigestTarget, start: number, end: number) =>
    target.ranges.some(([rangeStart, rangeEnd]) => rangeStart <= start && end <= rangeEnd);

  // Targets whose included segments have been the same so far share one hash state.
  let groups: Array<{ hash: Hash; members: number[] }> = [];
  const byAlgorithm = new Map<string, number[]>();
  targets.forEach((target, i) =>
    byAlgorithm.set(target.algorithm, [...(byAlgorithm.get(target.algorithm) ?? []), i]),
  );
  for (const [algorithm, members] of byAlgorithm) groups.push({ hash: createHash(algorithm), members });

  for (let s = 0; s + 1 < boundaries.length; s++) {
    const start = boundaries[s]!;
    const end = boundaries[s + 1]!;
    if (end === start) continue;
    const segment = bytes.subarray(start, end);
    const next: typeof groups = [];
    for (const group of groups) {
      const inside = group.members.filter((i) => includes(targets[i]!, start, end));
      const outside = group.members.filter((i) => !includes(targets[i]!, start, end));
      if (inside.length > 0 && outside.length > 0) next.push({ hash: group.hash.copy(), members: outside });
      if (inside.length > 0) group.hash.update(segment);
      next.push({ hash: group.hash, members: inside.length > 0 ? inside : outside });
    }
    groups = next;
  }
  const digests = new Array<Buffer>(targets.length);
  for (const group of groups) {
    const digest = group.hash.digest();
    for (const i of group.members) digests[i] = digest;
  }
  return digests;
}
