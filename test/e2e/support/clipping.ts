/**
 * Text a user cannot read: what the layout cuts off without saying so. Run in the page over one screen
 * (clipping-page.js), it reports
 * - text cut by a box that hides its overflow (not one that scrolls) unless the cut ends in an ellipsis and
 *   a tooltip (`title`) holds the whole text;
 * - content that spills out of its box (a table wider than its card);
 * - a text field whose value is wider than the field (a date showing "01/01/20").
 * Each finding names the text and where it is, so a failing test says what to fix.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

const CHECK = readFileSync(new URL('./clipping-page.js', import.meta.url), 'utf8');

/** What is cut off or spills over under `rootSelector` (a CSS selector), as sentences; [] when nothing is. */
export function clippedText(page: Page, rootSelector: string): Promise<string[]> {
  // Evaluated as a string: the page's types are not the test's (it has no DOM types), and the app's CSP
  // refuses injected script tags, which evaluation does not need.
  return page.evaluate<string[]>(`${CHECK}\nfindClipping(${JSON.stringify(rootSelector)});`);
}
