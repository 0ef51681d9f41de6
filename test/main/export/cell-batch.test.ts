import { describe, expect, it } from 'vitest';
import {
  BATCH_ROWS,
  batchLength,
  batchRows,
  decodeCells,
  encodeCells,
  packCells,
} from '../../../main/src/export/cell-batch.ts';
import type { CellValue } from '../../../main/src/export/cells.ts';

const rows: CellValue[][] = [
  ['000000001JJK', 1234.5, new Date(Date.UTC(2024, 1, 29)), null, 'Yes'],
  ['Générateur Straße — 東京', -0.125, null, '', '😀 emoji, then text'],
  [null, null, null, null, null],
  ['a', 0, new Date(Date.UTC(1900, 0, 1)), Number.MAX_SAFE_INTEGER, 'line one\nline two\ttab'],
];

describe('packed batches of cells', () => {
  it('give back every cell as it was: text, numbers, dates, empty cells and empty text', () => {
    const bytes = encodeCells(rows, 5);
    expect(decodeCells(bytes)).toEqual(rows);
    expect(batchLength(bytes)).toBe(bytes.byteLength);
    expect(batchRows(bytes)).toBe(rows.length);
  });

  it('pack into a buffer of their own, so a message can move it instead of copying it', () => {
    const bytes = encodeCells(rows, 5);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
  });

  it('read back one after another from anywhere in a larger buffer, as the spill file is read', () => {
    const first = encodeCells(rows.slice(0, 2), 5);
    const second = encodeCells(rows.slice(2), 5);
    const file = new Uint8Array(3 + first.byteLength + second.byteLength);
    file.set(first, 3);
    file.set(second, 3 + first.byteLength);
    const at = 3 + batchLength(file.subarray(3));
    expect(decodeCells(file.subarray(3, at))).toEqual(rows.slice(0, 2));
    expect(decodeCells(file.subarray(at, at + batchLength(file.subarray(at))))).toEqual(rows.slice(2));
  });

  it('an empty batch has no rows', () => {
    expect(decodeCells(encodeCells([], 5))).toEqual([]);
  });

  it('split a page into batches of at most BATCH_ROWS rows, in order', () => {
    const many = Array.from({ length: BATCH_ROWS * 2 + 7 }, (_, index): CellValue[] => [
      `row ${index}`,
      index,
    ]);
    const batches = packCells(many, 2);
    expect(batches.map(batchRows)).toEqual([BATCH_ROWS, BATCH_ROWS, 7]);
    expect(batches.flatMap(decodeCells)).toEqual(many);
  });

  it('refuse a batch that was cut short, instead of reading past it', () => {
    const bytes = encodeCells(rows, 5);
    expect(() => decodeCells(bytes.subarray(0, bytes.byteLength - 1))).toThrow(/damaged/);
  });
});
