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

export class JsonStreamError extends Error {}

/** One manifest is ~10 KB; a "value" past this is a file that is not what it claims. */
const MAX_VALUE_CHARS = 64 * 1024 * 1024;

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

export class JsonValueScanner {
  private readonly decoder = new StringDecoder('utf8');
  private text = '';
  /** Where scanning resumes in `text`. */
  private position = 0;
  /** Start of the value being read in `text`, or -1 between values. */
  private start = -1;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Inside a top-level array whose elements are the values. */
  private inArray = false;
  private seenTop = false;
  private line = 1;
  private startLine = 1;

  push(chunk: Buffer): JsonValue[] {
    this.text += this.decoder.write(chunk);
    return this.scan();
  }

  end(): JsonValue[] {
    this.text += this.decoder.end();
    const values = this.scan();
    if (this.start >= 0) {
      const raw = this.text.slice(this.start);
      values.push({ value: undefined, error: 'the file ends inside this value', line: this.startLine, raw });
      this.start = -1;
    }
    return values;
  }

  private scan(): JsonValue[] {
    const values: JsonValue[] = [];
    const text = this.text;
    let position = this.position;
    while (position < text.length) {
      const code = text.charCodeAt(position);
      if (code === LF) this.line += 1;
      if (this.start < 0) {
        position += 1;
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
        this.start = position - 1;
        this.startLine = this.line;
        if (code === OPEN_OBJECT || code === OPEN_ARRAY) this.depth = 1;
        else if (code === QUOTE) {
          this.depth = 1;
          this.inString = true;
        } else {
          // A bare scalar: runs to the next separator.
          this.depth = 0;
          const stop = this.scalarEnd(text, position);
          if (stop < 0) break;
          values.push(this.complete(text, stop));
          position = stop;
        }
        continue;
      }
      position += 1;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) {
          this.inString = false;
          if (this.depth === 1 && text.charCodeAt(this.start) === QUOTE) {
            this.depth = 0;
            values.push(this.complete(text, position));
          }
        }
        continue;
      }
      if (code === QUOTE) this.inString = true;
      else if (code === OPEN_OBJECT || code === OPEN_ARRAY) this.depth += 1;
      else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
        this.depth -= 1;
        if (this.depth === 0) values.push(this.complete(text, position));
      }
    }
    if (this.start >= 0) {
      if (position - this.start > MAX_VALUE_CHARS) {
        throw new JsonStreamError(
          `line ${this.startLine}: a JSON value longer than ${MAX_VALUE_CHARS} characters; is this a manifest file?`,
        );
      }
      this.text = text.slice(this.start);
      this.position = position - this.start;
      this.start = 0;
    } else {
      this.text = '';
      this.position = 0;
    }
    return values;
  }

  private scalarEnd(text: string, from: number): number {
    for (let index = from; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (isSpace(code) || code === COMMA || code === CLOSE_ARRAY) return index;
    }
    return -1;
  }

  private complete(text: string, end: number): JsonValue {
    const raw = text.slice(this.start, end);
    this.start = -1;
    try {
      return { value: JSON.parse(raw), line: this.startLine, raw };
    } catch (error) {
      return {
        value: undefined,
        error: `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        line: this.startLine,
        raw,
      };
    }
  }
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
