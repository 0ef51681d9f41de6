/**
 * File names built from data (a generator's EPA ID, which the server sends and only length-checks) made safe
 * to hand to a file system or a save dialog. A hostile server may send `/../../home/u/.bashrc`, `CON`, a
 * right-to-left override that disguises the extension, or 40 control characters: whatever it sends, the
 * name is one plain base name in the folder the user (or the bridge) chose, with our extension.
 */
import { basename, dirname, resolve } from 'node:path';

/**
 * Bytes of a name at most. Most file systems allow 255 bytes; the temporary file beside the target adds a
 * dot, a random part and `.part` (about 15 bytes), and some tools choke before 255.
 */
export const FILE_NAME_BYTES_MAX = 200;

/**
 * Characters no name keeps: controls (C0, DEL, C1), format characters (bidi overrides and isolates,
 * zero-width joiners), line and paragraph separators, lone surrogates and the noncharacters U+FFFE/U+FFFF.
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  /[\u0000-\u001f\u007f-\u009f\p{Cf}\u2028\u2029\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

/** Separators and the characters Windows reserves in a name. */
const RESERVED = /[/\\:*?"<>|]/g;

/** Names Windows keeps for devices, with or without an extension ("CON.xlsx" opens the console). */
const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** `text` cut to at most `bytes` bytes of UTF-8, never inside a character. */
function cutToBytes(text: string, bytes: number): string {
  let cut = '';
  let used = 0;
  for (const character of text) {
    const size = utf8Bytes(character);
    if (used + size > bytes) break;
    cut += character;
    used += size;
  }
  return cut;
}

/**
 * `stem` (which may carry anything a server sent) as a safe base name with `extension` (ours, e.g. "xlsx"):
 * no separators or reserved characters (each becomes "_"), no invisible characters, no runs of dots, no
 * leading or trailing dots and spaces, no device name, at most FILE_NAME_BYTES_MAX bytes. A stem with nothing
 * left becomes `fallback`.
 */
export function safeFileName(stem: string, extension: string, fallback = 'Export'): string {
  let clean = stem
    .normalize('NFC')
    .replace(/\s+/gu, ' ')
    .replace(INVISIBLE, '')
    .replace(RESERVED, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[\s.]+|[\s.]+$/gu, '');
  const device = clean.split('.')[0]?.trimEnd() ?? '';
  if (DEVICE.test(device)) clean = `_${clean}`;
  const suffix = `.${extension}`;
  clean = cutToBytes(clean, FILE_NAME_BYTES_MAX - utf8Bytes(suffix)).replace(/[\s.]+$/u, '');
  return `${clean === '' ? fallback : clean}${suffix}`;
}

/**
 * The path of `name` directly inside `folder`; throws when it would be anywhere else (a name with a
 * separator, `..`, or one the platform resolves elsewhere). The last check before a file is created in a
 * folder the app chose, whatever made the name.
 */
export function fileInFolder(folder: string, name: string): string {
  const inside = resolve(folder);
  const path = resolve(inside, name);
  if (dirname(path) !== inside || basename(path) !== name || name === '.' || name === '..')
    throw new Error(`The file name ${JSON.stringify(name)} would leave the folder ${inside}.`);
  return path;
}
