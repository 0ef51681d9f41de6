/**
 * Where the user is: which workspace, and the generator profile open over it (if any). Persisted per user
 * (./user-storage.ts), so a reload or a restart comes back to the same place, and the next user to sign in
 * to theirs.
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { perUser, userStorage } from './user-storage.ts';

export type View = 'generators' | 'manifests' | 'offline';
/** A dialog over everything: Help's keyboard shortcuts or About. */
export type HelpDialog = 'shortcuts' | 'about';
/** What "Refresh" loads again: a workspace or the open profile. */
export type Refreshable = View | 'profile';

type NavigationState = {
  view: View;
  /** EPA handler id of the open generator profile; the workspace stays mounted underneath it. */
  profile: string | null;
  /** Workspaces opened since start: they stay mounted so coming back finds them as they were. */
  visited: readonly View[];
  /** The settings screen is shown over the workspaces. */
  settingsOpen: boolean;
  dialog: HelpDialog | null;
  /** Bumped by "Refresh": the view on screen is mounted afresh and asks for its data again. */
  refreshes: Readonly<Record<Refreshable, number>>;
  setView: (view: View) => void;
  openProfile: (handlerId: string) => void;
  closeProfile: () => void;
  openSettings: () => void;
  closeSettings: () => void;
  openDialog: (dialog: HelpDialog) => void;
  closeDialog: () => void;
  refresh: () => void;
};

export const useNavigation = perUser(
  create<NavigationState>()(
    persist(
      (set) => ({
        view: 'generators',
        profile: null,
        visited: [],
        settingsOpen: false,
        dialog: null,
        refreshes: { generators: 0, manifests: 0, offline: 0, profile: 0 },
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
        openDialog: (dialog) => set({ dialog }),
        closeDialog: () => set({ dialog: null }),
        refresh: () =>
          set((state) => {
            // The settings screen holds no server data; there is nothing to load again.
            if (state.settingsOpen) return {};
            const shown: Refreshable = state.profile !== null ? 'profile' : state.view;
            return { refreshes: { ...state.refreshes, [shown]: state.refreshes[shown] + 1 } };
          }),
      }),
      {
        name: 'waste-tracker.navigation',
        version: 1,
        storage: createJSONStorage(userStorage(() => localStorage)),
        // The open profile too, so a reload (main's recovery from a crashed page) lands on it again.
        partialize: ({ view, profile }) => ({ view, profile }),
      },
    ),
  ),
);
