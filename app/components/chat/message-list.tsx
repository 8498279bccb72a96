import { useEffect, useRef } from 'react';
import { useDates } from '#app/lib/format.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { ConvoView } from '#app/state/chat/convo.ts';
import type { ChatGift } from '#app/state/chat/thread-data.ts';
import { MessageBubble } from './message-bubble.tsx';
import { rowsOf } from './message-rows.ts';

/** The scrolling thread: older messages on demand, a separator per day, the partner typing at the end. */
export function MessageList({
  view,
  gifts,
  partner,
  typing,
}: {
  view: ConvoView;
  gifts: ChatGift[];
  /** The partner's name. */
  partner: string;
  typing: boolean;
}) {
  const { t } = useTranslation();
  const dates = useDates();
  const list = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: stay at the newest message whenever one is added.
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [view.items.length, view.inReview.length]);
  const rows = rowsOf(view.items, (value) => dates.day(value));
  return (
    <div ref={list} className="flex-grow-1 overflow-auto px-3 pt-2 pb-3" data-testid="chat-scroller">
      {view.status === 'ready' && view.hasOlder && (
        <div className="text-center mb-2">
          <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => view.loadOlder()}>
            {t('chat:older')}
          </button>
        </div>
      )}
      {view.items.length === 0 && view.inReview.length === 0 && (
        <p className="text-center text-body-secondary mt-4">{t('chat:empty', { name: partner })}</p>
      )}
      <ol className="list-unstyled mb-0" aria-live="polite">
        {rows.map((row) =>
          row.type === 'day' ? (
            <li key={row.key} className="text-center my-2">
              <span className="badge rounded-pill text-bg-light fw-normal" suppressHydrationWarning>
                {row.label}
              </span>
            </li>
          ) : (
            <MessageBubble key={row.key} row={row} view={view} gifts={gifts} />
          ),
        )}
      </ol>
      {view.inReview.length > 0 && (
        <ul className="list-unstyled mb-0" data-testid="photos-in-review">
          {view.inReview.map((photo) => (
            <li key={photo.id} className="d-flex justify-content-end mb-2" data-testid="photo-in-review">
              <figure className="mb-0 text-end">
                <img
                  src={photo.thumb_filename}
                  alt={t('chat:inReview.alt')}
                  className="rounded opacity-50"
                  width={120}
                  height={120}
                  style={{ objectFit: 'cover' }}
                />
                <figcaption className="small text-body-secondary">{t('chat:inReview.caption')}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
      {typing && (
        <p className="small text-body-secondary fst-italic mb-0">{t('chat:typing', { name: partner })}</p>
      )}
    </div>
  );
}
