/** File names of exports: the extension the format needs, added when the user typed a name without it. */
import type { ExportFormat } from '../../../shared/ipc/exports.ts';

export function withExtension(path: string, format: ExportFormat): string {
  return path.toLowerCase().endsWith(`.${format}`) ? path : `${path}.${format}`;
}
