/**
 * The app's colour theme: the user's choice (system, light or dark) resolved against the OS setting, and
 * applied to the root element for the app's stylesheet (data-theme) and for AG Grid's colour scheme
 * (data-ag-theme-mode). "system" follows the OS as it changes, without a reload.
 */
export type ThemePreference = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export function resolveTheme(preference: ThemePreference, systemPrefersDark: boolean): Theme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

function apply(theme: Theme): void {
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.dataset.agThemeMode = theme;
}

/** Applies `preference` now and, for "system", whenever the OS switches; returns how to stop following. */
export function followTheme(preference: ThemePreference): () => void {
  const query = window.matchMedia(DARK_QUERY);
  const update = () => apply(resolveTheme(preference, query.matches));
  update();
  if (preference !== 'system') return () => undefined;
  query.addEventListener('change', update);
  return () => query.removeEventListener('change', update);
}
