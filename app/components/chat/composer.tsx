import { Gift, Image } from 'react-bootstrap-icons';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { SpendPanel } from '#app/state/chat/use-thread.ts';

/** The text to send (Enter sends, Shift+Enter breaks the line), with the gift and photo choices beside it. */
export function Composer({
  partner,
  text,
  panel,
  canReply,
  onEdit,
  onSubmit,
  onTogglePanel,
}: {
  /** The partner's name. */
  partner: string;
  text: string;
  panel: SpendPanel | null;
  canReply: boolean;
  onEdit: (text: string) => void;
  onSubmit: () => void;
  onTogglePanel: (panel: SpendPanel) => void;
}) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  return (
    <form
      className="d-flex gap-2 align-items-end"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <button
        type="button"
        className="btn btn-outline-secondary"
        onClick={() => onTogglePanel('gift')}
        aria-label={t('chat:composer.gift')}
        aria-pressed={panel === 'gift'}
        disabled={!canReply}
      >
        <Gift aria-hidden="true" />
      </button>
      <button
        type="button"
        className="btn btn-outline-secondary"
        onClick={() => onTogglePanel('photo')}
        aria-label={t('chat:composer.photo')}
        aria-pressed={panel === 'photo'}
        disabled={!canReply}
      >
        <Image aria-hidden="true" />
      </button>
      <label htmlFor="chat-text" className="visually-hidden">
        {t('chat:composer.label', { name: partner })}
      </label>
      <textarea
        id="chat-text"
        className="form-control"
        rows={1}
        value={text}
        placeholder={t('chat:composer.placeholder')}
        maxLength={settings.message_length}
        disabled={!canReply}
        onChange={(event) => onEdit(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            onSubmit();
          }
        }}
      />
      <button type="submit" className="btn btn-primary" disabled={!text.trim() || !canReply}>
        {t('chat:composer.send')}
      </button>
    </form>
  );
}
