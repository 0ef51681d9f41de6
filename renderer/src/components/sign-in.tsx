/**
 * Signing in: the first screen, and the dialog over the current view once a session has expired or the user
 * signed in on this computer alone. A server that refuses (nothing runs there) has main check the password
 * against the one last used here, which opens the user's saved data offline. A server that hangs answers
 * nothing and refuses nothing; after a few seconds the form says so, naming the server, and offers to cancel
 * (main stops the request; an answer that comes later signs nobody in) and, where this computer holds saved
 * data of the user, to work offline with it instead.
 */
import './sign-in.css';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useConnectivity } from '../data/connectivity.ts';
import { signIn, signOut } from '../data/tracker-data.ts';
import { useSession } from '../data/session.ts';
import { useSettings } from '../data/settings.ts';
import { holdsSavedData, holdsSavedDataOf } from '../offline/offline-store.ts';
import { PlainHttpWarning } from './plain-http-warning.tsx';

/** One array for "no settings read yet": a selector that made a new one each time would render forever. */
const NONE_CONFIRMED: readonly string[] = [];

/**
 * How long a sign-in waits before the form says the server has not answered yet. A working server answers
 * in about a second (most of it the password check); the request itself gives up only after 20 s.
 */
export const NO_ANSWER_YET_MS = 3_000;

type FormProps = {
  /** Prefilled user name (the expired session's). */
  username?: string;
  /** Whether to offer a server address; the dialog signs in again to the same server. */
  askServer: boolean;
  autoFocus?: boolean;
  /**
   * While the server does not answer: the user's saved data is open (an expired session, or signed in here
   * alone), and working offline needs no sign-in. Otherwise working offline signs in on this computer alone.
   */
  dataOpen?: boolean;
};

/** Sign-in fields; the messages come from main, which names the cause (wrong credentials, unreachable…). */
function SignInForm({
  username: initialUser = '',
  askServer,
  autoFocus = false,
  dataOpen = false,
}: FormProps) {
  const configured = useSession((state) => state.status?.baseUrl);
  const [baseUrl, setBaseUrl] = useState('');
  const [username, setUsername] = useState(initialUser);
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [allowPlainHttp, setAllowPlainHttp] = useState(false);
  const confirmed = useSettings((state) => state.settings?.plainHttpServers ?? NONE_CONFIRMED);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [noAnswerYet, setNoAnswerYet] = useState(false);
  const [savedData, setSavedData] = useState(false);
  /** The attempt under way; only it may end the busy state, so a cancelled one's late answer says nothing. */
  const attempt = useRef<AbortController | null>(null);
  /** Whom the attempt under way signs in, and where: what typing meanwhile changes is not asked. */
  const asked = useRef({ server: '', username: '' });
  const server = (askServer && baseUrl.trim()) || configured || '';

  useEffect(() => {
    if (!busy) return undefined;
    const timer = setTimeout(() => {
      setNoAnswerYet(true);
      const { server: where, username: who } = asked.current;
      const saved = dataOpen ? holdsSavedData() : holdsSavedDataOf(where, who);
      void saved.then(setSavedData, () => setSavedData(false));
    }, NO_ANSWER_YET_MS);
    return () => clearTimeout(timer);
  }, [busy, dataOpen]);

  const settle = () => {
    attempt.current = null;
    setBusy(false);
    setNoAnswerYet(false);
  };

  /** `offline`: on this computer alone, the server not asked (the user stopped waiting for it). */
  const attemptSignIn = (offline: boolean) => {
    attempt.current?.abort();
    const controller = new AbortController();
    attempt.current = controller;
    asked.current = { server, username: username.trim() };
    setBusy(true);
    setError(null);
    void signIn(
      {
        ...(askServer && baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
        username,
        password,
        remember,
        ...(allowPlainHttp ? { allowPlainHttp } : {}),
        ...(offline ? { offline } : {}),
      },
      controller.signal,
    ).then((answer) => {
      if (attempt.current !== controller) return;
      settle();
      if (!answer.ok) setError(answer.error.message);
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    attemptSignIn(false);
  };

  const cancel = () => {
    attempt.current?.abort();
    settle();
  };

  const workOffline = () => {
    if (!dataOpen) return attemptSignIn(true);
    cancel();
    useConnectivity.getState().setWorkOffline(true);
  };

  return (
    <form onSubmit={submit} aria-busy={busy}>
      {askServer && (
        <>
          <p className="sign-in-server">
            Signs in to <strong>{baseUrl.trim() || configured}</strong>
          </p>
          <label>
            Server URL
            <input
              type="url"
              value={baseUrl}
              placeholder={configured}
              onChange={(event) => setBaseUrl(event.target.value)}
            />
          </label>
        </>
      )}
      <label>
        User name
        <input
          required
          autoComplete="username"
          autoFocus={autoFocus && initialUser === ''}
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
      </label>
      <label>
        Password
        <input
          required
          type="password"
          autoComplete="current-password"
          autoFocus={autoFocus && initialUser !== ''}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
        Keep me signed in
      </label>
      <PlainHttpWarning
        address={(askServer && baseUrl.trim()) || configured || ''}
        confirmed={confirmed}
        checked={allowPlainHttp}
        onChange={setAllowPlainHttp}
      />
      {error && (
        <p role="alert" className="error-banner">
          {error}
        </p>
      )}
      {busy && noAnswerYet && (
        <div role="status" className="sign-in-waiting">
          <p>
            No answer yet from <strong>{server}</strong>. The server may be busy, or out of reach from this
            computer.
          </p>
          {savedData && <p>You can stop waiting and work offline with the data saved on this computer.</p>}
          <div className="sign-in-waiting-actions">
            {savedData && (
              <button type="button" onClick={workOffline}>
                Work offline
              </button>
            )}
            <button type="button" onClick={cancel}>
              Cancel sign-in
            </button>
          </div>
        </div>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

/** The first screen: sign in to a server. */
export function SignIn() {
  return (
    <main className="sign-in">
      <h1>Waste Tracker</h1>
      <p>Sign in to review hazardous-waste generators and shipment manifests.</p>
      <SignInForm askServer autoFocus />
    </main>
  );
}

/**
 * Over the current view when the session expired mid-work, or when the server answers a user who signed in
 * on this computer alone: the view stays as it was, and what failed is retried once the user has signed in
 * (renderer/src/data/session.ts). Who signed in here alone may go on working offline instead.
 */
export function SessionDialog() {
  const status = useSession((state) => state.status);
  const address = status?.baseUrl;
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="session-dialog"
      aria-labelledby="session-dialog-title"
      onCancel={(event) => event.preventDefault()}
    >
      {status?.offline ? (
        <>
          <h2 id="session-dialog-title">The server answers again</h2>
          <p>
            You are working with the data saved on this computer. Sign in{address ? ` to ${address}` : ''} to
            see its latest data and bring your offline packs up to date.
          </p>
        </>
      ) : (
        <>
          <h2 id="session-dialog-title">Your session has expired</h2>
          <p>Sign in again to carry on where you were{address ? ` on ${address}` : ''}.</p>
        </>
      )}
      <SignInForm
        askServer={false}
        autoFocus
        dataOpen
        {...(status?.username ? { username: status.username } : {})}
      />
      {status?.offline && (
        <button type="button" onClick={() => useConnectivity.getState().setWorkOffline(true)}>
          Keep working offline
        </button>
      )}
      <button type="button" onClick={() => void signOut()}>
        Sign out instead
      </button>
    </dialog>
  );
}
