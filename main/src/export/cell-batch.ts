/**
 * Rows of cells packed into one buffer: how an export's reader thread hands a page to its writer thread,
 * and how waste lines wait on disk while the first sheet is written. A message that carries cells as
 * arrays is cloned cell by cell, and cells as JSON text are parsed again; a buffer is moved between
 * threads for nothing and read back with a few typed-array views and one text decode.
 *
 * Layout, in this order: a header of six 32-bit words (the batch's length in bytes, rows, columns, how
 * many number and text cells, the text's length in bytes), the number cells as 64-bit floats (a date as
 * its time value), where each text cell ends in the text (32-bit), each cell's kind (a byte), and every
 * text cell's characters as one UTF-8 text. The length comes first, so batches written one after another
 * can be read back one at a time.
 */
import type { CellValue } from './cells.ts';

const HEADER_WORDS = 6;
const HEADER_BYTES = HEADER_WORDS * 4;

const EMPTY = 0;
const NUMBER = 1;
const DATE = 2;
const TEXT = 3;

/** Bytes of a batch's header, which starts with the batch's length in bytes. */
export const BATCH_HEADER_BYTES = HEADER_BYTES;

/** The length in bytes of the batch whose header starts `bytes`. */
export function batchLength(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
}

/** How many rows the batch in `bytes` holds. */
export function batchRows(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset + 4, 4).getUint32(0, true);
}

/**
 * Rows per batch. A batch's text is decoded as one string; past 128 KB V8 puts a string in its large-object
 * space, which only a full collection frees, and 100 rows of the widest sheet stay well under that.
 */
export const BATCH_ROWS = 100;

/** A page packed for the writer: its rows' batches and, for a Waste lines sheet, its waste lines'. */
export interface PackedPage {
  totalElements: number;
  rowBatches: Uint8Array[];
  lineBatches: Uint8Array[];
}

/** Rows of `columns` cells each, packed BATCH_ROWS at a time. */
export function packCells(rows: readonly (readonly CellValue[])[], columns: number): Uint8Array[] {
  const batches: Uint8Array[] = [];
  for (let start = 0; start < rows.length; start += BATCH_ROWS)
    batches.push(encodeCells(rows.slice(start, start + BATCH_ROWS), columns));
  return batches;
}

/** Packs rows of `columns` cells each into one buffer of its own (so it can be moved to another thread). */
export function encodeCells(rows: readonly (readonly CellValue[])[], columns: number): Uint8Array {
  let numbers = 0;
  const texts: string[] = [];
  const kinds = new Uint8Array(rows.length * columns);
  for (let row = 0; row < rows.length; row += 1) {
    const cells = rows[row] as readonly CellValue[];
    for (let column = 0; column < columns; column += 1) {
      const cell = cells[column] ?? null;
      const at = row * columns + column;
      if (cell === null) kinds[at] = EMPTY;
      else if (typeof cell === 'number') {
        kinds[at] = NUMBER;
        numbers += 1;
      } else if (typeof cell === 'string') {
        kinds[at] = TEXT;
        texts.push(cell);
      } else {
        kinds[at] = DATE;
        numbers += 1;
      }
    }
  }
  const text = texts.join('');
  const textBytes = Buffer.byteLength(text, 'utf8');
  const numbersAt = HEADER_BYTES;
  const endsAt = numbersAt + numbers * 8;
  const kindsAt = endsAt + texts.length * 4;
  const textAt = kindsAt + kinds.length;
  const length = textAt + textBytes;

  const bytes = new Uint8Array(length);
  new Uint32Array(bytes.buffer, 0, HEADER_WORDS).set([
    length,
    rows.length,
    columns,
    numbers,
    texts.length,
    textBytes,
  ]);
  const numberCells = new Float64Array(bytes.buffer, numbersAt, numbers);
  let number = 0;
  for (let row = 0; row < rows.length; row += 1) {
    const cells = rows[row] as readonly CellValue[];
    for (let column = 0; column < columns; column += 1) {
      const cell = cells[column];
      if (typeof cell === 'number') numberCells[number++] = cell;
      else if (cell instanceof Date) numberCells[number++] = cell.getTime();
    }
  }
  const ends = new Uint32Array(bytes.buffer, endsAt, texts.length);
  let end = 0;
  for (let index = 0; index < texts.length; index += 1) {
    end += (texts[index] as string).length;
    ends[index] = end;
  }
  bytes.set(kinds, kindsAt);
  Buffer.from(bytes.buffer, textAt, textBytes).write(text, 'utf8');
  return bytes;
}

/** The rows of a batch made by encodeCells; `bytes` may start anywhere in its buffer. */
export function decodeCells(bytes: Uint8Array): CellValue[][] {
  // The typed-array views need their offsets aligned: a batch read from a larger buffer is copied first.
  const batch = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
  const { buffer, byteOffset } = batch;
  const header = new Uint32Array(buffer, byteOffset, HEADER_WORDS);
  const length = header[0] ?? 0;
  const rowCount = header[1] ?? 0;
  const columns = header[2] ?? 0;
  const numbers = header[3] ?? 0;
  const textCount = header[4] ?? 0;
  const textBytes = header[5] ?? 0;
  const numbersAt = byteOffset + HEADER_BYTES;
  const endsAt = numbersAt + numbers * 8;
  const kindsAt = endsAt + textCount * 4;
  const textAt = kindsAt + rowCount * columns;
  if (length > batch.byteLength || textAt + textBytes !== byteOffset + length)
    throw new Error('A batch of cells is damaged: its parts do not add up to its length.');
  const numberCells = new Float64Array(buffer, numbersAt, numbers);
  const ends = new Uint32Array(buffer, endsAt, textCount);
  const kinds = new Uint8Array(buffer, kindsAt, rowCount * columns);
  const text = Buffer.from(buffer, textAt, textBytes).toString('utf8');

  const rows = new Array<CellValue[]>(rowCount);
  let number = 0;
  let textIndex = 0;
  let start = 0;
  for (let row = 0; row < rowCount; row += 1) {
    const cells = new Array<CellValue>(columns);
    for (let column = 0; column < columns; column += 1) {
      const kind = kinds[row * columns + column];
      if (kind === NUMBER) cells[column] = numberCells[number++] as number;
      else if (kind === DATE) cells[column] = new Date(numberCells[number++] as number);
      else if (kind === TEXT) {
        const end = ends[textIndex++] as number;
        cells[column] = text.slice(start, end);
        start = end;
      } else cells[column] = null;
    }
    rows[row] = cells;
  }
  return rows;
}
