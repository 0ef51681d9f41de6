/**
 * The preload: runs sandboxed before the renderer and exposes `window.tracker`, the only door out of it.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { exposeTrackerApi } from './tracker-api.ts';

exposeTrackerApi({ contextBridge, ipcRenderer });
