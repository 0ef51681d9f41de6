/**
 * The header's two ways out: plain "Sign out", which keeps the user's saved pages and packs on this
 * computer for next time (unless the settings say to remove them at every sign-out), and "Sign out and
 * remove my data", for a computer others use (../remove-user-data.ts does the removing).
 */
import './sign-out-buttons.css';
import { signOut, signOutAndRemoveData } from '../data/tracker-data.ts';

export function SignOutButtons() {
  return (
    <span className="sign-out-buttons">
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
      <button
        type="button"
        title="Signs you out and removes your saved pages, offline packs and export files from this computer"
        onClick={() => void signOutAndRemoveData()}
      >
        Sign out and remove my data
      </button>
    </span>
  );
}
