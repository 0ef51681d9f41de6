/**
 * Top-level JSON values from a stream of bytes: one object, an array of objects (each element is a value),
 * or JSON lines (values one after another). Streamed: the scanner keeps only the value being read, so a
 * file of a million e-Manifest manifests is read in the memory of one. Each value keeps the line it starts
 * on and its text, for the report.
 */
import { StringDecoder } from 'node:string_decoder';

export interface JsonValue {
  /** The parsed value, or undefined when its text is not valid JSON (`error` says why). */
  value: unknown;
  error?: string;
  line: number;
  raw: string;
}

/**
 * The longest a value may be, in characters, before its first line is given up as broken. One manifest is
 * ~10 KB and one of a thousand waste lines ~2 MB; without a bound a quote or bracket that never closes
 * would hold the rest of the file as one value.
 */
export const MAX_VALUE_CHARS = 16 * 1024 * 1024;

/**
 * How many values of one file may be given up before the rest of it is: each costs a read of up to
 * MAX_VALUE_CHARS again, and a file with many is not JSON that reading on makes sense of.
 */
export const MAX_GIVEN_UP = 16;

const WITHIN = `no value ends within ${MAX_VALUE_CHARS.toLocaleString('en-US')} characters of this line`;
const OVERLONG = `${WITHIN} (a quote or bracket that does not close): the line is rejected and reading goes on at the next`;
const STOPPED = `${WITHIN}, nor of ${MAX_GIVEN_UP} lines before it in this file: the rest of the file, from this line on, is not read`;

const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const LF = 10;

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xfeff;
}

/**
 * Each chunk's text is scanned once, as decoded: the value being read is kept as the pieces each chunk
 * gave it and joined when it ends. (Scanning a value grown by concatenation, chunk after chunk, took V8
 * ~0.5 µs a character: 7.7 s for one value of 17 MB.)
 */
export class JsonValueScanner {
  private readonly decoder = new StringDecoder('utf8');
  /** The text of the value being read that earlier chunks gave, and its length. */
  private pieces: string[] = [];
  private piecesLength = 0;
  /** A value is being read; `scalar`: a bare one (a number, true…), which ends at a separator. */
  private open = false;
  private scalar = false;
  /** The value being read is a string of its own (it began with a quote). */
  private lone = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Inside a top-level array whose elements are the values. */
  private inArray = false;
  private seenTop = false;
  private line = 1;
  private startLine = 1;
  /** The rest of a line longer than MAX_VALUE_CHARS is passed over until its line break comes. */
  private skippingLine = false;
  private givenUp = 0;
  /** Past MAX_GIVEN_UP: the rest of the input is not read. */
  private stopped = false;

  push(chunk: Buffer): JsonValue[] {
    return this.scan(this.decoder.write(chunk));
  }

  end(): JsonValue[] {
    const values = this.scan(this.decoder.end());
    if (this.open) {
      values.push({
        value: undefined,
        error: 'the file ends inside this value',
        line: this.startLine,
        raw: this.pieces.join(''),
      });
      this.forget();
    }
    return values;
  }

  private scan(text: string): JsonValue[] {
    const values: JsonValue[] = [];
    if (this.stopped) return values;
    let position = 0;
    if (this.skippingLine) {
      const lineBreak = text.indexOf('\n');
      if (lineBreak < 0) return values;
      this.skippingLine = false;
      position = lineBreak + 1;
    }
    // Where the value being read starts in `text`: 0 for one an earlier chunk started.
    let start = this.open ? 0 : -1;
    if (this.scalar) {
      const stop = scalarEnd(text, position);
      if (stop < 0) position = text.length;
      else {
        values.push(this.complete(text, start, stop));
        start = -1;
        position = stop;
      }
    }
    while (position < text.length) {
      const code = text.charCodeAt(position);
      if (code === LF) this.line += 1;
      position += 1;
      if (!this.open) {
        if (isSpace(code)) continue;
        if (this.inArray && code === COMMA) continue;
        if (this.inArray && code === CLOSE_ARRAY) {
          this.inArray = false;
          continue;
        }
        if (!this.seenTop && code === OPEN_ARRAY) {
          this.seenTop = true;
          this.inArray = true;
          continue;
        }
        this.seenTop = true;
        this.open = true;
        start = position - 1;
        this.startLine = this.line;
        if (code === OPEN_OBJECT || code === OPEN_ARRAY) this.depth = 1;
        else if (code === QUOTE) {
          this.depth = 1;
          this.inString = true;
          this.lone = true;
        } else {
          // A bare scalar (a number, true…): it runs to the next separator.
          this.scalar = true;
          const stop = scalarEnd(text, position);
          if (stop < 0) break;
          values.push(this.complete(text, start, stop));
          start = -1;
          position = stop;
        }
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) {
          this.inString = false;
          // A top-level string is a value of its own.
          if (this.lone) {
            this.depth = 0;
            values.push(this.complete(text, start, position));
            start = -1;
          }
        }
        continue;
      }
      if (code === QUOTE) this.inString = true;
      else if (code === OPEN_OBJECT || code === OPEN_ARRAY) this.depth += 1;
      else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
        this.depth -= 1;
        if (this.depth === 0) {
          values.push(this.complete(text, start, position));
          start = -1;
        }
      }
    }
    if (this.open) {
      const piece = text.slice(start);
      this.pieces.push(piece);
      this.piecesLength += piece.length;
      if (this.piecesLength > MAX_VALUE_CHARS) values.push(...this.giveUp());
    }
    return values;
  }

  /**
   * The value being read is still open after MAX_VALUE_CHARS: its first line is given up, and what followed
   * it is read again from the next line, as between values (a line longer than the bound is passed over to
   * its end). Past MAX_GIVEN_UP in the file, the rest of it is not read.
   */
  private giveUp(): JsonValue[] {
    const text = this.pieces.join('');
    const startLine = this.startLine;
    this.forget();
    this.givenUp += 1;
    const lineBreak = text.indexOf('\n');
    const raw = text.slice(0, lineBreak >= 0 && lineBreak <= MAX_VALUE_CHARS ? lineBreak : MAX_VALUE_CHARS);
    if (this.givenUp > MAX_GIVEN_UP) {
      this.stopped = true;
      return [{ value: undefined, error: STOPPED, line: startLine, raw }];
    }
    const given: JsonValue = { value: undefined, error: OVERLONG, line: startLine, raw };
    this.line = startLine + 1;
    if (lineBreak < 0) {
      this.skippingLine = true;
      return [given];
    }
    return [given, ...this.scan(text.slice(lineBreak + 1))];
  }

  /** Drops the value being read. */
  private forget(): void {
    this.pieces = [];
    this.piecesLength = 0;
    this.open = false;
    this.scalar = false;
    this.lone = false;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
  }

  /** The value being read, ending at `end` of this chunk's `text` (it starts at `start` of it, or before). */
  private complete(text: string, start: number, end: number): JsonValue {
    const raw = this.pieces.length === 0 ? text.slice(start, end) : this.pieces.join('') + text.slice(0, end);
    const line = this.startLine;
    this.forget();
    try {
      return { value: JSON.parse(raw), line, raw };
    } catch (error) {
      return {
        value: undefined,
        error: `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        line,
        raw,
      };
    }
  }
}

/** Where a bare scalar that goes on at `from` ends, or -1 when the text ends first. */
function scalarEnd(text: string, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (isSpace(code) || code === COMMA || code === CLOSE_ARRAY) return index;
  }
  return -1;
}

/** The values of a byte stream, as each chunk completes them. */
export async function* jsonValueBatches(input: AsyncIterable<Buffer>): AsyncGenerator<JsonValue[]> {
  const scanner = new JsonValueScanner();
  for await (const chunk of input) {
    const values = scanner.push(chunk);
    if (values.length > 0) yield values;
  }
  const last = scanner.end();
  if (last.length > 0) yield last;
}
