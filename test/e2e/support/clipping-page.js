/* global document, getComputedStyle, NodeFilter, HTMLInputElement, HTMLSelectElement */
/**
 * Runs in the page (clipping.ts sends it as it is written, so it is plain JavaScript): what the layout cuts
 * off without saying so under the element matching `rootSelector`, as sentences.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by clipping.ts after this source
function findClipping(rootSelector) {
  const root = document.querySelector(rootSelector);
  if (!root) return [`nothing on screen matches ${rootSelector}`];
  const findings = [];
  const slack = 1;
  const visible = (element) =>
    element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
    !element.closest('.visually-hidden');
  const name = (element) => {
    const label = element.getAttribute('aria-label') ?? '';
    const classes = typeof element.className === 'string' ? element.className.split(' ')[0] : '';
    return `<${element.tagName.toLowerCase()}${classes ? ` .${classes}` : ''}${label ? ` "${label}"` : ''}>`;
  };
  const scrolls = (overflow) => overflow === 'auto' || overflow === 'scroll';
  // A grid scrolls its rows and columns by script inside boxes that hide overflow: text beyond them is
  // scrolled away, not cut. Inside a grid only a cell or a header cell cuts text.
  const scrolledByGrid = (box) =>
    box.closest('.ag-root-wrapper') !== null && box.closest('.ag-cell, .ag-header-cell') === null;
  const normal = (text) => text.replace(/\s+/g, ' ').trim();

  // Text cut by a box that hides its overflow.
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = normal(node.textContent ?? '');
    const parent = node.parentElement;
    if (text === '' || !parent || !visible(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
    if (rects.length === 0) continue;
    const left = Math.min(...rects.map((rect) => rect.left));
    const right = Math.max(...rects.map((rect) => rect.right));
    const top = Math.min(...rects.map((rect) => rect.top));
    const bottom = Math.max(...rects.map((rect) => rect.bottom));
    for (let box = parent; box && box !== document.documentElement; box = box.parentElement) {
      const style = getComputedStyle(box);
      const hidesX = style.overflowX !== 'visible' && !scrolls(style.overflowX);
      const hidesY = style.overflowY !== 'visible' && !scrolls(style.overflowY);
      if ((!hidesX && !hidesY) || scrolledByGrid(box)) continue;
      const edge = box.getBoundingClientRect();
      // A box a pixel or two across hides its text on purpose, for screen readers only.
      if (edge.width <= 2 || edge.height <= 2) break;
      const inner = {
        left: edge.left + parseFloat(style.borderLeftWidth),
        right: edge.right - parseFloat(style.borderRightWidth),
        top: edge.top + parseFloat(style.borderTopWidth),
        bottom: edge.bottom - parseFloat(style.borderBottomWidth),
      };
      const cutX = hidesX && (left < inner.left - slack || right > inner.right + slack);
      const cutY = hidesY && (top < inner.top - slack || bottom > inner.bottom + slack);
      // Text wholly outside the box is not on screen at all (a row scrolled away), not cut.
      const outside =
        right <= inner.left || left >= inner.right || bottom <= inner.top || top >= inner.bottom;
      if ((!cutX && !cutY) || outside) continue;
      // An ellipsis is drawn by the box that hides the overflow, over text laid out inline inside it.
      let inline = true;
      for (let between = parent; between && between !== box; between = between.parentElement) {
        if (getComputedStyle(between).display !== 'inline') inline = false;
      }
      const ellipsis = !cutY && inline && style.textOverflow === 'ellipsis';
      const title = normal(parent.closest('[title]')?.getAttribute('title') ?? '');
      if (!ellipsis || !title.includes(text)) {
        findings.push(
          `"${text}" is cut by ${name(box)}${ellipsis ? '' : ' without an ellipsis'}${
            title.includes(text) ? '' : ' and no tooltip holds it'
          }`,
        );
      }
      break;
    }
  }

  // Content that spills out of its box.
  for (const element of root.querySelectorAll('*')) {
    if (!visible(element) || element.closest('.ag-root-wrapper, svg')) continue;
    const style = getComputedStyle(element);
    if (style.overflowX !== 'visible' || style.display === 'inline' || style.display === 'contents') continue;
    if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement) continue;
    if (element.clientWidth > 0 && element.scrollWidth > element.clientWidth + slack) {
      findings.push(
        `${name(element)} holds content ${element.scrollWidth - element.clientWidth} px wider than itself`,
      );
    }
  }

  // Field values wider than their fields.
  for (const input of root.querySelectorAll('input[type="text"], input[type="search"]')) {
    if (!visible(input) || input.value === '') continue;
    if (input.scrollWidth > input.clientWidth + slack) {
      findings.push(`the value "${input.value}" of ${name(input)} is wider than the field`);
    }
  }
  return findings;
}
