/**
 * The signed-in session. The token lives here, in main's memory, and (only if the user asks to stay signed
 * in) encrypted on disk through the token store. It is sent only to the server that issued it, and it never
 * appears in a result, an event or a message: the renderer learns who is signed in, never with what.
 */
import type { z } from 'zod';
import type { Scope } from '../../../shared/api/index.ts';
import {
  outOfReach,
  type ConnectionCheck,
  type EventName,
  type EventPayload,
  type Result,
  type SessionStatus,
  type SignInInput,
} from '../../../shared/ipc/contract.ts';
import type { ApiClient, ApiRequest } from '../api/client.ts';
import { endpoints } from '../api/endpoints.ts';
import { MESSAGES } from '../../../shared/ipc/messages.ts';
import { failure, success } from '../api/errors.ts';
import { checkServer, probeServer } from '../settings/connection-check.ts';
import type { SettingsStore } from '../settings/settings-store.ts';
import type { OfflineSignIns, OfflineUser } from './offline-sign-ins.ts';
import { ENCRYPTION_UNAVAILABLE_MESSAGE, type TokenStore } from './token-store.ts';
import { PLAIN_HTTP_MESSAGES, plainHttpAllowed, plainHttpOrigin } from '../../../shared/ipc/plain-http.ts';

export type EmitEvent = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface SessionDeps {
  client: ApiClient;
  tokens: TokenStore;
  offlineSignIns: OfflineSignIns;
  settings: SettingsStore;
  emit: EmitEvent;
  now?: () => number;
  /** Where problems the user did not ask about go (a failed revocation, an unreadable saved sign-in). */
  log?: (message: string) => void;
}

export interface Session {
  status(): SessionStatus;
  /**
   * The server and user whose work this is: the signed-in user, the one signed in on this computer alone, or
   * the one whose session expired until someone signs in or out. Long work (an export) belongs to them.
   */
  owner(): { baseUrl: string; username: string } | undefined;
  /**
   * `signal` is the caller's: when it aborts (the user cancelled), the sign-in answers `cancelled` at once, and
   * an answer that comes after signs nobody in (its token is revoked). When the server cannot be reached
   * (or `input.offline` asks not to try), the password is checked against the one this user last signed in
   * with here, and a match opens their saved data alone (SessionStatus `offline`).
   */
  signIn(input: SignInInput, signal?: AbortSignal): Promise<Result<SessionStatus>>;
  /**
   * Ends the session here at once; the server's revocation of the token goes on without it (a server that
   * hangs must not keep the user waiting), and a failure there is only logged.
   * `removeData`: the event tells the renderer to remove the user's saved data as well.
   */
  signOut(options?: { removeData?: boolean }): Promise<Result<SessionStatus>>;
  /** Picks up a remembered sign-in at start-up, if it is for the current server and not expired. */
  restore(): Promise<void>;
  /**
   * Calls an endpoint with the session's token; a 401 ends the session as expired. `signal` is the caller's:
   * when it aborts, the call answers `cancelled` and its fetch stops.
   */
  call<Schema extends z.ZodType>(
    request: ApiRequest<Schema>,
    signal?: AbortSignal,
  ): Promise<Result<z.output<Schema>>>;
  /** The server address changed: a token must never be sent to a server other than the one that issued it. */
  serverChanged(baseUrl: string): Promise<void>;
  /** Whether a tracker API answers at `baseUrl`, without signing in or changing anything. */
  checkServer(baseUrl: string): Promise<Result<ConnectionCheck>>;
  /** Whether the session's server (or, signed out, the settings' one) answers at all, within a short time. */
  probe(): Promise<Result<null>>;
}

interface ActiveSession {
  baseUrl: string;
  username: string;
  scopes: Scope[] | undefined;
  token: string;
  expiresAt: number;
  remembered: boolean;
}

/**
 * Whose session this is: signed in to the server (with a token), signed in on this computer alone (the
 * user's saved data open, no token), expired (its owner kept until someone signs in or out, so that work
 * waiting for them can go on), or nobody's.
 */
type SessionState =
  | { kind: 'signed-out' }
  | { kind: 'signed-in'; session: ActiveSession }
  | { kind: 'offline'; user: OfflineUser }
  | { kind: 'expired'; owner: { baseUrl: string; username: string } };

const SIGNED_OUT: SessionState = { kind: 'signed-out' };

const { signInFirst: SIGN_IN_FIRST, sessionExpired: EXPIRED, wrongCredentials: WRONG_CREDENTIALS } = MESSAGES;

export function createSession(deps: SessionDeps): Session {
  const { client, tokens, offlineSignIns, settings, emit } = deps;
  const now = deps.now ?? Date.now;
  const log = deps.log ?? ((message: string) => console.warn(message));
  let state: SessionState = SIGNED_OUT;

  /** The session signed in to the server, if any: the one whose token calls carry. */
  const active = (): ActiveSession | undefined => (state.kind === 'signed-in' ? state.session : undefined);
  /** The user whose data is open, signed in to the server or on this computer alone. */
  const user = (): OfflineUser | undefined =>
    state.kind === 'signed-in' ? state.session : state.kind === 'offline' ? state.user : undefined;

  function status(): SessionStatus {
    switch (state.kind) {
      case 'signed-in': {
        const { username, scopes, baseUrl, remembered } = state.session;
        return { signedIn: true, username, ...(scopes ? { scopes } : {}), baseUrl, remembered };
      }
      case 'offline': {
        const { baseUrl, username, scopes } = state.user;
        return { signedIn: false, offline: true, username, ...(scopes ? { scopes } : {}), baseUrl };
      }
      case 'expired':
      case 'signed-out':
        return { signedIn: false, baseUrl: settings.get().apiBaseUrl };
    }
  }

  async function forgetSavedSignIn(): Promise<void> {
    await tokens
      .clear()
      .catch((error: unknown) => log(`The saved sign-in could not be deleted: ${String(error)}`));
  }

  async function forgetOfflineSignIn(baseUrl: string, username: string): Promise<void> {
    await offlineSignIns
      .forget(baseUrl, username)
      .catch((error: unknown) => log(`The offline sign-in could not be deleted: ${String(error)}`));
  }

  /** Makes the server a sign-in went to (online or on this computer alone) the settings' server. */
  async function keepServerAddress(baseUrl: string): Promise<void> {
    if (baseUrl === settings.get().apiBaseUrl) return;
    const saved = await settings.update({ apiBaseUrl: baseUrl }).catch((error: unknown) => {
      log(`The server address could not be saved: ${String(error)}`);
      return undefined;
    });
    if (saved && !saved.ok) log(`The server address could not be saved: ${saved.message}`);
  }

  /**
   * Opens the saved data of the user whose password matches the one they last signed in with here; the
   * session in place, if any, ends as a sign-in as another would end it. `unanswered`: the server's own
   * failure, told instead when nothing is kept for this user (an automatic attempt must not hide why).
   */
  async function signInOffline(
    baseUrl: string,
    input: SignInInput,
    unanswered?: Result<SessionStatus>,
  ): Promise<Result<SessionStatus>> {
    const found = await offlineSignIns
      .check(baseUrl, input.username, input.password)
      .catch((error: unknown) => {
        log(`The offline sign-in could not be checked: ${String(error)}`);
        return { kind: 'no-verifier' as const };
      });
    if (found.kind === 'no-verifier')
      return unanswered ?? failure('bad-request', MESSAGES.noOfflineSignIn(input.username, baseUrl));
    if (found.kind === 'wrong-password')
      return failure('unauthorized', MESSAGES.offlineWrongPassword(input.username));
    const previous = active();
    state = { kind: 'offline', user: found.user };
    if (previous) revoke(previous);
    await forgetSavedSignIn();
    await keepServerAddress(baseUrl);
    emit('session.changed', { status: status(), reason: 'signed-in' });
    return success(status());
  }

  /**
   * Revokes a token at its server, in the background: the user is signed out locally whatever the server says
   * and whenever it says it.
   */
  function revoke(session: Pick<ActiveSession, 'baseUrl' | 'token'>): void {
    const revoked = client.send(endpoints.logout(), { baseUrl: session.baseUrl, token: session.token });
    void revoked.then(
      (result) => {
        if (!result.ok && result.error.kind !== 'unauthorized') {
          log(`Signing out at ${session.baseUrl} did not reach the server: ${result.error.message}`);
        }
      },
      (error: unknown) => log(`Signing out at ${session.baseUrl} failed: ${String(error)}`),
    );
  }

  async function expire(session: ActiveSession): Promise<void> {
    if (active() !== session) return;
    state = { kind: 'expired', owner: { baseUrl: session.baseUrl, username: session.username } };
    await forgetSavedSignIn();
    emit('session.changed', { status: status(), reason: 'expired' });
  }

  async function signOut({ removeData = false } = {}): Promise<Result<SessionStatus>> {
    const current = active();
    const leaving = owner();
    // Signing out of an expired session ends it too: work that waited for its user to come back stops.
    const ended = leaving !== undefined;
    state = SIGNED_OUT;
    await forgetSavedSignIn();
    if (removeData && leaving) await forgetOfflineSignIn(leaving.baseUrl, leaving.username);
    if (ended || removeData)
      emit('session.changed', {
        status: status(),
        reason: 'signed-out',
        ...(removeData ? { removeData: true as const } : {}),
      });
    if (current) revoke(current);
    return success(status());
  }

  async function signIn(input: SignInInput, signal?: AbortSignal): Promise<Result<SessionStatus>> {
    const baseUrl = input.baseUrl ?? settings.get().apiBaseUrl;
    // Nothing crosses the network, so nothing is kept for later either: the warnings below do not apply.
    if (input.offline) return await signInOffline(baseUrl, input);
    // Checked before logging in, so refusing to remember does not leave an unused token on the server.
    if (input.remember && !tokens.canRemember()) {
      return failure('bad-request', ENCRYPTION_UNAVAILABLE_MESSAGE);
    }
    // The password would cross the network in clear: only to a server the user confirmed.
    const plain = plainHttpOrigin(baseUrl);
    const confirmed = settings.get().plainHttpServers;
    if (plain !== undefined && !plainHttpAllowed(baseUrl, confirmed)) {
      if (!input.allowPlainHttp) return failure('bad-request', PLAIN_HTTP_MESSAGES.refused(plain));
      const kept = await settings.update({ plainHttpServers: [...confirmed, plain] });
      if (!kept.ok) return failure('bad-request', kept.message);
    }
    const login = endpoints.login({ username: input.username, password: input.password });
    const answer = await client.send(login, { baseUrl }, signal);
    if (!answer.ok) {
      // No server answered, so nothing was said of the password: this computer may check it.
      if (outOfReach(answer.error) && !signal?.aborted) return await signInOffline(baseUrl, input, answer);
      if (answer.error.kind !== 'unauthorized') return answer;
      // The password was changed on the server: the one kept here must not open the data any longer.
      await forgetOfflineSignIn(baseUrl, input.username);
      return failure('unauthorized', WRONG_CREDENTIALS, answer.error.status);
    }
    // Cancelled as the answer came: the token is not wanted, and the server need not keep it.
    if (signal?.aborted) {
      revoke({ baseUrl, token: answer.data.access_token });
      return failure('cancelled', MESSAGES.cancelled);
    }
    const session: ActiveSession = {
      baseUrl,
      username: input.username,
      scopes: answer.data.scopes,
      token: answer.data.access_token,
      expiresAt: now() + answer.data.expires_in * 1000,
      remembered: false,
    };
    if (input.remember) {
      try {
        await tokens.save({
          baseUrl,
          username: session.username,
          ...(session.scopes ? { scopes: session.scopes } : {}),
          token: session.token,
          expiresAt: session.expiresAt,
        });
        session.remembered = true;
      } catch (error) {
        // Signed in all the same; status.remembered tells the renderer the wish was not granted.
        log(`The sign-in could not be saved: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    // The server has just accepted this password: this computer may check it when the server is out of reach.
    await offlineSignIns
      .keep(
        { baseUrl, username: session.username, ...(session.scopes ? { scopes: session.scopes } : {}) },
        input.password,
      )
      .catch((error: unknown) => log(`The offline sign-in could not be saved: ${String(error)}`));
    // Cancelled while the sign-in was being kept: it must not take effect after the user gave it up. Nothing
    // has changed yet: the session, the expired one's owner and the server address are as they were.
    if (signal?.aborted) {
      if (session.remembered) await forgetSavedSignIn();
      revoke(session);
      return failure('cancelled', MESSAGES.cancelled);
    }
    const previous = active();
    state = { kind: 'signed-in', session };
    if (previous) revoke(previous);
    // An older saved sign-in (perhaps another user's) must not come back at the next start.
    if (!session.remembered) await forgetSavedSignIn();
    await keepServerAddress(baseUrl);
    emit('session.changed', { status: status(), reason: 'signed-in' });
    return success(status());
  }

  async function restore(): Promise<void> {
    const { session, problem } = await tokens.load();
    if (problem) log(problem);
    if (!session) return;
    if (session.baseUrl !== settings.get().apiBaseUrl || session.expiresAt <= now()) {
      await forgetSavedSignIn();
      return;
    }
    state = { kind: 'signed-in', session: { ...session, scopes: session.scopes, remembered: true } };
  }

  async function call<Schema extends z.ZodType>(
    request: ApiRequest<Schema>,
    signal?: AbortSignal,
  ): Promise<Result<z.output<Schema>>> {
    const current = active();
    if (!current) return failure('unauthorized', SIGN_IN_FIRST);
    if (now() >= current.expiresAt) {
      await expire(current);
      return failure('unauthorized', EXPIRED);
    }
    const result = await client.send(request, { baseUrl: current.baseUrl, token: current.token }, signal);
    if (!result.ok && result.error.kind === 'unauthorized') {
      // A 401 for a token already replaced by a new sign-in must not end the new session.
      await expire(current);
      return failure('unauthorized', EXPIRED, result.error.status);
    }
    return result;
  }

  function owner(): { baseUrl: string; username: string } | undefined {
    if (state.kind === 'expired') return state.owner;
    const open = user();
    return open ? { baseUrl: open.baseUrl, username: open.username } : undefined;
  }

  async function serverChanged(baseUrl: string): Promise<void> {
    const open = user();
    if (open && open.baseUrl !== baseUrl) await signOut();
  }

  return {
    status,
    owner,
    signIn,
    signOut,
    restore,
    call,
    serverChanged,
    checkServer: (baseUrl) => checkServer(client, baseUrl),
    probe: () => probeServer(client, user()?.baseUrl ?? settings.get().apiBaseUrl),
  };
}
