import { useEffect } from 'react';
import { followSession, signOut } from './data/tracker-data.ts';
import { useSession } from './data/session.ts';
import { SessionDialog, SignIn } from './components/sign-in.tsx';
import { GeneratorProfile } from './profile/generator-profile.tsx';
import { isOffline, useConnectivity } from './offline/connectivity.ts';
import { OfflineBanner, WorkOfflineSwitch } from './offline/offline-banner.tsx';
import { OfflineData } from './offline/offline-data.tsx';
import { followSessionForOffline } from './offline/session-binding.ts';
import { useNavigation, type View } from './state/navigation.ts';
import { GeneratorsWorkspace } from './workspaces/generators.tsx';
import { ManifestsWorkspace } from './workspaces/manifests.tsx';

const VIEWS: readonly { view: View; label: string }[] = [
  { view: 'generators', label: 'Generators' },
  { view: 'manifests', label: 'Manifests' },
  { view: 'offline', label: 'Offline data' },
];

/**
 * The signed-in app: navigation, and the workspaces. A workspace stays mounted once visited (hidden when
 * another is shown, or under a profile), so coming back finds its rows, scroll position and selection.
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
        <WorkOfflineSwitch />
        <span className="app-user">
          Signed in as <strong>{status?.username}</strong> on {status?.baseUrl}
        </span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <OfflineBanner />
      <main className="app-main">
        {mounted('generators') && <GeneratorsWorkspace hidden={view !== 'generators' || profile !== null} />}
        {mounted('manifests') && <ManifestsWorkspace hidden={view !== 'manifests' || profile !== null} />}
        {view === 'offline' && profile === null && <OfflineData />}
        {profile !== null && <GeneratorProfile handlerId={profile} onClose={closeProfile} />}
      </main>
    </div>
  );
}

/**
 * Sign-in until main has a session; then the shell, with the sign-in dialog over it if it expires. Offline,
 * an expired session keeps the shell on saved data: the dialog waits until the server answers again.
 */
export function App() {
  const status = useSession((state) => state.status);
  const expired = useSession((state) => state.expired);
  const offline = useConnectivity(isOffline);
  // The saved data follows the session before the first view asks for anything.
  useEffect(() => {
    const stopOffline = followSessionForOffline();
    const stopSession = followSession();
    return () => {
      stopSession();
      stopOffline();
    };
  }, []);

  if (status === null) return null;
  if (!status.signedIn && !expired) return <SignIn />;
  return (
    <>
      <Shell />
      {expired && !offline && <SessionDialog />}
    </>
  );
}
