/** The list with the item at `from` moved to `to` (the others keep their order); unchanged if out of range. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const order = [...items];
  const [moved] = order.splice(from, 1);
  if (moved === undefined) return [...items];
  order.splice(to, 0, moved);
  return order;
}

type Box = { left: number; top: number; right: number; bottom: number };

/**
 * Where a dragged tile lands: the index of the tile under the point, else of the nearest tile (a
 * finger lifted in the gap between two tiles still counts), or null with no tiles at all.
 */
export function dropIndex(boxes: readonly Box[], x: number, y: number): number | null {
  let best: number | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [index, box] of boxes.entries()) {
    const dx = x < box.left ? box.left - x : x > box.right ? x - box.right : 0;
    const dy = y < box.top ? box.top - y : y > box.bottom ? y - box.bottom : 0;
    const distance = Math.hypot(dx, dy);
    if (distance < bestDistance) {
      best = index;
      bestDistance = distance;
    }
  }
  return best;
}
