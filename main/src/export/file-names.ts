/**
 * The file an export is written to, from the path the save dialog answered. The dialog's filter names the
 * extension, and the dialog asks before replacing the file it answers. Where the dialog does not add the
 * extension to a name typed without it (GTK), it is added here, but only when no file has that name: writing
 * `report.xlsx` when the user typed `report` would replace a file the dialog never asked about, so the
 * dialog is shown again on that name instead, and asks.
 */
import { access } from 'node:fs/promises';
import type { ExportFormat } from '../../../shared/ipc/exports.ts';

export type ChosenTarget = { path: string } | { askAgain: string };

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export async function chosenTarget(chosen: string, format: ExportFormat): Promise<ChosenTarget> {
  if (chosen.toLowerCase().endsWith(`.${format}`)) return { path: chosen };
  const withExtension = `${chosen}.${format}`;
  return (await exists(withExtension)) ? { askAgain: withExtension } : { path: withExtension };
}
