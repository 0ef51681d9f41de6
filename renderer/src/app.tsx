import { useEffect } from 'react';
import { useAppCommands } from './commands.ts';
import { loadSettings, useSettings } from './data/settings.ts';
import { followSession } from './data/tracker-data.ts';
import { useSession } from './data/session.ts';
import { AboutDialog, ShortcutsDialog } from './components/help-dialogs.tsx';
import { SessionDialog, SignIn } from './components/sign-in.tsx';
import { SignOutButtons } from './components/sign-out-buttons.tsx';
import { ViewBoundary } from './components/view-boundary.tsx';
import { ExportPanel } from './exports/export-panel.tsx';
import { GeneratorProfile } from './profile/generator-profile.tsx';
import { SettingsScreen } from './settings/settings-screen.tsx';
import { isOffline, useConnectivity } from './data/connectivity.ts';
import { OfflineBanner, WorkOfflineSwitch } from './offline/offline-banner.tsx';
import { OfflineData } from './offline/offline-data.tsx';
import { followSessionForOffline } from './session-binding.ts';
import { followDataRemoval } from './remove-user-data.ts';
import { useNavigation, type View } from './state/navigation.ts';
import { followTheme } from './theme.ts';
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
 * Each view has its own error boundary: one that breaks leaves the others and the navigation working.
 */
function Shell() {
  const status = useSession((state) => state.status);
  // Signed in on this computer alone: the saved data is open, but no server has said who this is.
  const signedInAs = status?.offline ? 'Signed in on this computer alone as' : 'Signed in as';
  const {
    view,
    profile,
    visited,
    settingsOpen,
    dialog,
    refreshes,
    setView,
    closeProfile,
    openSettings,
    closeSettings,
    closeDialog,
  } = useNavigation();
  useAppCommands();
  const mounted = (entry: View) => entry === view || visited.includes(entry);
  const covered = profile !== null || settingsOpen;

  return (
    <div className="app">
      <header className="app-header">
        <span className="app-name">Waste Tracker</span>
        <nav aria-label="Workspaces">
          {VIEWS.map((entry) => (
            <button
              key={entry.view}
              type="button"
              aria-current={view === entry.view && !covered ? 'page' : undefined}
              onClick={() => setView(entry.view)}
            >
              {entry.label}
            </button>
          ))}
        </nav>
        <WorkOfflineSwitch />
        <span className="app-user" title={`${signedInAs} ${status?.username} on ${status?.baseUrl}`}>
          <span>
            <span className="visually-hidden">{signedInAs} </span>
            <strong>{status?.username}</strong>
          </span>
          <span className="app-server">
            <span className="visually-hidden">on </span>
            {status?.baseUrl}
          </span>
        </span>
        <button
          type="button"
          aria-pressed={settingsOpen}
          onClick={settingsOpen ? closeSettings : openSettings}
        >
          Settings
        </button>
        <SignOutButtons />
      </header>
      <OfflineBanner />
      <main className="app-main">
        {mounted('generators') && (
          <ViewBoundary name="Generators workspace" hidden={view !== 'generators' || covered}>
            <GeneratorsWorkspace key={refreshes.generators} hidden={view !== 'generators' || covered} />
          </ViewBoundary>
        )}
        {mounted('manifests') && (
          <ViewBoundary name="Manifests workspace" hidden={view !== 'manifests' || covered}>
            <ManifestsWorkspace key={refreshes.manifests} hidden={view !== 'manifests' || covered} />
          </ViewBoundary>
        )}
        {profile !== null && !settingsOpen && (
          <ViewBoundary key={profile} name="generator profile">
            <GeneratorProfile key={refreshes.profile} handlerId={profile} onClose={closeProfile} />
          </ViewBoundary>
        )}
        {view === 'offline' && !covered && (
          <ViewBoundary name="Offline data">
            <OfflineData key={refreshes.offline} />
          </ViewBoundary>
        )}
        {settingsOpen && (
          <ViewBoundary name="settings screen">
            <SettingsScreen onClose={closeSettings} />
          </ViewBoundary>
        )}
      </main>
      <ExportPanel />
      {dialog === 'shortcuts' && <ShortcutsDialog onClose={closeDialog} />}
      {dialog === 'about' && <AboutDialog onClose={closeDialog} />}
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
  const theme = useSettings((state) => state.settings?.theme ?? 'system');
  const server = status?.baseUrl;
  const offline = useConnectivity(isOffline);
  // The saved data follows the session before the first view asks for anything.
  useEffect(() => {
    const stopOffline = followSessionForOffline();
    const stopRemoval = followDataRemoval();
    const stopSession = followSession();
    return () => {
      stopSession();
      stopRemoval();
      stopOffline();
    };
  }, []);
  // Signing in to another server saves its address in main; the copy here follows it.
  useEffect(() => {
    void loadSettings();
  }, [server]);
  useEffect(() => followTheme(theme), [theme]);

  if (status === null) return null;
  // The exports panel stays: an export that sign-out stopped says so here.
  if (!status.signedIn && !expired)
    return (
      <>
        <SignIn />
        <ExportPanel />
      </>
    );
  return (
    <>
      <Shell />
      {expired && !offline && <SessionDialog />}
    </>
  );
}
