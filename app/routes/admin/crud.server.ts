/** A back-office list as the typed client answers it (app/lib/staff-api.server.ts). */
type ListAnswer<Data> = { ok: true; data: Data } | { ok: false; status: number };

/**
 * The loader of a back-office list with its editor beside it: the items, the one `?edit=` names
 * (null for a new one), and whether the page opens right after creating it (`?saved=1`).
 */
export async function loadAdminList<Data, Item extends { id: number }>(
  request: Request,
  answer: Promise<ListAnswer<Data>>,
  itemsOf: (data: Data) => Item[],
) {
  const result = await answer;
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
