/**
 * The entries of a zip file, each read as a stream: EPA ships every table zipped (EM_WASTE_LINE.zip holds
 * EM_WASTE_LINE_0.csv, _1, …). Reads the central directory (ZIP64 included: a national waste-line table
 * passes 4 GB unpacked), then inflates one entry at a time from its offset, so memory stays that of one
 * inflate stream whatever the archive's size. Stored and deflated entries only, which is what zip tools
 * write; anything else is refused with its method named.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

export interface ZipEntry {
  name: string;
  compressedSize: number;
  size: number;
  method: number;
  /** Offset of the entry's local header. */
  headerOffset: number;
}

export class ZipError extends Error {}

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const MAX_U32 = 0xffffffff;

async function readAt(path: string, position: number, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The archive's entries, in directory order (folders left out). */
export async function zipEntries(path: string, fileSize: number): Promise<ZipEntry[]> {
  // The end record sits in the last 22 bytes plus a comment of at most 65,535.
  const tailLength = Math.min(fileSize, 22 + 65_535);
  const tail = await readAt(path, fileSize - tailLength, tailLength);
  let end = -1;
  for (let index = tail.length - 22; index >= 0; index -= 1) {
    if (tail.readUInt32LE(index) === END_OF_DIRECTORY) {
      end = index;
      break;
    }
  }
  if (end < 0)
    throw new ZipError(`${path} is not a zip file, or one cut short (no end of central directory)`);
  let count = tail.readUInt16LE(end + 10);
  let directorySize = tail.readUInt32LE(end + 12);
  let directoryOffset = tail.readUInt32LE(end + 16);
  const locator = end - 20;
  if (locator >= 0 && tail.readUInt32LE(locator) === ZIP64_LOCATOR) {
    const zip64Offset = Number(tail.readBigUInt64LE(locator + 8));
    const record = await readAt(path, zip64Offset, 56);
    if (record.readUInt32LE(0) !== ZIP64_END) throw new ZipError(`${path}: damaged ZIP64 directory`);
    count = Number(record.readBigUInt64LE(32));
    directorySize = Number(record.readBigUInt64LE(40));
    directoryOffset = Number(record.readBigUInt64LE(48));
  }
  const directory = await readAt(path, directoryOffset, directorySize);
  const entries: ZipEntry[] = [];
  let position = 0;
  for (let index = 0; index < count; index += 1) {
    if (directory.readUInt32LE(position) !== DIRECTORY_ENTRY) {
      throw new ZipError(`${path}: damaged central directory at entry ${index + 1}`);
    }
    const method = directory.readUInt16LE(position + 10);
    let compressedSize = directory.readUInt32LE(position + 20);
    let size = directory.readUInt32LE(position + 24);
    const nameLength = directory.readUInt16LE(position + 28);
    const extraLength = directory.readUInt16LE(position + 30);
    const commentLength = directory.readUInt16LE(position + 32);
    let headerOffset = directory.readUInt32LE(position + 42);
    const name = directory.toString('utf8', position + 46, position + 46 + nameLength);
    // ZIP64 extra field: the 64-bit values of those that read 0xFFFFFFFF, in this order.
    let extra = position + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = directory.readUInt16LE(extra);
      const length = directory.readUInt16LE(extra + 2);
      if (id === 0x0001) {
        let field = extra + 4;
        if (size === MAX_U32) {
          size = Number(directory.readBigUInt64LE(field));
          field += 8;
        }
        if (compressedSize === MAX_U32) {
          compressedSize = Number(directory.readBigUInt64LE(field));
          field += 8;
        }
        if (headerOffset === MAX_U32) headerOffset = Number(directory.readBigUInt64LE(field));
      }
      extra += 4 + length;
    }
    if (!name.endsWith('/')) entries.push({ name, compressedSize, size, method, headerOffset });
    position = extraEnd + commentLength;
  }
  return entries;
}

/** The entry's bytes, unpacked, as a stream, and how many stored (compressed) bytes it has read so far. */
export async function zipEntryStream(
  path: string,
  entry: ZipEntry,
): Promise<{ stream: Readable; storedBytesRead: () => number }> {
  const header = await readAt(path, entry.headerOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_HEADER) {
    throw new ZipError(`${path}: damaged local header for ${entry.name}`);
  }
  if (entry.method !== 0 && entry.method !== 8) {
    throw new ZipError(
      `${path}: ${entry.name} uses compression method ${entry.method}; only deflate is read`,
    );
  }
  if (entry.compressedSize === 0) return { stream: Readable.from([]), storedBytesRead: () => 0 };
  const start = entry.headerOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const raw = createReadStream(path, {
    start,
    end: start + entry.compressedSize - 1,
    highWaterMark: 1 << 20,
  });
  const storedBytesRead = () => raw.bytesRead;
  if (entry.method === 0) return { stream: raw, storedBytesRead };
  const inflate = createInflateRaw({ chunkSize: 1 << 20 });
  raw.on('error', (error) => inflate.destroy(error));
  return { stream: raw.pipe(inflate), storedBytesRead };
}
