/**
 * Where the user is: which workspace, and the generator profile open over it (if any). Persisted, so a
 * reload or a restart comes back to the same place.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export type View = 'generators' | 'manifests';

type NavigationState = {
  view: View;
  /** EPA handler id of the open generator profile; the workspace stays mounted underneath it. */
  profile: string | null;
  /** Workspaces opened since start: they stay mounted so coming back finds them as they were. */
  visited: readonly View[];
  /** The settings screen is shown over the workspaces. */
  settingsOpen: boolean;
  setView: (view: View) => void;
  openProfile: (handlerId: string) => void;
  closeProfile: () => void;
  openSettings: () => void;
  closeSettings: () => void;
};

export const useNavigation = create<NavigationState>()(
  persist(
    (set) => ({
      view: 'generators',
      profile: null,
      visited: [],
      settingsOpen: false,
      setView: (view) =>
        set((state) => ({
          view,
          profile: null,
          settingsOpen: false,
          visited: state.visited.includes(view) ? state.visited : [...state.visited, view],
        })),
      openProfile: (profile) => set({ profile, settingsOpen: false }),
      closeProfile: () => set({ profile: null }),
      openSettings: () => set({ settingsOpen: true }),
      closeSettings: () => set({ settingsOpen: false }),
    }),
    {
      name: 'waste-tracker.navigation',
      version: 1,
      // The open profile too, so a reload (main's recovery from a crashed page) lands on it again.
      partialize: ({ view, profile }) => ({ view, profile }),
    },
  ),
);
