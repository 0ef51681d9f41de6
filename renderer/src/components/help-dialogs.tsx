/**
 * Help's two dialogs: the keyboard shortcuts, listed from the same command list the menu and the page's
 * shortcuts use (shared/commands), and About, with the app's version and the server it talks to.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { version } from '../../../package.json';
import { COMMANDS, SYSTEM_SHORTCUTS, VIEW_KEYS, shortcutText } from '../../../shared/commands/commands.ts';
import { useSession } from '../data/session.ts';

/** Every shortcut Help lists: the app's commands, then the menu's and the views' own keys. */
export function shortcutRows(): { label: string; keys: string }[] {
  const commands = Object.values(COMMANDS).flatMap((info) =>
    info.shortcut ? [{ label: info.label.replace(/…$/, ''), keys: shortcutText(info.shortcut) }] : [],
  );
  return [...commands, ...SYSTEM_SHORTCUTS, ...VIEW_KEYS];
}

function HelpDialog({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} className="help-dialog" aria-label={title} onClose={onClose}>
      <h2>{title}</h2>
      {children}
      <form method="dialog">
        <button type="submit" className="primary">
          Close
        </button>
      </form>
    </dialog>
  );
}

export function ShortcutsTable() {
  return (
    <table className="shortcuts">
      <caption className="visually-hidden">Keyboard shortcuts</caption>
      <thead>
        <tr>
          <th scope="col">Action</th>
          <th scope="col">Keys</th>
        </tr>
      </thead>
      <tbody>
        {shortcutRows().map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td>
              <kbd>{row.keys}</kbd>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <HelpDialog title="Keyboard shortcuts" onClose={onClose}>
      <ShortcutsTable />
      <p className="settings-note">On macOS, Cmd stands in for Ctrl.</p>
    </HelpDialog>
  );
}

export function AboutDialog({ onClose }: { onClose: () => void }) {
  const server = useSession((state) => state.status?.baseUrl);
  return (
    <HelpDialog title="About Waste Tracker" onClose={onClose}>
      <p>Review hazardous-waste generators and shipment manifests.</p>
      <dl className="profile-facts">
        <div>
          <dt>Version</dt>
          <dd>{version}</dd>
        </div>
        <div>
          <dt>Server</dt>
          <dd>{server ?? '—'}</dd>
        </div>
      </dl>
    </HelpDialog>
  );
}
