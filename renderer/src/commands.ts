/**
 * Carries out the app's commands (shared/commands): from the page's own shortcuts, which is how they work
 * in a browser, and from Electron's application menu, which sends them as events.
 */
import { useEffect } from 'react';
import { commandForKey, type AppCommand } from '../../shared/commands/commands.ts';
import { followMenu } from './data/menu.ts';
import { refreshSaved } from './data/pipeline.ts';
import { signOut } from './data/tracker-data.ts';
import { useExports } from './exports/export-store.ts';
import { useNavigation } from './state/navigation.ts';

/** The search box of the workspace on screen. */
function focusSearch(): void {
  const box = document.querySelector<HTMLInputElement>('.workspace:not([hidden]) input[type="search"]');
  box?.focus();
  box?.select();
}

export function runCommand(command: AppCommand): void {
  const navigation = useNavigation.getState();
  switch (command) {
    case 'show-generators':
      navigation.setView('generators');
      return;
    case 'show-manifests':
      navigation.setView('manifests');
      return;
    case 'refresh':
      refreshSaved();
      navigation.refresh();
      return;
    case 'focus-search':
      // Back to the workspace first when the profile or the settings cover it; its box exists after render.
      navigation.setView(navigation.view);
      requestAnimationFrame(focusSearch);
      return;
    case 'open-settings':
      navigation.openSettings();
      return;
    case 'export':
      // What the view on screen exports: its grid, or the open profile.
      useExports.getState().current?.();
      return;
    case 'sign-out':
      void signOut();
      return;
    case 'show-shortcuts':
      navigation.openDialog('shortcuts');
      return;
    case 'show-about':
      navigation.openDialog('about');
      return;
  }
}

/** While mounted (the signed-in shell), the shortcuts and the menu run commands. */
export function useAppCommands(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const command = commandForKey(event);
      if (!command) return;
      // The browser's own meaning (reload on F5, find on Ctrl+F) would leave the app.
      event.preventDefault();
      runCommand(command);
    };
    window.addEventListener('keydown', onKey);
    const stopMenu = followMenu(runCommand);
    return () => {
      window.removeEventListener('keydown', onKey);
      stopMenu();
    };
  }, []);
}
