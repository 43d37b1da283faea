import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestRanges, type DigestTarget } from './range-digests.js';

function naive(bytes: Uint8Array, target: DigestTarget): Buffer {
  const hash = createHash(target.algorithm);
  for (const [start, end] of target.ranges) hash.update(bytes.subarray(start, end));
  return hash.digest();
}

describe('digestRanges', () => {
  it('gives each target the digest of its own ranges, like hashing each on its own', () => {
    const bytes = randomBytes(100_000);
    const targets: DigestTarget[] = [
      { algorithm: 'sha256', ranges: [[0, bytes.length]] },
      {
        algorithm: 'sha256',
        ranges: [
          [0, 40_000],
          [40_100, 60_000],
        ],
      },
      { algorithm: 'sha256', ranges: [[0, 60_000]] },
      {
        algorithm: 'sha256',
        ranges: [
          [0, 40_000],
          [40_100, 60_000],
          [60_000, 60_000],
        ],
      },
      {
        algorithm: 'sha384',
        ranges: [
          [0, 70_000],
          [70_500, bytes.length],
        ],
      },
      {
        algorithm: 'sha256',
        ranges: [
          [0, 70_000],
          [70_500, bytes.length],
        ],
      },
      { algorithm: 'sha512', ranges: [] },
      { algorithm: 'sha256', ranges: [[10, 20]] },
    ];
    const digests = digestRanges(bytes, targets);
    targets.forEach((target, i) =>
      expect(digests[i]!.toString('hex')).toBe(naive(bytes, target).toString('hex')),
    );
  });

  it('agrees with hashing each on its own for random range sets', () => {
    const bytes = randomBytes(5000);
    let seed = 3;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let round = 0; round < 50; round++) {
      const targets: DigestTarget[] = Array.from({ length: 1 + next(6) }, () => {
        const cuts = Array.from({ length: 2 * (1 + next(3)) }, () => next(bytes.length + 1)).sort(
          (a, b) => a - b,
        );
        const ranges: Array<[number, number]> = [];
        for (let i = 0; i < cuts.length; i += 2) ranges.push([cuts[i]!, cuts[i + 1]!]);
        return { algorithm: 'sha256', ranges };
      });
      const digests = digestRanges(bytes, targets);
      targets.forEach((target, i) => expect(digests[i]).toEqual(naive(bytes, target)));
    }
  });

  it('refuses ranges outside the file, descending or overlapping', () => {
    const bytes = new Uint8Array(10);
    for (const ranges of [
      [[0, 11]],
      [[5, 4]],
      [
        [0, 5],
        [4, 8],
      ],
      [[-1, 3]],
    ] as Array<Array<[number, number]>>) {
      expect(() => digestRanges(bytes, [{ algorithm: 'sha256', ranges }])).toThrow(RangeError);
    }
  });
});
