/** A file system that fills up: what the export tests use for "full disk". */
import { createWriteStream } from 'node:fs';
import { Writable } from 'node:stream';

/** A disk with `room` bytes left: every write past them fails as the kernel says so. */
export function diskWithRoom(room: number) {
  let used = 0;
  return (path: string) => {
    const real = createWriteStream(path);
    return new Writable({
      write(chunk: Buffer, _encoding, callback) {
        used += chunk.length;
        if (used > room) {
          callback(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
          return;
        }
        real.write(chunk, callback);
      },
      final(callback) {
        real.end(callback);
      },
      destroy(error, callback) {
        real.destroy();
        callback(error);
      },
    });
  };
}
