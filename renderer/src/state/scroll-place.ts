/**
 * How far down each grid the user had scrolled (its first shown row), kept in the page's session storage:
 * it survives a reload of the page (main reloads a crashed or hung page) but not a restart, where the
 * grid starts from the top as usual.
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { z } from 'zod';
import { perUser, userStorage } from './user-storage.ts';

type ScrollPlaceState = {
  /** Grid name → index of its first shown row. */
  topRows: Record<string, number>;
  setTopRow: (grid: string, row: number) => void;
};

const Saved = z.object({ topRows: z.record(z.string(), z.number().int().nonnegative()) });

export const useScrollPlace = perUser(
  create<ScrollPlaceState>()(
    persist(
      (set) => ({
        topRows: {},
        setTopRow: (grid, row) => set((state) => ({ topRows: { ...state.topRows, [grid]: row } })),
      }),
      {
        name: 'waste-tracker.scroll',
        version: 1,
        storage: createJSONStorage(userStorage(() => sessionStorage)),
        partialize: ({ topRows }) => ({ topRows }),
        merge: (persisted, current) => {
          const saved = Saved.safeParse(persisted);
          return saved.success ? { ...current, topRows: saved.data.topRows } : current;
        },
      },
    ),
  ),
);
