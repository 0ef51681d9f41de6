/**
 * The settings screen: server address (with "Test connection"), rows per page, request timeout and theme.
 * The form is checked with the same schema main uses before anything is sent; main checks again, saves,
 * and the app applies the result at once (grid page size, theme; main's next request uses the address
 * and timeout). A new server address signs the user out: a session belongs to one server. An address on
 * plain http:// to another computer is saved only once its warning is confirmed.
 */
import { useId, useState, type FormEvent } from 'react';
import { LIMITS } from '../../../shared/api/index.ts';
import { ROWS_PER_PAGE_MIN, Settings, type ThemePreference } from '../../../shared/ipc/contract.ts';
import { plainHttpOrigin } from '../../../shared/ipc/plain-http.ts';
import { useEscapeCloses } from '../components/escape-closes.ts';
import { PlainHttpWarning } from '../components/plain-http-warning.tsx';
import { saveSettings, testConnection, useSettings } from '../data/settings.ts';

type Field = 'apiBaseUrl' | 'pageSize' | 'requestTimeoutMs' | 'theme';
type Draft = {
  apiBaseUrl: string;
  pageSize: string;
  timeoutSeconds: string;
  theme: ThemePreference;
  plainHttpServers: string[];
  removeDataOnSignOut: boolean;
};

const THEMES: readonly { value: ThemePreference; label: string }[] = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** The schema says "expected int" or "expected number"; the user typed a field, not a type. */
const NOT_A_NUMBER: Partial<Record<Field, string>> = {
  pageSize: 'rows per page must be a whole number',
  requestTimeoutMs: 'the request timeout must be a number of seconds',
};

function draftOf(settings: Settings): Draft {
  return {
    apiBaseUrl: settings.apiBaseUrl,
    pageSize: String(settings.pageSize),
    timeoutSeconds: String(settings.requestTimeoutMs / 1000),
    theme: settings.theme,
    plainHttpServers: settings.plainHttpServers,
    removeDataOnSignOut: settings.removeDataOnSignOut,
  };
}

/** The draft as settings, or a message per field that is wrong (the shared schema's words). */
export function checkDraft(
  draft: Draft,
): { settings: Settings } | { errors: Partial<Record<Field, string>> } {
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  const parsed = Settings.safeParse({
    apiBaseUrl: draft.apiBaseUrl,
    pageSize: number(draft.pageSize),
    requestTimeoutMs: Math.round(number(draft.timeoutSeconds) * 1000),
    theme: draft.theme,
    plainHttpServers: draft.plainHttpServers,
    removeDataOnSignOut: draft.removeDataOnSignOut,
  });
  if (parsed.success) return { settings: parsed.data };
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    const words = (issue.code === 'invalid_type' && NOT_A_NUMBER[field]) || issue.message;
    errors[field] ??= `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
  }
  return { errors };
}

export function SettingsScreen({ onClose }: { onClose: () => void }) {
  const saved = useSettings((state) => state.settings);
  const [draft, setDraft] = useState<Draft | null>(saved ? draftOf(saved) : null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [connection, setConnection] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  if (draft === null && saved !== null) setDraft(draftOf(saved));

  useEscapeCloses(onClose);

  if (draft === null) {
    return (
      <section className="settings" aria-labelledby={`${id}-title`} aria-busy="true">
        <h2 id={`${id}-title`}>Settings</h2>
      </section>
    );
  }

  const change = (part: Partial<Draft>) => {
    setDraft({ ...draft, ...part });
    if ('apiBaseUrl' in part) setConnection(null);
  };

  const check = () => {
    const address = Settings.shape.apiBaseUrl.safeParse(draft.apiBaseUrl);
    if (!address.success) {
      setErrors({ ...errors, apiBaseUrl: 'The server address must be an http:// or https:// URL.' });
      return;
    }
    setConnection(null);
    void testConnection(address.data).then((answer) =>
      setConnection(
        answer.ok ? { ok: true, message: answer.data.message } : { ok: false, message: answer.error.message },
      ),
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDraft(draft);
    if ('errors' in checked) {
      setErrors(checked.errors);
      setProblem('Some settings need fixing; nothing was saved.');
      return;
    }
    setErrors({});
    setProblem(null);
    // Only what changed: main keeps only what the user set, so the launcher's defaults still apply to the rest.
    const patch = Object.fromEntries(
      Object.entries(checked.settings).filter(
        ([key, value]) => JSON.stringify(saved?.[key as keyof Settings]) !== JSON.stringify(value),
      ),
    ) as Partial<Settings>;
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    void saveSettings(patch).then((answer) => {
      setBusy(false);
      if (answer.ok) onClose();
      else setProblem(answer.error.message);
    });
  };

  const described = (field: Field) =>
    errors[field] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}` } : {};
  const message = (field: Field) =>
    errors[field] && (
      <span id={`${id}-${field}`} className="field-error">
        {errors[field]}
      </span>
    );

  return (
    <section className="settings" aria-labelledby={`${id}-title`}>
      <header className="settings-header">
        <button type="button" onClick={onClose}>
          Back
        </button>
        <h2 id={`${id}-title`}>Settings</h2>
      </header>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        <div className="settings-field">
          <label htmlFor={`${id}-server`}>Server address</label>
          <div className="settings-row">
            <input
              id={`${id}-server`}
              type="url"
              value={draft.apiBaseUrl}
              onChange={(event) => change({ apiBaseUrl: event.target.value })}
              {...described('apiBaseUrl')}
            />
            <button type="button" onClick={check}>
              Test connection
            </button>
          </div>
          {message('apiBaseUrl')}
          <p role="status" className={connection?.ok === false ? 'field-error' : 'settings-note'}>
            {connection?.message ?? ''}
          </p>
          <PlainHttpWarning
            address={draft.apiBaseUrl}
            confirmed={saved?.plainHttpServers ?? []}
            checked={draft.plainHttpServers.includes(plainHttpOrigin(draft.apiBaseUrl) ?? '')}
            onChange={(confirm) => {
              const origin = plainHttpOrigin(draft.apiBaseUrl) ?? '';
              const others = draft.plainHttpServers.filter((server) => server !== origin);
              change({ plainHttpServers: confirm ? [...others, origin] : others });
            }}
          />
        </div>
        <div className="settings-field">
          <label htmlFor={`${id}-rows`}>Rows per page</label>
          <input
            id={`${id}-rows`}
            type="number"
            min={ROWS_PER_PAGE_MIN}
            max={LIMITS.pageSizeMax}
            step={10}
            value={draft.pageSize}
            onChange={(event) => change({ pageSize: event.target.value })}
            {...described('pageSize')}
          />
          {message('pageSize')}
        </div>
        <div className="settings-field">
          <label htmlFor={`${id}-timeout`}>Request timeout (seconds)</label>
          <input
            id={`${id}-timeout`}
            type="number"
            min={1}
            max={120}
            value={draft.timeoutSeconds}
            onChange={(event) => change({ timeoutSeconds: event.target.value })}
            {...described('requestTimeoutMs')}
          />
          {message('requestTimeoutMs')}
        </div>
        <fieldset className="settings-field">
          <legend>Theme</legend>
          {THEMES.map((theme) => (
            <label key={theme.value} className="checkbox">
              <input
                type="radio"
                name={`${id}-theme`}
                value={theme.value}
                checked={draft.theme === theme.value}
                onChange={() => change({ theme: theme.value })}
              />
              {theme.label}
            </label>
          ))}
        </fieldset>
        <fieldset className="settings-field">
          <legend>This computer</legend>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.removeDataOnSignOut}
              onChange={(event) => change({ removeDataOnSignOut: event.target.checked })}
            />
            Always remove my data from this computer when I sign out
          </label>
          <p className="settings-note">
            For a computer others use: saved pages, offline packs and export scratch files go with every
            sign-out.
          </p>
        </fieldset>
        {problem && (
          <p role="alert" className="error-banner">
            {problem}
          </p>
        )}
        <p className="settings-note">
          Changing the server address signs you out: a sign-in belongs to one server.
        </p>
        <div className="settings-actions">
          <button type="submit" className="primary" disabled={busy}>
            Save
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
