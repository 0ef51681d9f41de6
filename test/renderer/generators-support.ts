/** The generators workspace as a test starts it: no saved state, default columns, a signed-in inspector. */
import { useSession } from '../../renderer/src/data/session.ts';
import { GENERATORS } from '../../renderer/src/workspaces/generators.tsx';

export function freshGeneratorsWorkspace(): void {
  localStorage.clear();
  GENERATORS.store.getState().clearAll();
  GENERATORS.store.getState().resetColumns();
  useSession.setState({
    status: { signedIn: true, username: 'inspector', baseUrl: 'http://127.0.0.1:1' },
    expired: false,
  });
}
