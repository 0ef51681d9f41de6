/** Electron's save dialog for exports: main asks where to save; the renderer never names a path. */
import { join } from 'node:path';
import { app, dialog, type BrowserWindow, type FileFilter, type SaveDialogOptions } from 'electron';
import type { ExportFormat } from '../../../shared/ipc/exports.ts';
import type { ChooseSaveTarget } from '../export/export-service.ts';
import { withExtension } from '../export/file-names.ts';

const FILTERS: Record<ExportFormat, FileFilter> = {
  xlsx: { name: 'Excel workbook', extensions: ['xlsx'] },
  csv: { name: 'CSV (comma-separated values)', extensions: ['csv'] },
};

export function saveDialog(getWindow: () => BrowserWindow | undefined): ChooseSaveTarget {
  return async (suggestedName, format) => {
    const options: SaveDialogOptions = {
      title: 'Export',
      defaultPath: join(app.getPath('documents'), suggestedName),
      filters: [FILTERS[format]],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    };
    const window = getWindow();
    const chosen =
      window && !window.isDestroyed()
        ? await dialog.showSaveDialog(window, options)
        : await dialog.showSaveDialog(options);
    return chosen.canceled || !chosen.filePath ? undefined : withExtension(chosen.filePath, format);
  };
}
