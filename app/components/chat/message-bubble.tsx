import type { ConvoView } from '#app/state/chat/convo.ts';
import type { ChatGift } from '#app/state/chat/thread-data.ts';
import { MessageBody } from './message-body.tsx';
import { MessageFailure } from './message-failure.tsx';
import { MessageMeta } from './message-meta.tsx';
import type { ItemRow } from './message-rows.ts';

/** The corners a bubble rounds: tight where it touches the bubbles of the same group. */
function radiusOf({ mine, first, last }: ItemRow): string {
  return mine
    ? `1rem ${first ? '1rem' : '.35rem'} ${last ? '1rem' : '.35rem'} 1rem`
    : `${first ? '1rem' : '.35rem'} 1rem 1rem ${last ? '1rem' : '.35rem'}`;
}

/** One message: mine on the right, the partner's on the left, with its state (sending, sent, read, failed). */
export function MessageBubble({ row, view, gifts }: { row: ItemRow; view: ConvoView; gifts: ChatGift[] }) {
  const { item, mine } = row;
  return (
    <li
      className={`d-flex ${mine ? 'justify-content-end' : 'justify-content-start'} ${row.last ? 'mb-2' : 'mb-1'}`}
      data-testid="chat-message"
      data-state={item.state}
    >
      <div style={{ maxWidth: 'min(78%, 32rem)' }}>
        <div
          className={`chat-bubble px-3 py-2 ${mine ? 'bg-primary text-white' : 'bg-body-secondary'} ${item.state === 'pending' ? 'opacity-75' : ''}`}
          style={{ borderRadius: radiusOf(row), maxWidth: '100%' }}
        >
          <MessageBody item={item} gifts={gifts} />
        </div>
        {(row.last || item.state !== 'sent') && <MessageMeta row={row} readUpTo={view.readUpTo} />}
        {item.state === 'failed' && <MessageFailure item={item} view={view} />}
      </div>
    </li>
  );
}
