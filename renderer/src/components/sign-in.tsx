import { useEffect, useRef, useState, type FormEvent } from 'react';
import { signIn, signOut } from '../data/tracker-data.ts';
import { useSession } from '../data/session.ts';
import { useSettings } from '../data/settings.ts';
import { PlainHttpWarning } from './plain-http-warning.tsx';

/** One array for "no settings read yet": a selector that made a new one each time would render forever. */
const NONE_CONFIRMED: readonly string[] = [];

type FormProps = {
  /** Prefilled user name (the expired session's). */
  username?: string;
  /** Whether to offer a server address; the dialog signs in again to the same server. */
  askServer: boolean;
  autoFocus?: boolean;
};

/** Sign-in fields; the messages come from main, which names the cause (wrong credentials, unreachable…). */
function SignInForm({ username: initialUser = '', askServer, autoFocus = false }: FormProps) {
  const configured = useSession((state) => state.status?.baseUrl);
  const [baseUrl, setBaseUrl] = useState('');
  const [username, setUsername] = useState(initialUser);
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [allowPlainHttp, setAllowPlainHttp] = useState(false);
  const confirmed = useSettings((state) => state.settings?.plainHttpServers ?? NONE_CONFIRMED);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    void signIn({
      ...(askServer && baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
      username,
      password,
      remember,
      ...(allowPlainHttp ? { allowPlainHttp } : {}),
    }).then((answer) => {
      setBusy(false);
      if (!answer.ok) setError(answer.error.message);
    });
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
 * Over the current view when the session expired mid-work: the view stays as it was, and what failed is
 * retried once the user has signed in again (renderer/src/data/session.ts).
 */
export function SessionDialog() {
  const status = useSession((state) => state.status);
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
      <h2 id="session-dialog-title">Your session has expired</h2>
      <p>Sign in again to carry on where you were{status?.baseUrl ? ` on ${status.baseUrl}` : ''}.</p>
      <SignInForm askServer={false} autoFocus {...(status?.username ? { username: status.username } : {})} />
      <button type="button" onClick={() => void signOut()}>
        Sign out instead
      </button>
    </dialog>
  );
}
