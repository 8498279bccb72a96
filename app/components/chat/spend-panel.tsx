import { SpendChoice } from '#app/components/spend-choice.tsx';
import { giftName } from '#app/lib/gift-name.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Draft } from '#app/state/chat/convo.ts';
import type { ChatGift } from '#app/state/chat/thread-data.ts';
import type { SpendPanel as Panel } from '#app/state/chat/use-thread.ts';
import type { Photo } from '#contract/profiles.ts';
import { DevicePhoto } from './device-photo.tsx';
import { GiftArt } from './gift-art.tsx';

/** The spending choice above the composer: a gift, or a photo (from the device or the profile), each confirmed with its price. */
export function SpendPanel({
  panel,
  gifts,
  photos,
  photoCost,
  onSend,
}: {
  panel: Panel | null;
  gifts: ChatGift[];
  photos: Photo[];
  photoCost: number;
  onSend: (draft: Draft) => void;
}) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  if (panel === 'gift')
    return (
      <SpendChoice
        label={t('chat:composer.gift')}
        options={gifts}
        keyOf={(gift) => gift.id}
        costOf={(gift) => gift.credits}
        onSpend={(gift) => onSend({ kind: 'gift', gift: gift.id })}
        renderOption={(gift) => (
          <>
            <GiftArt slug={gift.slug} image={gift.image} size={40} />
            <span className="d-block small">{giftName(t, locale, gift)}</span>
          </>
        )}
      />
    );
  if (panel !== 'photo') return null;
  return (
    <>
      <DevicePhoto cost={photoCost} onSend={onSend} />
      {photos.length > 0 && (
        <SpendChoice
          label={t('chat:composer.photo')}
          options={photos}
          keyOf={(photo) => photo.id}
          costOf={() => photoCost}
          onSpend={(photo) => onSend({ kind: 'photo', photo: photo.id })}
          renderOption={(photo) => (
            <img
              src={photo.thumb_filename}
              alt={t('chat:photo.numbered', { number: photos.indexOf(photo) + 1 })}
              width={56}
              height={56}
              className="rounded object-fit-cover"
            />
          )}
        />
      )}
    </>
  );
}
