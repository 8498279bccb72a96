/** The credits mark: a stack of plain coins, no currency sign (credits are not euros or dollars). */
export function CreditsIcon({ size = 18 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <ellipse cx="12" cy="17" rx="8" ry="3.2" fill="#e0a100" />
      <rect x="4" y="12" width="16" height="5" fill="#e0a100" />
      <ellipse cx="12" cy="12" rx="8" ry="3.2" fill="#ffc83d" />
      <rect x="4" y="7" width="16" height="5" fill="#f0b400" />
      <ellipse cx="12" cy="7" rx="8" ry="3.2" fill="#ffd966" stroke="#e0a100" strokeWidth="0.8" />
      <path d="M12 5.4l0.9 1.2 1.5 0.3-1 1 0.1 1.4-1.5-0.6-1.5 0.6 0.1-1.4-1-1 1.5-0.3z" fill="#fff6d6" />
    </svg>
  );
}
