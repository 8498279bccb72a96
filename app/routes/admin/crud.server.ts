import type { AppLoadContext } from 'react-router';

/**
 * The loader of a back-office list with its editor beside it: the items, the one `?edit=` names
 * (null for a new one), and whether the page opens right after creating it (`?saved=1`).
 */
export async function loadAdminList<Data, Item extends { id: number }>(
  context: AppLoadContext,
  request: Request,
  path: string,
  itemsOf: (data: Data) => Item[],
) {
  const result = await context.api<Data>(path);
  if (!result.ok) throw new Response(null, { status: result.status });
  const url = new URL(request.url);
  const edit = Number(url.searchParams.get('edit')) || null;
  const items = itemsOf(result.data);
  return {
    items,
    edit: items.find((item) => item.id === edit) ?? null,
    created: url.searchParams.get('saved') === '1',
  };
}

/** Saves an editor's form: a new item without an id (POST), the one with it (PUT). */
export function saveAdminItem<Answer>(
  context: AppLoadContext,
  path: string,
  id: number | string | undefined,
  body: Record<string, unknown>,
) {
  return context.api<Answer>(path, {
    method: id === undefined ? 'POST' : 'PUT',
    body: id === undefined ? body : { ...body, id },
  });
}
