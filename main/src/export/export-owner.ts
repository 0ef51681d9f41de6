/**
 * An export belongs to the session that started it: the server and user whose rows it writes and whose
 * name its Query sheet gives. Signing out ends it (the file is not written); a sign-in as someone else, or
 * to another server, fails it, so one user's export never goes on with another's token into a file the
 * first user chose. A session that only expired keeps its exports waiting: the same user signing in again
 * on the same server carries them on.
 */
import { sessionUser, type EventPayload, type SessionStatus } from '../../../shared/ipc/contract.ts';
import { sameServer } from '../../../shared/ipc/server-address.ts';

/** The server and user an export belongs to. */
export interface ExportOwner {
  baseUrl: string;
  username: string;
}

export const OWNER_MESSAGES = {
  signedOut: 'You signed out, so the export stopped; no file was written.',
  otherSession: (owner: ExportOwner, now: { baseUrl: string; username?: string | undefined }) =>
    sameServer(owner.baseUrl, now.baseUrl)
      ? `${now.username ?? 'Another user'} signed in, so the export for ${owner.username} stopped; no file was written.`
      : `The app signed in to ${now.baseUrl}, so the export from ${owner.baseUrl} stopped; no file was written.`,
  noOwner: 'Sign in to export: an export belongs to the user who starts it.',
} as const;

/** Whether `status` is the owner's session, online or on this computer alone. */
export function isOwnerSession(owner: ExportOwner, status: SessionStatus): boolean {
  const user = sessionUser(status);
  return user?.username === owner.username && sameServer(user.baseUrl, owner.baseUrl);
}

/** Why a session change ends an export of `owner`, in the user's words; undefined when it goes on. */
export function endedBy(owner: ExportOwner, change: EventPayload<'session.changed'>): string | undefined {
  switch (change.reason) {
    case 'expired':
      return undefined;
    case 'signed-out':
      return OWNER_MESSAGES.signedOut;
    case 'signed-in':
      return isOwnerSession(owner, change.status)
        ? undefined
        : OWNER_MESSAGES.otherSession(owner, change.status);
  }
}

/**
 * Why the session in `status` may not fetch the owner's next page, or undefined when it may: signed in as
 * the owner, or signed in as nobody (an expired session, which waits for its user to sign in again).
 */
export function refusedSession(owner: ExportOwner, status: SessionStatus): string | undefined {
  if (!status.signedIn || isOwnerSession(owner, status)) return undefined;
  return OWNER_MESSAGES.otherSession(owner, status);
}
