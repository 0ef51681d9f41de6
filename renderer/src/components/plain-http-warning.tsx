/**
 * The warning for a server address on plain http:// to another computer (shared/ipc/plain-http.ts), shown on
 * the sign-in screen and in the settings wherever an address is entered: what would be exposed, and, until
 * the user has confirmed it for that server, the box that confirms it. Main refuses the address without it.
 */
import { useId } from 'react';
import './plain-http-warning.css';
import { PLAIN_HTTP_MESSAGES, plainHttpAllowed, plainHttpOrigin } from '../../../shared/ipc/plain-http.ts';

export function PlainHttpWarning({
  address,
  confirmed,
  checked,
  onChange,
}: {
  address: string;
  /** The servers the user confirmed before (Settings.plainHttpServers). */
  confirmed: readonly string[];
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  const origin = plainHttpOrigin(address);
  if (origin === undefined) return null;
  return (
    <div className="plain-http-warning" role="note" aria-labelledby={id}>
      <p id={id}>{PLAIN_HTTP_MESSAGES.warning(origin)}</p>
      {!plainHttpAllowed(address, confirmed) && (
        <label className="checkbox">
          <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
          {PLAIN_HTTP_MESSAGES.confirm}
        </label>
      )}
    </div>
  );
}
