import { Check2, CheckAll, Clock } from 'react-bootstrap-icons';
import { useDates } from '#app/lib/format.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { createdAt, type ItemRow } from './message-rows.ts';

/** Under a group's last bubble (or one not sent yet): the time, "sending", or sent and read ticks. */
export function MessageMeta({ row, readUpTo }: { row: ItemRow; readUpTo: number }) {
  const { t } = useTranslation();
  const dates = useDates();
  const { item, mine } = row;
  const message = item.state === 'sent' ? item.message : null;
  const read = message !== null && mine && message.id <= readUpTo;
  return (
    <small
      className={`d-flex align-items-center gap-1 mt-1 text-body-secondary ${mine ? 'justify-content-end' : ''}`}
    >
      <time dateTime={createdAt(item)} suppressHydrationWarning>
        {dates.time(createdAt(item))}
      </time>
      {item.state === 'pending' && (
        <span data-testid="message-pending">
          <Clock aria-hidden="true" /> {t('chat:status.sending')}
        </span>
      )}
      {message && mine && (
        <span data-testid={read ? 'message-read' : 'message-sent'} className={read ? 'text-primary' : ''}>
          {read ? <CheckAll aria-hidden="true" /> : <Check2 aria-hidden="true" />}
          <span className="visually-hidden">{read ? t('chat:read') : t('chat:sent')}</span>
        </span>
      )}
    </small>
  );
}
