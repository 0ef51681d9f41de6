/**
 * The order of a workspace's columns as the user arranged them, kept as every catalogue field (hidden ones
 * too), so a column hidden and shown again comes back where the user had put it. Pure, so the rules are
 * tested without a grid.
 */

/**
 * Every catalogue field in the saved order: saved fields the catalogue no longer has are dropped, and
 * fields the saved order does not name (new in the catalogue) follow in catalogue order.
 */
export function orderedFields(catalogue: readonly string[], saved: readonly string[] | undefined): string[] {
  const known = new Set(catalogue);
  const kept = [...new Set(saved ?? [])].filter((field) => known.has(field));
  const placed = new Set(kept);
  return [...kept, ...catalogue.filter((field) => !placed.has(field))];
}

/**
 * The full order after the user dragged the shown columns into `shown`: the shown fields take the places
 * shown fields held, in their new order, and hidden fields stay where they were.
 */
export function movedInto(order: readonly string[], shown: readonly string[]): string[] {
  const moving = new Set(shown);
  const next = [...shown].filter((field) => order.includes(field));
  let index = 0;
  return order.map((field) => {
    if (!moving.has(field)) return field;
    const placed = next[index] ?? field;
    index += 1;
    return placed;
  });
}
