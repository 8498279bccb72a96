import { useEffect, useLayoutEffect, useRef } from 'react';
import { Gift, Image, SendFill } from 'react-bootstrap-icons';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { SpendPanel } from '#app/state/chat/use-thread.ts';

/** The box grows with the text up to about five lines, then scrolls. */
const maxHeightPx = 132;

// useLayoutEffect warns when rendered on the server; the height only matters in the browser.
const useBrowserLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * The text to send (Enter sends, Shift+Enter breaks the line) in a rounded box that grows with it,
 * the gift and photo choices as icons beside it and a round send button: room for the text on a
 * 390 px phone. It takes the focus when the conversation opens, so a keyboard can type at once;
 * not on a touch screen, where that would open the on-screen keyboard over the conversation.
 */
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
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (!canReply || window.matchMedia('(pointer: coarse)').matches) return;
    box.current?.focus({ preventScroll: true });
  }, [canReply]);

  // Measured again whenever the text changes: the height follows it.
  useBrowserLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, maxHeightPx)}px`;
  }, [text]);

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <button
        type="button"
        className="composer-tool"
        onClick={() => onTogglePanel('gift')}
        aria-label={t('chat:composer.gift')}
        aria-pressed={panel === 'gift'}
        disabled={!canReply}
      >
        <Gift aria-hidden="true" size={20} />
      </button>
      <button
        type="button"
        className="composer-tool"
        onClick={() => onTogglePanel('photo')}
        aria-label={t('chat:composer.photo')}
        aria-pressed={panel === 'photo'}
        disabled={!canReply}
      >
        <Image aria-hidden="true" size={20} />
      </button>
      <label htmlFor="chat-text" className="visually-hidden">
        {t('chat:composer.label', { name: partner })}
      </label>
      <textarea
        ref={box}
        id="chat-text"
        className="composer-input"
        rows={1}
        value={text}
        placeholder={t('chat:composer.placeholder')}
        maxLength={settings.message_length}
        disabled={!canReply}
        enterKeyHint="send"
        onChange={(event) => onEdit(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            onSubmit();
          }
        }}
      />
      <button
        type="submit"
        className="composer-send"
        disabled={!text.trim() || !canReply}
        aria-label={t('chat:composer.send')}
      >
        <SendFill aria-hidden="true" size={18} />
      </button>
    </form>
  );
}
