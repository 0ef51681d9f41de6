/**
 * Reading an answer's body with a ceiling. A server (hostile, broken, or a proxy's error page in a loop)
 * may stream without end, declare gigabytes, or send a small gzip that inflates to gigabytes; read whole,
 * any of them fills main's memory. The declared length is checked before a byte is read, then the bytes
 * are counted as they arrive (after decompression, so a bomb counts at its true size), and reading stops,
 * and the connection is dropped, at the first byte past the limit.
 */

/** The answer passed its limit; `limitBytes` is that limit. */
export class AnswerTooLarge extends Error {
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super(`The answer is larger than ${limitBytes} bytes.`);
    this.limitBytes = limitBytes;
  }
}

/** The declared Content-Length, when there is one that is a number. */
function declaredLength(response: Response): number | undefined {
  const header = response.headers.get('content-length');
  if (header === null || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Number(header);
}

/**
 * The body's bytes, in one buffer of their own (so it can be moved to another thread whole), or
 * AnswerTooLarge past `limitBytes`. A failure of the stream (abort, reset) is thrown as it is.
 */
export async function readAnswer(response: Response, limitBytes: number): Promise<Uint8Array> {
  const body = response.body;
  if (body === null) return new Uint8Array(0);
  const declared = declaredLength(response);
  // A declared length may be a lie in either direction: it sizes nothing, it only refuses early.
  if (declared !== undefined && declared > limitBytes) {
    await body.cancel().catch(() => undefined);
    throw new AnswerTooLarge(limitBytes);
  }
  // A fetch body is bytes; Node's types leave its chunks untyped.
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLarge(limitBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1 && chunks[0]?.byteLength === chunks[0]?.buffer.byteLength) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Drops a body nobody will read, so its connection is freed rather than left to drain. */
export function discardAnswer(response: Response): void {
  void response.body?.cancel().catch(() => undefined);
}
