import { useRef, useState } from 'react';
import { ChevronLeft, ChevronRight, PlusLg, StarFill, Trash3Fill } from 'react-bootstrap-icons';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router';
import type { OwnProfile } from '#contract/profiles.ts';
import { photoLimits } from '#contract/profiles.ts';
import { ApiError, apiFetch } from '../lib/api-client.ts';
import { uploadPhoto } from '../lib/upload.ts';

/** The member's photos: upload (re-encoded and EXIF-free on the server), make main, delete. */
export function PhotoManager({ profile }: { profile: OwnProfile }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const full = profile.photos.length >= profile.photo_limit;

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      await revalidator.revalidate();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : t('errors:internal_error'));
    } finally {
      setBusy(false);
    }
  };

  const [progress, setProgress] = useState<number | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const [target, setTarget] = useState<number | null>(null);
  const ids = profile.photos.map((photo) => photo.id);
  /** Moves the photo at `from` to `to` and saves the whole order (the first is the main photo). */
  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= ids.length) return;
    const order = [...ids];
    const [moved] = order.splice(from, 1);
    if (moved === undefined) return;
    order.splice(to, 0, moved);
    void run(() => apiFetch('/api/photo-order.php', { method: 'PUT', body: { photos: order } }));
  };
  const upload = (file: File) =>
    run(async () => {
      setProgress(0);
      try {
        await uploadPhoto(file, setProgress);
      } finally {
        setProgress(null);
      }
    });

  return (
    <section className="card mb-4" id="photos">
      <div className="card-body">
        <h2 className="h5 card-title">{t('profile:photos.heading')}</h2>
        <p className="small text-body-secondary">
          {profile.photo_limit === photoLimits.free
            ? t('profile:photos.limitFree', { count: photoLimits.free, premium: photoLimits.premium })
            : t('profile:photos.limit', { count: profile.photo_limit })}{' '}
          {t('profile:photos.formats')}
        </p>
        {error && (
          <div className="alert alert-danger" role="alert">
            {error}
          </div>
        )}
        {profile.photos.length > 1 && (
          <p className="small text-body-secondary">{t('discover:photos.orderHint')}</p>
        )}
        <ul className="photo-tiles" data-testid="own-photos">
          {profile.photos.map((photo, index) => (
            <li
              key={photo.id}
              className={`photo-tile ${dragged === index ? 'is-dragging' : ''} ${target === index && dragged !== index ? 'is-target' : ''}`}
              draggable={!busy}
              onDragStart={(event) => {
                setDragged(index);
                event.dataTransfer.effectAllowed = 'move';
              }}
              onDragOver={(event) => {
                event.preventDefault();
                setTarget(index);
              }}
              onDragEnd={() => {
                setDragged(null);
                setTarget(null);
              }}
              onDrop={(event) => {
                event.preventDefault();
                if (dragged !== null) move(dragged, index);
                setDragged(null);
                setTarget(null);
              }}
            >
              <img
                src={photo.thumb_filename}
                alt=""
                width={240}
                height={240}
                loading="lazy"
                draggable={false}
              />
              {index === 0 && (
                <span className="badge text-bg-primary photo-tile-main">{t('profile:photos.main')}</span>
              )}
              <div className="photo-tile-tools">
                {index === 0 ? (
                  <span />
                ) : (
                  <button
                    type="button"
                    className="btn btn-sm btn-light"
                    disabled={busy}
                    aria-label={`${t('profile:photos.makeMain')} (${t('profile:photos.of', { number: index + 1, total: profile.photos.length })})`}
                    title={t('profile:photos.makeMain')}
                    onClick={() =>
                      void run(() =>
                        apiFetch('/api/photos.php', {
                          method: 'PUT',
                          body: { photo: photo.id, main: true },
                        }),
                      )
                    }
                  >
                    <StarFill aria-hidden="true" />
                  </button>
                )}
                {index > 0 && (
                  <button
                    type="button"
                    className="btn btn-sm btn-light"
                    disabled={busy}
                    aria-label={t('discover:photos.moveEarlier', { number: index + 1 })}
                    title={t('discover:photos.moveEarlier', { number: index + 1 })}
                    onClick={() => move(index, index - 1)}
                  >
                    <ChevronLeft aria-hidden="true" />
                  </button>
                )}
                {index < profile.photos.length - 1 && (
                  <button
                    type="button"
                    className="btn btn-sm btn-light"
                    disabled={busy}
                    aria-label={t('discover:photos.moveLater', { number: index + 1 })}
                    title={t('discover:photos.moveLater', { number: index + 1 })}
                    onClick={() => move(index, index + 1)}
                  >
                    <ChevronRight aria-hidden="true" />
                  </button>
                )}
                <button
                  type="button"
                  className="btn btn-sm btn-light text-danger"
                  disabled={busy}
                  aria-label={`${t('profile:photos.delete')} (${t('profile:photos.of', { number: index + 1, total: profile.photos.length })})`}
                  title={t('profile:photos.delete')}
                  onClick={() =>
                    void run(() =>
                      apiFetch('/api/photos.php', { method: 'DELETE', body: { photo: photo.id } }),
                    )
                  }
                >
                  <Trash3Fill aria-hidden="true" />
                </button>
              </div>
            </li>
          ))}
          {!full && (
            <li className="photo-tile">
              <label className={`photo-add ${busy ? 'disabled' : ''}`} htmlFor="photo-upload">
                <PlusLg aria-hidden="true" size={22} />
                {busy ? t('profile:photos.uploading') : t('profile:photos.add')}
              </label>
            </li>
          )}
        </ul>
        {progress !== null && (
          <div
            className="progress mb-3"
            role="progressbar"
            aria-label={t('discover:photos.progress')}
            aria-valuenow={progress}
            aria-valuemin={0}
            aria-valuemax={100}
            data-testid="upload-progress"
          >
            <div className="progress-bar" style={{ width: `${progress}%` }} />
          </div>
        )}
        <input
          ref={input}
          id="photo-upload"
          type="file"
          accept="image/jpeg,image/png,image/webp,image/heic,image/heif"
          className="visually-hidden"
          disabled={full || busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void upload(file);
            event.target.value = '';
          }}
        />
      </div>
    </section>
  );
}
