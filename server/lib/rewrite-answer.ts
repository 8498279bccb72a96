/**
 * Rewrites an API answer's plain objects before it is serialized, copying where something changes
 * and never changing the answer in place (a service may keep parts of it in a cache). An object that
 * appears several times in one answer is rewritten once: an operator's queue repeats the same
 * fictional profile on each of its rows, and walking each copy again was a share of the queue's time
 * that grew with its length (bench/operators.ts, 2026-12-04).
 */

const maxDepth = 8;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `change(node)` is asked about every plain object (before its children are walked) and answers the
 * fields to replace, or undefined to keep it as it is.
 */
export function rewriteAnswer(
  value: unknown,
  change: (node: Record<string, unknown>) => Record<string, unknown> | undefined,
): unknown {
  const done = new Map<object, unknown>();
  const walk = (item: unknown, depth: number): unknown => {
    if (depth > maxDepth || typeof item !== 'object' || item === null) return item;
    if (done.has(item)) return done.get(item);
    let result: unknown = item;
    if (Array.isArray(item)) {
      let changed = false;
      const items = item.map((entry) => {
        const next = walk(entry, depth + 1);
        if (next !== entry) changed = true;
        return next;
      });
      if (changed) result = items;
    } else if (isPlainObject(item)) {
      const fields = change(item);
      let copy: Record<string, unknown> | undefined = fields ? { ...item, ...fields } : undefined;
      for (const [key, entry] of Object.entries(item)) {
        if (typeof entry !== 'object' || entry === null) continue;
        const next = walk(entry, depth + 1);
        if (next !== entry) {
          copy ??= { ...item };
          copy[key] = next;
        }
      }
      if (copy) result = copy;
    }
    done.set(item, result);
    return result;
  };
  return walk(value, 0);
}
