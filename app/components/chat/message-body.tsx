import { giftName } from '#app/lib/gift-name.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { ConvoItem } from '#app/state/chat/convo.ts';
import type { ChatGift } from '#app/state/chat/thread-data.ts';
import { GiftArt } from './gift-art.tsx';

/** What a bubble shows: the text, the photo (sent, or being uploaded), or the gift. */
export function MessageBody({ item, gifts }: { item: ConvoItem; gifts: ChatGift[] }) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const message = item.state === 'sent' ? item.message : null;
  const draft = item.state === 'sent' ? null : item.draft;
  const draftGift = draft?.kind === 'gift' ? gifts.find((gift) => gift.id === draft.gift) : undefined;
  if (message?.kind === 'text' || draft?.kind === 'text') {
    return (
      <p className="mb-0 chat-text">{message ? message.text : draft?.kind === 'text' ? draft.text : ''}</p>
    );
  }
  if (message?.kind === 'photo' && message.photo) {
    return (
      <img
        src={message.photo.thumb_filename}
        alt={t('chat:list.photo')}
        width={180}
        height={180}
        className="rounded object-fit-cover"
        loading="lazy"
      />
    );
  }
  if (draft?.kind === 'upload') {
    return (
      <img
        src={draft.preview}
        alt={t('chat:list.photo')}
        width={180}
        height={180}
        className="rounded object-fit-cover"
      />
    );
  }
  if (draft?.kind === 'photo') return <span>{t('chat:list.photo')}</span>;
  const gift = message?.gift ?? draftGift;
  if (!gift) return null;
  return (
    <span className="d-flex align-items-center gap-2">
      <GiftArt slug={gift.slug} image={gift.image} />
      {giftName(t, locale, gift)}
    </span>
  );
}
