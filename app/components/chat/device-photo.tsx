import { useState } from 'react';
import { Camera } from 'react-bootstrap-icons';
import { SpendCost } from '#app/components/spend-choice.tsx';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Draft } from '#app/state/chat/convo.ts';

type UploadDraft = Extract<Draft, { kind: 'upload' }>;

/**
 * A photo from the device (camera or gallery): picking shows it with its price, and only the
 * confirming tap sends it. The server re-encodes it (EXIF gone) for this message only; it never
 * becomes a profile photo.
 */
export function DevicePhoto({ cost, onSend }: { cost: number; onSend: (draft: UploadDraft) => void }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<UploadDraft | null>(null);
  return (
    <div className="mb-2">
      <label className="btn btn-outline-secondary btn-sm device-photo">
        <Camera aria-hidden="true" className="me-1" />
        {t('chat:photo.upload')}
        <input
          type="file"
          accept="image/*"
          className="visually-hidden"
          data-testid="device-photo-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (!file) return;
            if (picked) URL.revokeObjectURL(picked.preview);
            setPicked({ kind: 'upload', file, preview: URL.createObjectURL(file) });
          }}
        />
      </label>
      {picked && (
        <div className="d-flex align-items-center gap-2 mt-2" data-testid="device-photo-picked">
          <img
            src={picked.preview}
            alt={t('chat:photo.option')}
            width={56}
            height={56}
            className="rounded object-fit-cover"
          />
          <SpendCost credits={cost} />
          <button
            type="button"
            className="btn btn-primary btn-sm"
            data-testid="spend-confirm"
            onClick={() => {
              setPicked(null);
              onSend(picked);
            }}
          >
            {cost === 0 ? t('credits:spend.sendFree') : t('credits:spend.confirm', { count: cost })}
          </button>
          <button
            type="button"
            className="btn btn-link btn-sm"
            onClick={() => {
              URL.revokeObjectURL(picked.preview);
              setPicked(null);
            }}
          >
            {t('credits:spend.cancel')}
          </button>
        </div>
      )}
    </div>
  );
}
