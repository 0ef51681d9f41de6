/** The user's browser, for https links only; checked here again so no other path can widen it. */
import { shell } from 'electron';
import { isAllowedExternalUrl } from '../security/policy.ts';

export async function openExternal(url: string): Promise<void> {
  if (!isAllowedExternalUrl(url)) throw new Error('Only https:// links may leave the app.');
  await shell.openExternal(url, { activate: true });
}
