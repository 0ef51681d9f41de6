/**
 * What the signed-in user may read, so a view that can only fail says why instead of trying: a workspace
 * without its permission shows one explanation, and Export or "Make available offline" are not offered
 * where the server would refuse them. The sign-in answer names the user's scopes when the server tells
 * them (this server does; the spec has no permission model, so another server may not); a 403 the server
 * gives this session teaches the rest.
 */
import { create } from 'zustand';
import type { Scope } from '../../../shared/api/index.ts';
import { sessionUser, type SessionStatus } from '../../../shared/ipc/contract.ts';
import { useSession } from './session.ts';

/** `unknown`: the server did not say, and has not refused yet. */
export type Access = 'granted' | 'denied' | 'unknown';

type PermissionsState = {
  /** The scopes a server refused, by session (server and user), so the next user starts afresh. */
  refused: Readonly<Record<string, readonly Scope[]>>;
};

export const usePermissions = create<PermissionsState>()(() => ({ refused: {} }));

function sessionKey(status: SessionStatus | null): string | undefined {
  const user = sessionUser(status);
  return user ? `${user.baseUrl}\n${user.username}` : undefined;
}

/** The server refused this session a request that needs `scope` (a 403). */
export function scopeRefused(scope: Scope): void {
  const key = sessionKey(useSession.getState().status);
  if (!key) return;
  const { refused } = usePermissions.getState();
  const known = refused[key] ?? [];
  if (!known.includes(scope)) usePermissions.setState({ refused: { ...refused, [key]: [...known, scope] } });
}

export function accessOf(
  status: SessionStatus | null,
  refused: PermissionsState['refused'],
  scope: Scope,
): Access {
  const key = sessionKey(status);
  if (key && refused[key]?.includes(scope)) return 'denied';
  if (!status?.scopes) return 'unknown';
  return status.scopes.includes(scope) ? 'granted' : 'denied';
}

/** Whether this session may read what `scope` guards, as far as the app knows. */
export function useAccess(scope: Scope): Access {
  const status = useSession((state) => state.status);
  const refused = usePermissions((state) => state.refused);
  return accessOf(status, refused, scope);
}
