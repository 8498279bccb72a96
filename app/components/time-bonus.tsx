import { useEffect, useId, useState } from 'react';
import { Modal } from 'react-bootstrap';
import { Link, useMatches } from 'react-router';
import { api } from '#app/lib/api.ts';
import { formatPercentOff } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { membersAreaRoutes } from '#app/lib/shell-rules.ts';
import { readDismissal, storeDismissal } from '#app/lib/use-dismissal.ts';
import { useShownOnce } from '#app/lib/use-shown-once.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useSession } from '#app/state/session.tsx';
import { useWelcomeOffer } from '#app/state/welcome-offer.ts';
import type { DiscountCode } from '#contract/payments.ts';

/** The time-bonus modal appears this long after entering the members area (spec §4, §9). */
export const timeBonusModalDelayMs = 40_000;

/** hours:minutes:seconds, e.g. 3:59:07. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${Math.floor(seconds / 3600)}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

const secondsBetween = (expires: string | null, now: number) =>
  expires ? Math.max(0, Math.round((new Date(expires).getTime() - now) / 1000)) : 0;

/**
 * Seconds left of a code, ticking every second; 0 when over. The first render must be the same on
 * the server and in the browser (else React 418 on hydration): it counts from `renderedAt` (the
 * loader's clock, part of the loader data both render from), or shows 0, and ticks after mounting.
 */
export function useSecondsLeft(expires: string | null, renderedAt?: number): number {
  const left = () => secondsBetween(expires, Date.now());
  const [seconds, setSeconds] = useState(() =>
    renderedAt === undefined ? 0 : secondsBetween(expires, renderedAt),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: left() reads only expires.
  useEffect(() => {
    setSeconds(left());
    const timer = setInterval(() => setSeconds(left()), 1000);
    return () => clearInterval(timer);
  }, [expires]);
  return seconds;
}

/** The welcome offer with its countdown; it ends and disappears at zero. */
export function TimeBonusBanner({ code, renderedAt }: { code: DiscountCode; renderedAt: number }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const seconds = useSecondsLeft(code.expires, renderedAt);
  if (seconds <= 0 || !user || user.paid_user) return null;
  return (
    <div className="alert alert-success" role="status" data-testid="time-bonus">
      {t('credits:timeBonus.banner', { percentage: code.value_percentage, time: formatCountdown(seconds) })}
    </div>
  );
}

/**
 * Whether the page on screen prices its bundles with a code the member typed (or followed a
 * `?discountcode=` link with) on /credits: the welcome offer's countdown would then speak of prices
 * the page does not show.
 */
function useTypedCodeSetsPrices(welcome: DiscountCode | null): boolean {
  const credits = useMatches().find((match) => match.id === 'credits');
  const data = credits?.loaderData;
  if (typeof data !== 'object' || data === null || !('code' in data)) return false;
  const typed = data.code;
  if (typeof typed !== 'object' || typed === null || !('code' in typed)) return false;
  return typed.code !== welcome?.code;
}

/**
 * The welcome offer where the member is (spec §4): in the top bar, "−25%" and the time left,
 * linking to the bundles. Gone at zero, once paid, after logging out, and on /credits while a code
 * the member typed sets the prices there.
 */
export function WelcomeOfferPill() {
  const { t } = useTranslation();
  const { locale, renderedAt } = useRootData();
  const welcome = useWelcomeOffer();
  const seconds = useSecondsLeft(welcome?.expires ?? null, renderedAt);
  const typedCodeSetsPrices = useTypedCodeSetsPrices(welcome);
  const descriptionId = useId();
  if (!welcome || seconds <= 0 || typedCodeSetsPrices) return null;
  const time = formatCountdown(seconds);
  // Named by what it shows ("−25% 0:59:59"), so voice control finds it by the words on screen
  // (WCAG 2.5.3); the sentence that explains it is its description.
  return (
    <>
      <Link
        to="/credits"
        className="offer-pill"
        data-testid="welcome-offer"
        aria-describedby={descriptionId}
        prefetch="intent"
      >
        <span className="offer-pill-off">{formatPercentOff(welcome.value_percentage, locale)}</span>{' '}
        <time className="offer-pill-time" data-testid="welcome-offer-time">
          {time}
        </time>
      </Link>
      <span id={descriptionId} hidden>
        {t('credits:timeBonus.banner', { percentage: welcome.value_percentage, time })}
      </span>
    </>
  );
}

/** The welcome offer as a line of text with its countdown, where a price is chosen (the chat's top-up). */
export function WelcomeCountdown({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { renderedAt } = useRootData();
  const welcome = useWelcomeOffer();
  const seconds = useSecondsLeft(welcome?.expires ?? null, renderedAt);
  if (!welcome || seconds <= 0) return null;
  return (
    <p className={className} data-testid="welcome-countdown">
      {t('credits:timeBonus.banner', {
        percentage: welcome.value_percentage,
        time: formatCountdown(seconds),
      })}
    </p>
  );
}

/**
 * 40 s after entering the members area, for a logged-in member with 0 credits while the time bonus
 * runs and the modal was not closed before. Leaving the members area cancels it.
 */
export function TimeBonusModal() {
  const { t } = useTranslation();
  const { user } = useSession();
  const matches = useMatches();
  const inMembersArea = matches.some((match) => membersAreaRoutes.includes(match.id));
  const eligible = user !== null && !user.paid_user && user.credits === 0 && inMembersArea;
  const [code, setCode] = useState<DiscountCode | null>(null);
  const [open, setOpen] = useState(false);
  const seconds = useSecondsLeft(code?.expires ?? null);

  useEffect(() => {
    if (!eligible || readDismissal('hide-time-bonus-modal') !== null) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      const answer = await api('GET /api/discountcode.php', { query: { welcome: 'true' } });
      const welcome = answer.ok ? answer.data : null;
      if (!cancelled && welcome && !welcome.expired) {
        setCode(welcome);
        setOpen(true);
      }
    }, timeBonusModalDelayMs);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [eligible]);

  const close = () => {
    storeDismissal('hide-time-bonus-modal');
    setOpen(false);
  };
  const show = open && code !== null && seconds > 0;
  const mounted = useShownOnce(show);

  if (!mounted) return null;
  return (
    <Modal
      show={show}
      onHide={close}
      centered
      data-testid="time-bonus-modal"
      aria-labelledby="time-bonus-title"
    >
      {code && (
        <Modal.Body className="p-4 text-center">
          <h2 id="time-bonus-title" className="h4">
            {t('credits:timeBonus.title')}
          </h2>
          <p>
            {t('credits:timeBonus.text', {
              percentage: code.value_percentage,
              time: formatCountdown(seconds),
            })}
          </p>
          <Link to="/credits" className="btn btn-primary" onClick={close}>
            {t('credits:timeBonus.cta')}
          </Link>
          <button type="button" className="btn btn-link d-block mx-auto mt-2" onClick={close}>
            {t('close')}
          </button>
        </Modal.Body>
      )}
    </Modal>
  );
}
