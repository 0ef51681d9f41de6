import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import './styles.css';
import { EngineClient } from './offline/engine-client.ts';
import { setOfflineEngine } from './offline/engine-seam.ts';
import { followTheme } from './theme.ts';

// Before the first paint, so a dark OS never sees a light flash.
followTheme('system');
// Offline packs are answered in a Web Worker, so a scan over a pack never holds up the grid.
setOfflineEngine(new EngineClient());

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
