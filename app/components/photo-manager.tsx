import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router';
import type { OwnProfile } from '#contract/profiles.ts';
import { photoLimits } from '#contract/profiles.ts';
import { ApiError, apiFetch } from '../lib/api-client.ts';

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

  const upload = (file: File) =>
    run(async () => {
      const body = new FormData();
      body.append('file', file);
      const response = await fetch('/api/photos.php', { method: 'POST', body, credentials: 'same-origin' });
      if (!response.ok) throw new ApiError(response.status, await response.json());
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
        <ul className="row row-cols-3 row-cols-md-5 g-2 list-unstyled" data-testid="own-photos">
          {profile.photos.map((photo, index) => (
            <li key={photo.id} className="col">
              <div className="card h-100">
                <img
                  src={photo.thumb_filename}
                  alt=""
                  width={240}
                  height={240}
                  loading="lazy"
                  className="card-img-top object-fit-cover"
                />
                <div className="card-body p-1 d-grid gap-1">
                  {index === 0 ? (
                    <span className="badge text-bg-primary">{t('profile:photos.main')}</span>
                  ) : (
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-primary"
                      disabled={busy}
                      onClick={() =>
                        void run(() =>
                          apiFetch('/api/photos.php', {
                            method: 'PUT',
                            body: { photo: photo.id, main: true },
                          }),
                        )
                      }
                    >
                      {t('profile:photos.makeMain')}
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-danger"
                    disabled={busy}
                    onClick={() =>
                      void run(() =>
                        apiFetch('/api/photos.php', { method: 'DELETE', body: { photo: photo.id } }),
                      )
                    }
                  >
                    {t('profile:photos.delete')}
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
        <label className={`btn btn-primary ${full || busy ? 'disabled' : ''}`} htmlFor="photo-upload">
          {busy ? t('profile:photos.uploading') : t('profile:photos.add')}
        </label>
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
