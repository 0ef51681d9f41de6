/** Where the user is: which workspace, and the generator profile open over it (if any). */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export type View = 'generators' | 'manifests' | 'offline';

type NavigationState = {
  view: View;
  /** EPA handler id of the open generator profile; the workspace stays mounted underneath it. */
  profile: string | null;
  /** Workspaces opened since start: they stay mounted so coming back finds them as they were. */
  visited: readonly View[];
  setView: (view: View) => void;
  openProfile: (handlerId: string) => void;
  closeProfile: () => void;
};

export const useNavigation = create<NavigationState>()(
  persist(
    (set) => ({
      view: 'generators',
      profile: null,
      visited: [],
      setView: (view) =>
        set((state) => ({
          view,
          profile: null,
          visited: state.visited.includes(view) ? state.visited : [...state.visited, view],
        })),
      openProfile: (profile) => set({ profile }),
      closeProfile: () => set({ profile: null }),
    }),
    { name: 'waste-tracker.navigation', version: 1, partialize: ({ view }) => ({ view }) },
  ),
);
