/**
 * How an export fails, in the user's words. Every module of the export path throws these or a file system's
 * error; export-jobs.ts turns either into the one message the progress panel shows. A module of its own, so
 * the page sources, the threads and the jobs all import it and none of them imports another for it.
 */

/** A failure whose message is for the user as it stands. */
export class ExportFailure extends Error {}

/** The server could not be reached (no network, nothing answering, a timeout) while the rows were read. */
export class NetworkLost extends ExportFailure {}

/** What the user reads when they cancel an export. */
export const CANCELLED_MESSAGE = 'The export was cancelled; no file was written.';

/** What a chunk or page still on its way hears once its export has ended. */
export const ENDED_MESSAGE = 'The export has ended.';

/**
 * Rows past the total the first page gave: a server whose pages never end, or data that changed under the
 * export. Either way the file would not be the query's rows as counted at its start.
 */
export function moreRowsThanCounted(total: number): string {
  return `The rows kept coming past the ${total.toLocaleString('en-US')} counted when the export started, so it stopped; no file was written. Export again; if this happens again, the server is at fault.`;
}

/**
 * Why an export failed, in the user's words: its own message, a cancel's, or a file-system failure with the
 * target named so they know which file is meant.
 */
export function failureMessage(error: unknown, target: string): string {
  if (error instanceof ExportFailure) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOSPC':
      return `The disk is full; ${target} was not written. Free some space and export again.`;
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `There is no permission to write ${target}; choose another folder.`;
    case 'ENOENT':
      return `The folder of ${target} does not exist any more; choose another.`;
    case 'ENOTDIR':
      return `The folder of ${target} is not a folder; choose another.`;
    case 'EISDIR':
      return `${target} is a folder; choose a file name.`;
    default:
      return `The export could not be written to ${target}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
