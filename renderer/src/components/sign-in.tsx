import { useState, type FormEvent } from 'react';
import type { SessionStatus } from '../../../shared/ipc/contract.ts';
import { signIn } from '../data/tracker-data.ts';

/** Sign-in form; messages come from main, which names the cause (wrong credentials, unreachable, rate limit). */
export function SignIn({ onSignedIn }: { onSignedIn: (status: SessionStatus) => void }) {
  const [baseUrl, setBaseUrl] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    void signIn({
      ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
      username,
      password,
      remember,
    }).then((answer) => {
      setBusy(false);
      if (answer.ok) onSignedIn(answer.data);
      else setError(answer.error.message);
    });
  };

  return (
    <main className="sign-in">
      <h1>Sign in to Waste Tracker</h1>
      <form onSubmit={submit}>
        <label>
          Server URL
          <input type="url" value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)} />
        </label>
        <label>
          User name
          <input required value={username} onChange={(event) => setUsername(event.target.value)} />
        </label>
        <label>
          Password
          <input
            required
            type="password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        <label>
          <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
          Keep me signed in
        </label>
        {error && <p role="alert">{error}</p>}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
