import { useEffect, useRef, useState } from 'react';
import { ChevronLeft, ChevronRight, LockFill, XLg } from 'react-bootstrap-icons';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Photo } from '#contract/profiles.ts';

const swipePx = 60;
const maxZoom = 4;

/**
 * Photos full screen: swipe or arrow keys between them, pinch (or double tap) to zoom, Escape or the
 * close button to leave. Focus stays inside while open and returns to the opener after.
 */
export function PhotoLightbox({
  photos,
  start,
  name,
  onClose,
}: {
  photos: Photo[];
  start: number;
  name: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(start);
  const [zoom, setZoom] = useState(1);
  const [shift, setShift] = useState({ x: 0, y: 0 });
  const dialog = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ startX: number; startY: number; distance: number; zoom: number; lastTap: number }>(
    {
      startX: 0,
      startY: 0,
      distance: 0,
      zoom: 1,
      lastTap: 0,
    },
  );
  const photo = photos[index];
  const count = photos.length;

  const go = (step: number) => {
    setIndex((current) => (current + step + count) % count);
    setZoom(1);
    setShift({ x: 0, y: 0 });
  };

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeButton.current?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      opener?.focus();
    };
  }, []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    } else if (event.key === 'ArrowRight') go(1);
    else if (event.key === 'ArrowLeft') go(-1);
    else if (event.key === 'Tab') {
      // Focus trap: cycle through the controls of the dialog.
      const focusable = [...(dialog.current?.querySelectorAll<HTMLElement>('button, a[href]') ?? [])];
      const first = focusable[0];
      const last = focusable.at(-1);
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  };

  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };

  if (!photo || typeof document === 'undefined') return null;
  return createPortal(
    <div
      ref={dialog}
      className="lightbox"
      role="dialog"
      aria-modal="true"
      aria-label={t('discover:lightbox.label', { name })}
      data-testid="lightbox"
      onKeyDown={onKeyDown}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      onPointerDown={(event) => {
        pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
        gesture.current.startX = event.clientX;
        gesture.current.startY = event.clientY;
        if (pointers.current.size === 2) {
          gesture.current.distance = distance();
          gesture.current.zoom = zoom;
        }
      }}
      onPointerMove={(event) => {
        if (!pointers.current.has(event.pointerId)) return;
        pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
        if (pointers.current.size === 2 && gesture.current.distance > 0) {
          setZoom(
            Math.min(maxZoom, Math.max(1, (gesture.current.zoom * distance()) / gesture.current.distance)),
          );
        } else if (pointers.current.size === 1 && zoom > 1) {
          setShift({ x: event.clientX - gesture.current.startX, y: event.clientY - gesture.current.startY });
        }
      }}
      onPointerUp={(event) => {
        const wasPinch = pointers.current.size > 1;
        pointers.current.delete(event.pointerId);
        if (wasPinch || zoom > 1 || (event.target as HTMLElement).closest('button, a')) return;
        const dx = event.clientX - gesture.current.startX;
        if (dx > swipePx) go(-1);
        else if (dx < -swipePx) go(1);
        else if (event.pointerType !== 'mouse') {
          const now = Date.now();
          if (now - gesture.current.lastTap < 300) setZoom(2);
          gesture.current.lastTap = now;
        }
      }}
      onPointerCancel={(event) => pointers.current.delete(event.pointerId)}
      onDoubleClick={() => {
        setZoom((current) => (current > 1 ? 1 : 2));
        setShift({ x: 0, y: 0 });
      }}
    >
      <img
        src={photo.filename}
        alt={t('profile:photos.of', { number: index + 1, total: count })}
        className="lightbox-image"
        draggable={false}
        style={{ transform: `translate(${shift.x}px, ${shift.y}px) scale(${zoom})` }}
        data-testid="lightbox-image"
      />
      {photo.locked && (
        <div className="lightbox-premium text-center text-white">
          <p className="mb-2">
            <LockFill aria-hidden="true" className="me-1" />
            {t('profile:photos.premiumHint')}
          </p>
          <Link to="/premium" className="btn btn-primary">
            {t('discover:photos.unlock')}
          </Link>
        </div>
      )}
      <button
        ref={closeButton}
        type="button"
        className="lightbox-control lightbox-close"
        onClick={onClose}
        aria-label={t('discover:close')}
      >
        <XLg aria-hidden="true" size={22} />
      </button>
      {count > 1 && (
        <>
          <button
            type="button"
            className="lightbox-control lightbox-prev"
            onClick={() => go(-1)}
            aria-label={t('discover:lightbox.previous')}
          >
            <ChevronLeft aria-hidden="true" size={24} />
          </button>
          <button
            type="button"
            className="lightbox-control lightbox-next"
            onClick={() => go(1)}
            aria-label={t('discover:lightbox.next')}
          >
            <ChevronRight aria-hidden="true" size={24} />
          </button>
        </>
      )}
      <p className="lightbox-count mb-0" aria-live="polite" data-testid="lightbox-count">
        {t('profile:photos.of', { number: index + 1, total: count })}
      </p>
    </div>,
    document.body,
  );
}
