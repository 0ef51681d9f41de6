import { useEffect } from 'react';
import { followSession, signOut } from './data/tracker-data.ts';
import { useSession } from './data/session.ts';
import { SessionDialog, SignIn } from './components/sign-in.tsx';
import { ViewBoundary } from './components/view-boundary.tsx';
import { GeneratorProfile } from './profile/generator-profile.tsx';
import { useNavigation, type View } from './state/navigation.ts';
import { GeneratorsWorkspace } from './workspaces/generators.tsx';
import { ManifestsWorkspace } from './workspaces/manifests.tsx';

const VIEWS: readonly { view: View; label: string }[] = [
  { view: 'generators', label: 'Generators' },
  { view: 'manifests', label: 'Manifests' },
];

/**
 * The signed-in app: navigation, and the workspaces. A workspace stays mounted once visited (hidden when
 * another is shown, or under a profile), so coming back finds its rows, scroll position and selection.
 * Each view has its own error boundary: one that breaks leaves the others and the navigation working.
 */
function Shell() {
  const status = useSession((state) => state.status);
  const { view, profile, visited, setView, closeProfile } = useNavigation();
  const mounted = (entry: View) => entry === view || visited.includes(entry);

  return (
    <div className="app">
      <header className="app-header">
        <span className="app-name">Waste Tracker</span>
        <nav aria-label="Workspaces">
          {VIEWS.map((entry) => (
            <button
              key={entry.view}
              type="button"
              aria-current={view === entry.view && !profile ? 'page' : undefined}
              onClick={() => setView(entry.view)}
            >
              {entry.label}
            </button>
          ))}
        </nav>
        <span className="app-user">
          Signed in as <strong>{status?.username}</strong> on {status?.baseUrl}
        </span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main className="app-main">
        {mounted('generators') && (
          <ViewBoundary name="Generators workspace" hidden={view !== 'generators' || profile !== null}>
            <GeneratorsWorkspace hidden={view !== 'generators' || profile !== null} />
          </ViewBoundary>
        )}
        {mounted('manifests') && (
          <ViewBoundary name="Manifests workspace" hidden={view !== 'manifests' || profile !== null}>
            <ManifestsWorkspace hidden={view !== 'manifests' || profile !== null} />
          </ViewBoundary>
        )}
        {profile !== null && (
          <ViewBoundary key={profile} name="generator profile">
            <GeneratorProfile handlerId={profile} onClose={closeProfile} />
          </ViewBoundary>
        )}
      </main>
    </div>
  );
}

/** Sign-in until main has a session; then the shell, with the sign-in dialog over it if it expires. */
export function App() {
  const status = useSession((state) => state.status);
  const expired = useSession((state) => state.expired);
  useEffect(() => followSession(), []);

  if (status === null) return null;
  if (!status.signedIn && !expired) return <SignIn />;
  return (
    <>
      <Shell />
      {expired && <SessionDialog />}
    </>
  );
}
