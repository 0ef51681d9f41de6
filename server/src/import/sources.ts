/**
 * The files an import reads: the paths given, folders walked, zip archives opened entry by entry; each
 * classed as CSV (an EPA table, told by its header) or e-Manifest JSON, and put in the order that lets rows
 * find what they belong to: handlers, then manifests, transporters, waste lines, waste codes, then JSON
 * (which carries whole manifests); or with the manifests after their transporters, waste lines and codes
 * for a run that holds those until their manifest arrives (childrenFirst). Numbered parts
 * (EM_WASTE_LINE_0.csv, _1, …) in number order.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { CsvParser } from './csv-reader.ts';
import { detectLayout, tableOfName, type TableName } from './epa-layouts.ts';
import type { SourceFile } from './model/sink.ts';
import { ZipError, zipEntries, zipEntryStream, type ZipEntry } from './zip.ts';

export type SourceFormat = 'csv' | 'json';

export interface Source extends SourceFile {
  format: SourceFormat;
  /** The table its name says, if any (the header decides when reading). */
  table: TableName | undefined;
  /** Its bytes as stored: a zip entry's compressed size, which is what progress counts. */
  storedBytes: number;
  /**
   * Why it cannot be read at all, where it cannot: a file of another kind in a folder, an archive that does
   * not open. The import reports it as not read, in its summary and its report, and reads the others.
   */
  unreadable?: string;
  open(): Promise<{ stream: Readable; storedBytesRead: () => number }>;
}

export class SourceError extends Error {}

const CSV = new Set(['.csv', '.txt']);
const KINDS = 'not a .csv, .txt, .json, .jsonl, .ndjson or .zip file';
const JSON_EXTENSIONS = new Set(['.json', '.jsonl', '.ndjson']);

const ORDER: readonly TableName[] = [
  'HD_REPORTING',
  'HD_HANDLER',
  'HD_NAICS',
  'EM_MANIFEST',
  'EM_TRANSPORTER',
  'EM_WASTE_LINE',
  'EM_FEDERAL_WASTE_CODE',
];

/** The same with a manifest's tables before it, for a run that holds them until it arrives (sink.ts). */
const CHILDREN_FIRST: readonly TableName[] = [
  'HD_REPORTING',
  'HD_HANDLER',
  'HD_NAICS',
  'EM_TRANSPORTER',
  'EM_WASTE_LINE',
  'EM_FEDERAL_WASTE_CODE',
  'EM_MANIFEST',
];

function formatOf(name: string): SourceFormat | undefined {
  const extension = extname(name).toLowerCase();
  if (CSV.has(extension)) return 'csv';
  if (JSON_EXTENSIONS.has(extension)) return 'json';
  return undefined;
}

function part(name: string): number {
  const match = /(\d+)\.[a-z]+$/i.exec(name);
  return match ? Number(match[1]) : -1;
}

function rank(source: Source, order: readonly TableName[]): number {
  if (source.format === 'json') return order.length + 1;
  const index = source.table ? order.indexOf(source.table) : -1;
  return index < 0 ? order.length : index;
}

/** Sources in reading order: by table, a table's numbered parts in number order, else as found. */
function ordered(sources: readonly Source[], order: readonly TableName[]): Source[] {
  return sources
    .map((source, index) => ({ source, index }))
    .sort(
      (a, b) =>
        rank(a.source, order) - rank(b.source, order) ||
        (a.source.table === b.source.table ? part(a.source.path) - part(b.source.path) : 0) ||
        a.index - b.index,
    )
    .map(({ source }) => source);
}

/**
 * Sources (in discoverSources' order) as a run that holds a manifest's rows until it arrives reads them:
 * transporters, waste lines and waste codes before the manifests, the rest in place.
 */
export function childrenFirst(sources: readonly Source[]): Source[] {
  return ordered(sources, CHILDREN_FIRST);
}

function fileSource(path: string, bytes: number, modified: number, format: SourceFormat): Source {
  const name = basename(path);
  return {
    key: `${path}|${bytes}|${modified}`,
    path,
    bytes,
    storedBytes: bytes,
    format,
    table: format === 'csv' ? tableOfName(name) : undefined,
    open: () => {
      const stream = createReadStream(path, { highWaterMark: 1 << 20 });
      return Promise.resolve({ stream, storedBytesRead: () => stream.bytesRead });
    },
  };
}

function zipSource(path: string, modified: number, entry: ZipEntry, format: SourceFormat): Source {
  return {
    key: `${path}!${entry.name}|${entry.size}|${modified}`,
    path: `${path}!${entry.name}`,
    bytes: entry.size,
    storedBytes: entry.compressedSize,
    format,
    table: format === 'csv' ? tableOfName(entry.name) : undefined,
    open: async () => {
      const opened = await zipEntryStream(path, entry);
      return { stream: opened.stream, storedBytesRead: opened.storedBytesRead };
    },
  };
}

/** A file the import cannot read, listed as not read with the reason: a file source that opens empty. */
function unreadableSource(path: string, bytes: number, modified: number, reason: string): Source {
  return {
    ...fileSource(path, bytes, modified, 'csv'),
    table: undefined,
    unreadable: reason,
    open: () => Promise.resolve({ stream: Readable.from([]), storedBytesRead: () => 0 }),
  };
}

/** The sources at `path`; `inFolder`: found by walking a folder rather than named. */
async function collect(path: string, into: Source[], inFolder: boolean): Promise<void> {
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new SourceError(`no file or folder at ${path}`);
  }
  if (info.isDirectory()) {
    const names = (await readdir(path)).sort();
    for (const name of names) {
      if (name.startsWith('.')) continue;
      await collect(join(path, name), into, true);
    }
    return;
  }
  const modified = Math.round(info.mtimeMs);
  if (extname(path).toLowerCase() === '.zip') {
    let entries: ZipEntry[];
    try {
      entries = await zipEntries(path, info.size);
    } catch (error) {
      if (!(error instanceof ZipError)) throw error;
      into.push(unreadableSource(path, info.size, modified, error.message));
      return;
    }
    for (const entry of entries) {
      const format = formatOf(entry.name);
      if (format) into.push(zipSource(path, modified, entry, format));
    }
    return;
  }
  const format = formatOf(path);
  if (format) into.push(fileSource(path, info.size, modified, format));
  // A folder holds what else came with the data (a data dictionary, a checksum): listed, not read.
  else if (inFolder) into.push(unreadableSource(path, info.size, modified, KINDS));
  else throw new SourceError(`${path}: ${KINDS}`);
}

/** The table a CSV file's header says, for one whose name does not. */
async function peekTable(source: Source): Promise<TableName | undefined> {
  const { stream } = await source.open();
  try {
    const parser = new CsvParser();
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const [header] = parser.push(chunk);
      if (header) {
        const found = detectLayout(source.path, header.fields);
        return 'header' in found ? found.header.layout.table : undefined;
      }
    }
    return undefined;
  } finally {
    stream.destroy();
  }
}

/** Every file the paths name, in reading order. */
export async function discoverSources(paths: readonly string[]): Promise<Source[]> {
  const sources: Source[] = [];
  for (const path of paths) await collect(resolve(path), sources, false);
  if (sources.every((source) => source.unreadable !== undefined)) {
    const unread = sources.map((source) => `\n  ${source.path}: ${source.unreadable ?? ''}`).join('');
    throw new SourceError(
      `nothing to import: ${paths.join(', ')} hold${paths.length === 1 ? 's' : ''} no .csv, .txt, .json, .jsonl, .ndjson or .zip file, nor a zip entry of those kinds${unread}`,
    );
  }
  for (const source of sources) {
    if (source.format === 'csv' && !source.table && source.unreadable === undefined)
      source.table = await peekTable(source);
  }
  const seen = new Set<string>();
  const unique = sources.filter((source) => !seen.has(source.key) && Boolean(seen.add(source.key)));
  return ordered(unique, ORDER);
}
