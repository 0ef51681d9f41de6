/**
 * Finished exports behind the bridge, each waiting in a folder of its own (downloads/<uuid>/) until the page
 * fetches it. A download is offered once: it is streamed from disk, never read whole (a workbook of
 * 1,000,000 manifests is about 300 MB, and read whole it grew the process by as much), and its folder is
 * removed as soon as it has been sent. Whatever an earlier run left (a page that never fetched its file, a
 * bridge that was killed) is removed at start, and what waits for a user is removed with their data.
 */
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export class BridgeDownloads {
  readonly folder: string;
  private readonly files = new Map<string, string>();

  constructor(userDataDir: string) {
    this.folder = join(userDataDir, 'downloads');
  }

  /** Removes every download an earlier run left; call before the first export. */
  async sweep(): Promise<void> {
    await rm(this.folder, { recursive: true, force: true });
    await mkdir(this.folder, { recursive: true });
  }

  /** A finished export, `path` in its own folder of `folder`, waiting to be fetched once. */
  add(id: string, path: string): void {
    this.files.set(id, path);
  }

  /** Streams the download `id` once, as an attachment named as main wrote it, then removes it; 404 if none. */
  async serve(response: ServerResponse, id: string): Promise<void> {
    const path = this.files.get(id);
    this.files.delete(id);
    if (path === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      response.end('No such download');
      return;
    }
    const name = basename(path);
    try {
      const { size } = await stat(path);
      response.writeHead(200, {
        'content-type': name.endsWith('.csv') ? 'text/csv; charset=utf-8' : XLSX_TYPE,
        'content-length': String(size),
        'content-disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      // A page that goes away mid-download ends the stream; the file goes all the same.
      await pipeline(createReadStream(path), response).catch(() => undefined);
    } finally {
      await this.removeFolderOf(path);
    }
  }

  /** An export that ended without a file: the folder made for it goes. */
  async discard(target: string): Promise<void> {
    await this.removeFolderOf(target);
  }

  /** Removes every download not yet fetched (the user removed their data). */
  async removeAll(): Promise<void> {
    const paths = [...this.files.values()];
    this.files.clear();
    await Promise.all(paths.map((path) => this.removeFolderOf(path)));
  }

  private async removeFolderOf(path: string): Promise<void> {
    const folder = dirname(path);
    // Only a download's own folder, directly inside the downloads folder.
    if (dirname(folder) === this.folder) await rm(folder, { recursive: true, force: true });
  }
}
