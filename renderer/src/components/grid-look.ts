/**
 * How the results grids look: their theme, and the narrowest a column may be so that its header never
 * splits a word: the header's longest word in the grid's header font, the sort arrow shown beside it once
 * the column is sorted, and the cell's padding. A header wraps between words ("Waste" / "(tons)");
 * narrower than this, the grid would break a word inside ("Shippe" / "d") as soon as the user sorted by it.
 */
import { colorSchemeVariable, themeQuartz } from 'ag-grid-community';

/**
 * The grid's font, which the theme (results-grid.tsx) and the measure below share: Quartz's own list
 * without its Google font, which an app that works offline never fetches.
 */
const GRID_FONT_FAMILY =
  '"IBM Plex Sans", -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Oxygen-Sans, Ubuntu, Cantarell, "Helvetica Neue", sans-serif';
const GRID_FONT_SIZE = 13;
const HEADER_FONT_WEIGHT = 600;

/** The cells' padding, a side: Quartz's 16 px scaled by the theme's cellHorizontalPaddingScale. */
const CELL_PADDING_SCALE = 0.6;
const CELL_PADDING = 16 * CELL_PADDING_SCALE;

/** The sort arrow and its gap, as AG Grid lays them out beside a sorted column's header text. */
const SORT_ARROW_ROOM = 24;

/** Sub-pixel text widths and the header's resize handle: a pixel or two more than the sum. */
const SLACK = 2;

let context: CanvasRenderingContext2D | null | undefined;

function widestWord(text: string): number | undefined {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) return undefined;
  context.font = `${HEADER_FONT_WEIGHT} ${GRID_FONT_SIZE}px ${GRID_FONT_FAMILY}`;
  const measure = context;
  return Math.max(0, ...text.split(/\s+/).map((word) => measure.measureText(word).width));
}

/** At least `minWidth`, and room for `header`'s longest word with its sort arrow (when text can be measured). */
export function headerMinWidth(header: string | undefined, minWidth: number): number {
  const word = header ? widestWord(header) : undefined;
  if (word === undefined) return minWidth;
  return Math.max(minWidth, Math.ceil(word + SORT_ARROW_ROOM + 2 * CELL_PADDING + SLACK));
}

// The colour scheme follows the app's theme through data-ag-theme-mode on the root (theme.ts); each mode's
// background and text match the app's own surface and text colours.
export const gridTheme = themeQuartz
  .withPart(colorSchemeVariable)
  // Cells a little tighter than Quartz's 16 px a side, which cost a 1280 px screen a whole column.
  .withParams({
    fontFamily: GRID_FONT_FAMILY,
    headerFontWeight: HEADER_FONT_WEIGHT,
    fontSize: GRID_FONT_SIZE,
    rowHeight: 34,
    headerHeight: 38,
    cellHorizontalPaddingScale: CELL_PADDING_SCALE,
  })
  .withParams({ backgroundColor: '#ffffff', foregroundColor: '#1b1f24', accentColor: '#0b5fff' }, 'light')
  .withParams({ backgroundColor: '#16191e', foregroundColor: '#e6e9ee', accentColor: '#4d8bff' }, 'dark');
