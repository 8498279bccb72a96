import type { ConvoItem } from '#app/state/chat/convo.ts';

/** Messages of one side within this time form one group of bubbles. */
const groupGapMs = 5 * 60_000;

export type Row =
  | { type: 'day'; key: string; label: string }
  | { type: 'item'; key: string; item: ConvoItem; mine: boolean; first: boolean; last: boolean };

export type ItemRow = Extract<Row, { type: 'item' }>;

export function createdAt(item: ConvoItem): string {
  return item.state === 'sent' ? item.message.created_at : item.createdAt;
}

/** Day separators and bubble groups over the conversation's items. */
export function rowsOf(items: ConvoItem[], dayOf: (value: string) => string): Row[] {
  const rows: Row[] = [];
  let lastDay = '';
  items.forEach((item, index) => {
    const at = createdAt(item);
    const day = dayOf(at);
    if (day !== lastDay) {
      rows.push({ type: 'day', key: `d${index}`, label: day });
      lastDay = day;
    }
    const mine = item.state !== 'sent' || item.message.mine;
    const near = (other: ConvoItem | undefined) =>
      other !== undefined &&
      (other.state !== 'sent' || other.message.mine) === mine &&
      Math.abs(new Date(createdAt(other)).getTime() - new Date(at).getTime()) < groupGapMs &&
      dayOf(createdAt(other)) === day;
    rows.push({
      type: 'item',
      key: item.key,
      item,
      mine,
      first: !near(items[index - 1]),
      last: !near(items[index + 1]),
    });
  });
  return rows;
}
