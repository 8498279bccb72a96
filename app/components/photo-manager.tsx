import { useRef, useState } from 'react';
import { Dropdown } from 'react-bootstrap';
import {
  ChevronLeft,
  ChevronRight,
  GripVertical,
  PlusLg,
  StarFill,
  ThreeDots,
  Trash3Fill,
} from 'react-bootstrap-icons';
import { Link, useRevalidator } from 'react-router';
import { api } from '#app/lib/api.ts';
import { ApiError } from '#app/lib/api-client.ts';
import { dropIndex, moveItem } from '#app/lib/photo-order.ts';
import { uploadPhoto } from '#app/lib/upload.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { OwnProfile } from '#contract/profiles.ts';
import { photoLimits } from '#contract/profiles.ts';

/** A press must travel this far before it counts as a drag (a tap on a tile stays a tap). */
const dragStartPx = 6;

/** The drag in progress; kept in a ref, so the pointer-up reads where the last move pointed, rendered or not. */
type Drag = {
  from: number;
  pointerId: number;
  startX: number;
  startY: number;
  moved: boolean;
  to: number | null;
  /**
   * Where the tiles were when the drag began: the dragged tile then moves under the pointer, so its
   * own box at that moment would always be the nearest. Measured with the page's scroll at the time.
   */
  boxes: DOMRect[];
  scrollX: number;
  scrollY: number;
};

/**
 * A photo's actions in one menu, so a small tile carries only the main-photo badge, the drag grip and
 * this button (a 40 px target); the menu is the keyboard's way to reorder, too.
 */
function PhotoMenu({
  number,
  total,
  disabled,
  onMakeMain,
  onEarlier,
  onLater,
  onDelete,
}: {
  number: number;
  total: number;
  disabled: boolean;
  onMakeMain?: () => void;
  onEarlier?: () => void;
  onLater?: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dropdown align="end" drop="up">
      <Dropdown.Toggle
        variant="light"
        className="photo-tile-menu"
        disabled={disabled}
        aria-label={t('profile:photos.menu', { number, total })}
        data-testid="photo-menu"
      >
        <ThreeDots aria-hidden="true" size={18} />
      </Dropdown.Toggle>
      <Dropdown.Menu popperConfig={{ strategy: 'fixed' }} className="photo-tile-actions">
        {onMakeMain && (
          <Dropdown.Item as="button" type="button" onClick={onMakeMain}>
            <StarFill aria-hidden="true" className="me-2" />
            {t('profile:photos.makeMain')}
          </Dropdown.Item>
        )}
        {onEarlier && (
          <Dropdown.Item as="button" type="button" onClick={onEarlier}>
            <ChevronLeft aria-hidden="true" className="me-2" />
            {t('discover:photos.moveEarlier', { number })}
          </Dropdown.Item>
        )}
        {onLater && (
          <Dropdown.Item as="button" type="button" onClick={onLater}>
            <ChevronRight aria-hidden="true" className="me-2" />
            {t('discover:photos.moveLater', { number })}
          </Dropdown.Item>
        )}
        {(onMakeMain || onEarlier || onLater) && <Dropdown.Divider />}
        <Dropdown.Item as="button" type="button" className="text-danger" onClick={onDelete}>
          <Trash3Fill aria-hidden="true" className="me-2" />
          {t('profile:photos.delete')}
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}

/**
 * The member's photos: upload with progress (re-encoded and EXIF-free on the server), make main,
 * delete, and reorder by dragging with mouse, finger or pen (pointer events; on touch from the grip,
 * so the page still scrolls over the photos) or from each photo's menu. At the limit the add tile
 * says what Premium gives instead of vanishing.
 */
export function PhotoManager({ profile }: { profile: OwnProfile }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const full = profile.photos.length >= profile.photo_limit;

  /** Runs one change; a failed answer shows its message (the API's, in the member's language). */
  const run = async (work: () => Promise<{ ok: true } | { ok: false; status: number; message: string }>) => {
    setBusy(true);
    setError(null);
    try {
      const result = await work();
      if (!result.ok) setError(result.status === 0 ? t('errors:internal_error') : result.message);
      await revalidator.revalidate();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : t('errors:internal_error'));
    } finally {
      setBusy(false);
      setPending(null);
    }
  };
  const call = async (
    answer: Promise<{ ok: true } | { ok: false; status: number; error: { message: string } }>,
  ) => {
    const result = await answer;
    return result.ok
      ? { ok: true as const }
      : { ok: false as const, status: result.status, message: result.error.message };
  };

  const [progress, setProgress] = useState<number | null>(null);
  const [target, setTarget] = useState<number | null>(null);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  /** The order just chosen, shown at once while it is saved (null: the profile's own order). */
  const [pending, setPending] = useState<number[] | null>(null);
  const drag = useRef<Drag | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const tiles = useRef<(HTMLLIElement | null)[]>([]);
  const photos = pending
    ? pending.flatMap((id) => profile.photos.filter((photo) => photo.id === id))
    : profile.photos;
  /** Moves the photo at `from` to `to` and saves the whole order (the first is the main photo). */
  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= photos.length) return;
    const order = moveItem(
      photos.map((photo) => photo.id),
      from,
      to,
    );
    setPending(order);
    void run(() => call(api('PUT /api/photo-order.php', { body: { photos: order } })));
  };
  const upload = (file: File) =>
    run(async () => {
      setProgress(0);
      try {
        await uploadPhoto(file, setProgress);
        return { ok: true };
      } finally {
        setProgress(null);
      }
    });

  const endDrag = () => {
    drag.current = null;
    setDragged(null);
    setTarget(null);
    setOffset({ x: 0, y: 0 });
  };
  const onPointerDown = (index: number) => (event: React.PointerEvent<HTMLLIElement>) => {
    if (busy || photos.length < 2 || event.button !== 0) return;
    const element = event.target instanceof Element ? event.target : null;
    // Touch drags start on the grip only (elsewhere the finger scrolls the page); buttons stay buttons.
    if (element?.closest('button, label')) return;
    if (event.pointerType !== 'mouse' && !element?.closest('.photo-tile-grip')) return;
    drag.current = {
      from: index,
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      moved: false,
      to: null,
      boxes: [],
      scrollX: 0,
      scrollY: 0,
    };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: React.PointerEvent<HTMLLIElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const x = event.clientX - current.startX;
    const y = event.clientY - current.startY;
    if (!current.moved && Math.hypot(x, y) < dragStartPx) return;
    if (!current.moved) {
      current.moved = true;
      current.boxes = photos.map(
        (_, index) => tiles.current[index]?.getBoundingClientRect() ?? new DOMRect(),
      );
      current.scrollX = window.scrollX;
      current.scrollY = window.scrollY;
      setDragged(current.from);
    }
    event.preventDefault();
    setOffset({ x, y });
    current.to = dropIndex(
      current.boxes,
      event.clientX + window.scrollX - current.scrollX,
      event.clientY + window.scrollY - current.scrollY,
    );
    setTarget(current.to);
  };
  const onPointerUp = (event: React.PointerEvent<HTMLLIElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    endDrag();
    if (current.moved && current.to !== null) move(current.from, current.to);
  };

  return (
    <section className="card mb-4" id="photos">
      <div className="card-body">
        <h2 className="h5 card-title">{t('profile:photos.heading')}</h2>
        {error && (
          <div className="alert alert-danger" role="alert">
            {error}
          </div>
        )}
        {photos.length > 1 && <p className="small text-body-secondary">{t('discover:photos.orderHint')}</p>}
        <ul className="photo-tiles" data-testid="own-photos">
          {photos.map((photo, index) => (
            <li
              key={photo.id}
              ref={(element) => {
                tiles.current[index] = element;
              }}
              className={`photo-tile ${dragged === index ? 'is-dragging' : ''} ${target === index && dragged !== null && dragged !== index ? 'is-target' : ''}`}
              style={dragged === index ? { transform: `translate(${offset.x}px, ${offset.y}px)` } : undefined}
              data-testid="own-photo"
              data-photo-id={photo.id}
              onPointerDown={onPointerDown(index)}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={endDrag}
              onLostPointerCapture={(event) => {
                if (drag.current?.pointerId === event.pointerId) endDrag();
              }}
            >
              <img
                src={photo.thumb_filename}
                alt={t('profile:photos.of', { number: index + 1, total: photos.length })}
                width={240}
                height={240}
                loading="lazy"
                draggable={false}
              />
              {index === 0 && (
                <span className="badge photo-tile-main" data-testid="main-photo-badge">
                  {t('profile:photos.main')}
                </span>
              )}
              {photo.status !== 'approved' && (
                // Screening or held: others do not see it yet; the reason is for the moderators.
                <span
                  className="badge photo-tile-review"
                  data-testid="photo-in-review"
                  title={t('profile:photos.inReviewHint')}
                >
                  {t('profile:photos.inReview')}
                  <span className="visually-hidden"> {t('profile:photos.inReviewHint')}</span>
                </span>
              )}
              <div className="photo-tile-bar">
                {photos.length > 1 ? (
                  <span className="photo-tile-grip" title={t('discover:photos.drag', { number: index + 1 })}>
                    <GripVertical aria-hidden="true" size={18} />
                  </span>
                ) : (
                  <span />
                )}
                <PhotoMenu
                  number={index + 1}
                  total={photos.length}
                  disabled={busy}
                  onMakeMain={
                    index > 0
                      ? () =>
                          void run(() =>
                            call(api('PUT /api/photos.php', { body: { photo: photo.id, main: true } })),
                          )
                      : undefined
                  }
                  onEarlier={index > 0 ? () => move(index, index - 1) : undefined}
                  onLater={index < photos.length - 1 ? () => move(index, index + 1) : undefined}
                  onDelete={() =>
                    void run(() => call(api('DELETE /api/photos.php', { body: { photo: photo.id } })))
                  }
                />
              </div>
            </li>
          ))}
          {full ? (
            <li className="photo-tile" data-testid="photo-limit-tile">
              {profile.photo_limit < photoLimits.premium ? (
                // Where the add tile was: what Premium gives (spec §5: free 3, premium 25).
                <Link to="/premium" className="photo-add photo-limit is-upsell">
                  <StarFill aria-hidden="true" size={20} />
                  {t('profile:photos.premiumUpTo', { count: photoLimits.premium })}
                </Link>
              ) : (
                <p className="photo-add photo-limit mb-0">
                  {t('profile:photos.full', { count: profile.photo_limit })}
                </p>
              )}
            </li>
          ) : (
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
        <p className="small text-body-secondary mb-0">
          {profile.photo_limit === photoLimits.free
            ? t('profile:photos.limitFree', { count: photoLimits.free, premium: photoLimits.premium })
            : t('profile:photos.limit', { count: profile.photo_limit })}{' '}
          {t('profile:photos.formats')}
        </p>
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
