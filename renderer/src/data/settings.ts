/**
 * The user's settings as main holds them: read once at start, saved through main (which validates them
 * again and applies the server address and timeout to its own requests), and mirrored in `useSettings` so
 * the views that read them (the grid's page size, the theme) change at once.
 */
import { create } from 'zustand';
import type { ConnectionCheck, Result, Settings } from '../../../shared/ipc/contract.ts';

type SettingsState = {
  /** null until main has answered. */
  settings: Settings | null;
};

export const useSettings = create<SettingsState>()(() => ({ settings: null }));

export async function loadSettings(): Promise<Result<Settings>> {
  const answer = await window.tracker.settings.get();
  if (answer.ok) useSettings.setState({ settings: answer.data });
  return answer;
}

export async function saveSettings(patch: Partial<Settings>): Promise<Result<Settings>> {
  const answer = await window.tracker.settings.set(patch);
  if (answer.ok) useSettings.setState({ settings: answer.data });
  return answer;
}

export function testConnection(baseUrl: string): Promise<Result<ConnectionCheck>> {
  return window.tracker.settings.testConnection({ baseUrl });
}
