import type { ReactNode } from 'react';

/** Our own drawings of the gifts, one per slug, so a rose is a rose. */
const art: Record<string, ReactNode> = {
  rose: (
    <>
      <path d="M32 34v24" stroke="#15803d" strokeWidth="3" strokeLinecap="round" />
      <path d="M32 48c-6-6-14-4-16 0 6 4 12 4 16 0zM32 44c5-6 12-5 14-1-5 4-10 4-14 1z" fill="#16a34a" />
      <path d="M20 20c0-9 6-14 12-14s12 5 12 14c0 9-6 14-12 14s-12-5-12-14z" fill="#e11d48" />
      <path
        d="M26 16c2-4 10-5 12 0-2 5-10 6-12 0zM24 24c4 4 12 4 16 0"
        stroke="#9f1239"
        strokeWidth="2"
        fill="none"
      />
    </>
  ),
  heart: <path d="M32 56C10 40 6 28 12 18c6-9 17-7 20 2 3-9 14-11 20-2 6 10 2 22-20 38z" fill="#db2777" />,
  champagne: (
    <>
      <path d="M24 6h16l-2 20a6 6 0 0 1-12 0z" fill="#fde68a" stroke="#ca8a04" strokeWidth="2" />
      <path d="M32 32v18M24 56h16" stroke="#ca8a04" strokeWidth="3" strokeLinecap="round" />
      <circle cx="30" cy="14" r="1.5" fill="#fff" />
      <circle cx="34" cy="19" r="1.5" fill="#fff" />
    </>
  ),
  chocolate: (
    <>
      <rect x="10" y="14" width="44" height="36" rx="4" fill="#7c2d12" />
      <path d="M10 26h44M10 38h44M24 14v36M40 14v36" stroke="#451a03" strokeWidth="2" />
      <path d="M10 50l10-12h34v12z" fill="#dc2626" opacity=".85" />
    </>
  ),
  teddy: (
    <>
      <circle cx="18" cy="16" r="7" fill="#a16207" />
      <circle cx="46" cy="16" r="7" fill="#a16207" />
      <circle cx="32" cy="26" r="14" fill="#ca8a04" />
      <ellipse cx="32" cy="48" rx="14" ry="12" fill="#a16207" />
      <circle cx="27" cy="23" r="2" fill="#1c1917" />
      <circle cx="37" cy="23" r="2" fill="#1c1917" />
      <ellipse cx="32" cy="30" rx="5" ry="4" fill="#fde68a" />
      <circle cx="32" cy="29" r="1.6" fill="#1c1917" />
    </>
  ),
  ring: (
    <>
      <circle cx="32" cy="40" r="16" fill="none" stroke="#eab308" strokeWidth="5" />
      <path d="M24 14l8-8 8 8-8 10z" fill="#7dd3fc" stroke="#0ea5e9" strokeWidth="2" />
    </>
  ),
  kiss: (
    <>
      <path d="M8 32c6-8 14-10 24-4 10-6 18-4 24 4-8 2-16 2-24 0-8 2-16 2-24 0z" fill="#be123c" />
      <path d="M8 32c8 10 16 12 24 12s16-2 24-12c-8 2-16 3-24 1-8 2-16 1-24-1z" fill="#e11d48" />
    </>
  ),
  star: (
    <path
      d="M32 6l7 17 18 1-14 12 5 18-16-10-16 10 5-18L7 24l18-1z"
      fill="#f59e0b"
      stroke="#d97706"
      strokeWidth="2"
      strokeLinejoin="round"
    />
  ),
};

/** A gift's picture: our drawing for a known gift, else the image the site configured. */
export function GiftArt({ slug, image, size = 48 }: { slug: string; image: string; size?: number }) {
  const drawing = art[slug];
  if (!drawing) return <img src={image} alt="" width={size} height={size} />;
  return (
    <svg
      width={size}
      height={size}
      style={{ width: size, height: size, flexShrink: 0 }}
      className="bg-white rounded-circle p-1"
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
      data-gift={slug}
    >
      {drawing}
    </svg>
  );
}
