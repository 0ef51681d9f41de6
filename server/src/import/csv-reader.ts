/**
 * CSV records from a stream of bytes, as EPA's exports write them (RFC 4180: fields quoted or not, `""` for a
 * quote inside a quoted field, commas and line breaks inside quotes; CRLF or LF; a UTF-8 byte order mark).
 * Streamed: only the record being read is held, whatever the file's size. Each record keeps its first
 * physical line number and its text as read, for the report of rejected rows.
 *
 * Quoted fields are read with indexOf rather than a character loop: EPA quotes every field, and a native
 * search for the closing quote reads a gigabyte of waste lines several times faster than charCodeAt.
 *
 * Text is UTF-8 unless the file's first character beyond ASCII is not: then it is Windows-1252, as Excel's
 * "CSV (Comma delimited)" saves on a US Windows machine and older exports were written, and read as such to
 * its end (`encoding`). Read as UTF-8, each accented letter of such a file would be lost to U+FFFD.
 */
import { isAscii, isUtf8 } from 'node:buffer';

export interface CsvRecord {
  fields: string[];
  /** The first physical line of the record (1-based). */
  line: number;
  /** The record's text as read, without its line break. */
  raw: string;
  /** Set when the input ended inside a quoted field: the fields are what was read before the end. */
  unterminated?: boolean;
  /**
   * Set when no record ended within MAX_RECORD_CHARS of this line (a quote that never closes, or a line that
   * never ends): `fields` is empty, `raw` holds this line (at most MAX_RECORD_CHARS of it), and reading went
   * on at the next line.
   */
  overlong?: boolean;
}

/**
 * The longest a record may be, in characters, before its first line is given up as broken. EPA's widest rows
 * are a few kilobytes, a quoted field may hold line breaks, and no record of theirs comes near this; without
 * a bound a stray quote in a file of unquoted fields would hold the rest of the file as one record.
 */
export const MAX_RECORD_CHARS = 1024 * 1024;

const QUOTE = 34;
const COMMA = 44;
const CR = 13;
const LF = 10;
const DELIMITER = /[,\r\n]/g;
const LINE_BREAK = /\r\n|\r|\n/g;
const REPLACEMENT = '\uFFFD';
const WINDOWS_1252 = new TextDecoder('windows-1252');

/** How a file's bytes are read: undecided while every byte so far is ASCII, which both read alike. */
export type CsvEncoding = 'undecided' | 'utf-8' | 'windows-1252';

/**
 * Where the complete UTF-8 characters of `bytes` end: a character cut by the chunk's end waits for the
 * next chunk. Decoding whole chunks with Buffer#toString (simdutf) read ~6× faster than StringDecoder
 * (bench:import's profile).
 */
function completeUtf8(bytes: Buffer): number {
  const length = bytes.length;
  // A character is at most 4 bytes: look back past at most 3 continuation bytes for its lead byte.
  for (let back = 1; back <= Math.min(4, length); back += 1) {
    const byte = bytes[length - back] ?? 0;
    if (byte < 0x80) return length;
    if (byte >= 0xc0) {
      const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return size > back ? length - back : length;
    }
  }
  return length;
}

/**
 * UTF-8 when the first character beyond ASCII in `bytes` is (a byte order mark is), Windows-1252 when it is
 * not; undecided while there is none. One character decides, not the whole chunk: a UTF-8 file with a stray
 * byte further on stays UTF-8 (that byte replaced), as it does when the byte comes in a later chunk.
 */
function firstBeyondAscii(bytes: Buffer): CsvEncoding {
  if (isAscii(bytes)) return 'undecided';
  const first = bytes.findIndex((byte) => byte >= 0x80);
  const lead = bytes[first] ?? 0;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return isUtf8(bytes.subarray(first, first + size)) ? 'utf-8' : 'windows-1252';
}

export class CsvParser {
  private text = '';
  private line = 1;
  private started = false;
  /** The rest of a line longer than MAX_RECORD_CHARS is passed over until its line break comes. */
  private skippingLine = false;
  /** Bytes of a character the last chunk cut. */
  private carry: Buffer | undefined;
  /** Decided by the first character beyond ASCII (a byte order mark is one): firstBeyondAscii. */
  private decided: CsvEncoding = 'undecided';

  get encoding(): CsvEncoding {
    return this.decided;
  }

  /** Records completed by this chunk of bytes. */
  push(chunk: Buffer): CsvRecord[] {
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = undefined;
    let decoded = this.decode(bytes);
    if (!this.started && decoded.length > 0) {
      this.started = true;
      if (decoded.charCodeAt(0) === 0xfeff) decoded = decoded.slice(1);
    }
    this.text = this.text.length === 0 ? decoded : this.text + decoded;
    return this.records(false);
  }

  /** The chunk's text; a UTF-8 character it cuts short waits in `carry` for the next chunk. */
  private decode(bytes: Buffer): string {
    if (this.decided === 'windows-1252') return WINDOWS_1252.decode(bytes);
    const end = completeUtf8(bytes);
    if (this.decided === 'undecided') {
      this.decided = firstBeyondAscii(bytes.subarray(0, end));
      if (this.decided === 'windows-1252') return WINDOWS_1252.decode(bytes);
    }
    if (end < bytes.length) this.carry = Buffer.from(bytes.subarray(end));
    return bytes.toString('utf8', 0, end);
  }

  /** The records left at the end of the input, including a last line without a line break. */
  end(): CsvRecord[] {
    if (this.carry) {
      // Bytes a UTF-8 file's end cuts short are not text: one replacement character, as a decoder writes.
      // As the first bytes beyond ASCII, they are not UTF-8.
      if (this.decided === 'undecided') this.decided = 'windows-1252';
      this.text += this.decided === 'utf-8' ? REPLACEMENT : WINDOWS_1252.decode(this.carry);
    }
    this.carry = undefined;
    return this.records(true);
  }

  private records(final: boolean): CsvRecord[] {
    const out: CsvRecord[] = [];
    const text = this.text;
    let position = this.skippingLine ? this.passLine(text) : 0;
    while (position < text.length) {
      const record =
        this.record(text, position, final) ??
        (text.length - position > MAX_RECORD_CHARS ? this.giveUp(text, position) : undefined);
      if (!record) break;
      position = record.next;
      if (record.value) out.push(record.value);
    }
    this.text = position === 0 ? text : text.slice(position);
    return out;
  }

  /** Past the line break ending the line being passed over, or the whole text when it has none yet. */
  private passLine(text: string): number {
    LINE_BREAK.lastIndex = 0;
    const found = LINE_BREAK.exec(text);
    if (!found) return text.length;
    this.skippingLine = false;
    return found.index + found[0].length;
  }

  /**
   * The record starting at `start` is still open after MAX_RECORD_CHARS: its first line is given up as
   * overlong, and reading goes on at the next line (a line longer than the bound is passed over to its end).
   */
  private giveUp(text: string, start: number): { value: CsvRecord; next: number } {
    LINE_BREAK.lastIndex = start;
    const found = LINE_BREAK.exec(text);
    const line = this.line;
    this.line += 1;
    if (found && found.index - start <= MAX_RECORD_CHARS) {
      const value = { fields: [], line, raw: text.slice(start, found.index), overlong: true };
      return { value, next: found.index + found[0].length };
    }
    this.skippingLine = true;
    const value = { fields: [], line, raw: text.slice(start, start + MAX_RECORD_CHARS), overlong: true };
    return { value, next: text.length };
  }

  /**
   * The record starting at `start`, and where the next starts; undefined when the text ends inside it and
   * more may come. A blank line is skipped (no value).
   */
  private record(
    text: string,
    start: number,
    final: boolean,
  ): { value: CsvRecord | undefined; next: number } | undefined {
    const length = text.length;
    if (start >= length) return undefined;
    const fields: string[] = [];
    let position = start;
    for (;;) {
      if (text.charCodeAt(position) === QUOTE) {
        let value = '';
        let from = position + 1;
        for (;;) {
          const close = text.indexOf('"', from);
          if (close < 0 || (close === length - 1 && !final)) {
            if (!final) return undefined;
            fields.push(value + text.slice(from));
            return this.finish(text, start, length, length, fields, true);
          }
          const piece = text.slice(from, close);
          if (text.charCodeAt(close + 1) === QUOTE) {
            value += `${piece}"`;
            from = close + 2;
            continue;
          }
          value += piece;
          position = close + 1;
          break;
        }
        // Anything between the closing quote and the delimiter belongs to the field (lenient, as spreadsheets).
        const code = text.charCodeAt(position);
        if (position < length && code !== COMMA && code !== CR && code !== LF) {
          DELIMITER.lastIndex = position;
          const found = DELIMITER.exec(text);
          const end = found ? found.index : length;
          if (!found && !final) return undefined;
          value += text.slice(position, end);
          position = end;
        }
        fields.push(value);
      } else {
        DELIMITER.lastIndex = position;
        const found = DELIMITER.exec(text);
        if (!found && !final) return undefined;
        const end = found ? found.index : length;
        fields.push(text.slice(position, end));
        position = end;
      }
      if (position >= length) {
        if (!final) return undefined;
        return this.finish(text, start, length, length, fields, false);
      }
      const code = text.charCodeAt(position);
      if (code === COMMA) {
        position += 1;
        if (position >= length && !final) return undefined;
        if (position >= length) {
          fields.push('');
          return this.finish(text, start, length, length, fields, false);
        }
        continue;
      }
      // A line break: CRLF, LF or a lone CR. A CR at the very end of a chunk may be half of a CRLF.
      if (code === CR && position + 1 >= length && !final) return undefined;
      const next = code === CR && text.charCodeAt(position + 1) === LF ? position + 2 : position + 1;
      return this.finish(text, start, position, next, fields, false);
    }
  }

  private finish(
    text: string,
    start: number,
    end: number,
    next: number,
    fields: string[],
    unterminated: boolean,
  ): { value: CsvRecord | undefined; next: number } {
    const line = this.line;
    const raw = text.slice(start, end);
    this.line += countBreaks(raw) + (next > end ? 1 : 0);
    if (fields.length === 1 && fields[0] === '' && !unterminated) return { value: undefined, next };
    const value: CsvRecord = { fields, line, raw };
    if (unterminated) value.unterminated = true;
    return { value, next };
  }
}

/** Line breaks inside a record (in its quoted fields): one scan of the record rather than one per field. */
function countBreaks(record: string): number {
  let count = 0;
  let index = record.indexOf('\n');
  while (index >= 0) {
    count += 1;
    index = record.indexOf('\n', index + 1);
  }
  // Lone CRs (old Mac line breaks) count as lines too; CRLF was counted once by its LF.
  index = record.indexOf('\r');
  while (index >= 0) {
    if (record.charCodeAt(index + 1) !== LF) count += 1;
    index = record.indexOf('\r', index + 1);
  }
  return count;
}

/**
 * The records of a byte stream, in order, as each chunk completes them: one await per chunk rather than per
 * record, which over millions of rows is a measurable share of the read. `parser` tells its encoding.
 */
export async function* csvRecordBatches(
  input: AsyncIterable<Buffer>,
  parser = new CsvParser(),
): AsyncGenerator<CsvRecord[]> {
  for await (const chunk of input) {
    const records = parser.push(chunk);
    if (records.length > 0) yield records;
  }
  const last = parser.end();
  if (last.length > 0) yield last;
}
