import { useEffect, useState } from 'react';
import type { SessionStatus } from '../../shared/ipc/contract.ts';
import { GeneratorBoxes } from './components/generator-boxes.tsx';
import { GeneratorFilterPanel } from './components/generator-filter-panel.tsx';
import { GeneratorGrid } from './components/generator-grid.tsx';
import { SignIn } from './components/sign-in.tsx';
import { onSessionChanged, sessionStatus, signOut } from './data/tracker-data.ts';
import { useGeneratorFilters } from './state/generator-filters.ts';

function GeneratorsWorkspace() {
  const filterFields = useGeneratorFilters((state) => state.filterFields);
  const searchKey = useGeneratorFilters((state) => state.searchKey);
  const query = { filterFields, searchKey };
  return (
    <div className="workspace">
      <GeneratorFilterPanel />
      <section className="workspace-main" aria-label="Generators">
        <GeneratorBoxes query={query} />
        <GeneratorGrid query={query} />
      </section>
    </div>
  );
}

/** App shell: sign-in until a session exists, then the generators workspace. */
export function App() {
  const [status, setStatus] = useState<SessionStatus | null>(null);

  useEffect(() => {
    void sessionStatus().then((answer) => {
      if (answer.ok) setStatus(answer.data);
    });
    return onSessionChanged(setStatus);
  }, []);

  if (!status?.signedIn) return <SignIn onSignedIn={setStatus} />;
  return (
    <>
      <header className="app-header">
        <nav aria-label="Workspaces">
          <a href="#generators" aria-current="page">
            Generators
          </a>
        </nav>
        <span>
          {status.username} @ {status.baseUrl}
        </span>
        <button
          type="button"
          onClick={() => void signOut().then((answer) => answer.ok && setStatus(answer.data))}
        >
          Sign out
        </button>
      </header>
      <GeneratorsWorkspace />
    </>
  );
}
