/** Electron's save dialog for exports: main asks where to save; the renderer never names a path. */
import { join } from 'node:path';
import { app, dialog, type BrowserWindow, type FileFilter, type SaveDialogOptions } from 'electron';
import type { ExportFormat } from '../../../shared/ipc/exports.ts';
import type { ChooseSaveTarget } from '../export/export-service.ts';
import { chosenTarget } from '../export/file-names.ts';

const FILTERS: Record<ExportFormat, FileFilter> = {
  xlsx: { name: 'Excel workbook', extensions: ['xlsx'] },
  csv: { name: 'CSV (comma-separated values)', extensions: ['csv'] },
};

export function saveDialog(getWindow: () => BrowserWindow | undefined): ChooseSaveTarget {
  return async (suggestedName, format) => {
    // The suggested name is already a safe base name with its extension (safe-file-name.ts).
    let defaultPath = join(app.getPath('documents'), suggestedName);
    for (;;) {
      const options: SaveDialogOptions = {
        title: 'Export',
        defaultPath,
        filters: [FILTERS[format]],
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      };
      const window = getWindow();
      const chosen =
        window && !window.isDestroyed()
          ? await dialog.showSaveDialog(window, options)
          : await dialog.showSaveDialog(options);
      if (chosen.canceled || !chosen.filePath) return undefined;
      const target = await chosenTarget(chosen.filePath, format);
      if ('path' in target) return target.path;
      // The name with its extension is taken: the dialog asks about replacing it this time.
      defaultPath = target.askAgain;
    }
  };
}
