/**
 * Who may call main: only the main frame of our own window, showing one of our own pages. A subframe, a
 * different window, or our window after it somehow navigated elsewhere is a foreign sender.
 */
import { originOf } from '../security/policy.ts';

/** The parts of Electron's WebFrameMain this check reads. */
export interface FrameLike {
  readonly url: string;
  readonly processId: number;
  readonly routingId: number;
}

function sameFrame(a: FrameLike, b: FrameLike): boolean {
  return a === b || (a.processId === b.processId && a.routingId === b.routingId);
}

export function isTrustedSender(
  senderFrame: FrameLike | null | undefined,
  mainFrame: FrameLike | null | undefined,
  allowedOrigins: readonly string[],
): boolean {
  if (!senderFrame || !mainFrame) return false;
  try {
    if (!sameFrame(senderFrame, mainFrame)) return false;
    const origin = originOf(senderFrame.url);
    return origin !== undefined && allowedOrigins.includes(origin);
  } catch {
    // A frame destroyed while its message was in flight throws on access; it cannot be trusted.
    return false;
  }
}
