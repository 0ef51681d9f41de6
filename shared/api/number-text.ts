/**
 * Numbers as the spec's samples send them, as text with grouping commas and a leading space (spec 2.1,
 * 2.4): " 1,234.56". Apart from wire.ts's schemas, so a reader that needs only this (an export's reader
 * thread) does not load zod: every module a worker thread loads is paid for again in its own memory.
 */
const NUMBER_TEXT = /^[+-]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;

/** The number in "1234" or " 1,234.56" as tolerantNumber reads it; undefined for any other text. */
export function numberFromText(value: string): number | undefined {
  const text = value.trim();
  return NUMBER_TEXT.test(text) ? Number(text.replaceAll(',', '')) : undefined;
}
