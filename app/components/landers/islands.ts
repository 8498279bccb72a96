/**
 * The landers' only JavaScript: small self-contained functions sent inline (with the page's CSP
 * nonce) as `(fn)(args)`. The pages work without them (plain forms, CSS :target and :has); they add
 * the swipe gesture, focus the second signup step and close the 18+ notice without a reload.
 * Each function may use nothing from outside its own body: it is sent as its source text.
 */

/** Every lander: the 18+ notice closes in place; step two comes into view once step one is done. */
export function pageIsland(skipCookie: string, skipSeconds: number): void {
  document.documentElement.classList.add('js');
  const gate = document.querySelector<HTMLFormElement>('[data-entry-gate] form');
  if (gate) {
    const enter = gate.querySelector<HTMLButtonElement>('button');
    enter?.focus();
    gate.addEventListener('submit', (event) => {
      event.preventDefault();
      // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we serve.
      document.cookie = `${skipCookie}=1; max-age=${skipSeconds}; path=/; samesite=lax${location.protocol === 'https:' ? '; secure' : ''}`;
      document.querySelector('[data-entry-gate]')?.remove();
    });
  }
  for (const form of document.querySelectorAll<HTMLFormElement>('[data-lander-signup]')) {
    form.addEventListener('change', (event) => {
      const target = event.target;
      if (!(target instanceof HTMLInputElement) || target.type !== 'radio') return;
      const done =
        form.querySelector('[name=gender]:checked') && form.querySelector('[name=seeking]:checked');
      if (!done || form.dataset.stepTwo) return;
      form.dataset.stepTwo = '1';
      const step = form.querySelector<HTMLElement>('[data-step-two]');
      step?.scrollIntoView({ block: 'start', behavior: 'smooth' });
      step?.querySelector<HTMLInputElement>('input[type=email]')?.focus({ preventScroll: true });
    });
    form.addEventListener('submit', () => {
      const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
      if (button?.dataset.busy) {
        button.disabled = true;
        button.textContent = button.dataset.busy;
      }
    });
  }
  // Videos respect reduced motion: they stay on their poster.
  if (matchMedia('(prefers-reduced-motion: reduce)').matches) {
    for (const video of document.querySelectorAll('video')) {
      video.removeAttribute('autoplay');
      video.pause();
    }
  }
}

/**
 * The swipe lander's card stack: drag a card (pointer: finger or mouse) or use the buttons; a like,
 * or the third swipe, opens the signup step. A swiped card flies off and then leaves the page: left
 * behind off to the side, it would widen a phone's page (sideways scrolling, taps landing beside
 * their target), and the page's frame clips it while it flies.
 */
export function swipeIsland(): void {
  const stack = document.querySelector<HTMLElement>('[data-swipe-stack]');
  const sheet = document.querySelector<HTMLElement>('[data-swipe-signup]');
  if (!stack || !sheet) return;
  const status = document.querySelector<HTMLElement>('[data-swipe-status]');
  const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
  let swipes = 0;
  const waiting = () => Array.from(stack.querySelectorAll<HTMLElement>('[data-swipe-card]:not([data-gone])'));
  const top = () => {
    const cards = waiting();
    return cards[cards.length - 1] ?? null;
  };
  // The cards behind the top one step forward as it goes (CSS scales them by their depth).
  const restack = () => {
    const cards = waiting().reverse();
    cards.forEach((card, depth) => {
      card.dataset.depth = String(Math.min(depth, 2));
    });
  };
  const openSignup = (card: HTMLElement | null) => {
    const title = sheet.querySelector<HTMLElement>('[data-match-title]');
    if (title && card?.dataset.matchTitle) title.textContent = card.dataset.matchTitle;
    sheet.hidden = false;
    sheet.classList.add('is-open');
    sheet.querySelector<HTMLInputElement>('input[type=radio]')?.focus({ preventScroll: true });
    sheet.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
  };
  const fling = (card: HTMLElement, direction: 1 | -1) => {
    card.dataset.gone = direction > 0 ? 'like' : 'pass';
    card.setAttribute('aria-hidden', 'true');
    let removed = false;
    const remove = () => {
      if (removed) return;
      removed = true;
      card.remove();
      if (!top()) stack.dataset.empty = '1';
    };
    if (still) remove();
    else {
      card.style.transition = 'transform .35s ease-in, opacity .35s ease-in';
      card.style.transform = `translateX(${direction * 130}%) rotate(${direction * 22}deg)`;
      card.style.opacity = '0';
      card.addEventListener('transitionend', remove, { once: true });
      // Should the transition never end (a tab in the background), the card goes all the same.
      setTimeout(remove, 600);
    }
    swipes += 1;
    restack();
    const next = top();
    if (status && next) status.textContent = next.dataset.label ?? '';
    if (direction > 0 || swipes >= 3 || !next) openSignup(card);
  };
  for (const button of document.querySelectorAll<HTMLElement>('[data-swipe]')) {
    button.addEventListener('click', (event) => {
      event.preventDefault();
      const card = top();
      if (card) fling(card, button.dataset.swipe === 'like' ? 1 : -1);
      else openSignup(null);
    });
  }
  let startX = 0;
  let dragging: HTMLElement | null = null;
  stack.addEventListener('pointerdown', (event) => {
    const card = top();
    if (!card || !(event.target instanceof Node) || !card.contains(event.target)) return;
    dragging = card;
    startX = event.clientX;
    card.setPointerCapture(event.pointerId);
    card.style.transition = 'none';
  });
  stack.addEventListener('pointermove', (event) => {
    if (!dragging) return;
    const dx = event.clientX - startX;
    dragging.style.transform = `translateX(${dx}px) rotate(${dx / 18}deg)`;
    dragging.dataset.lean = dx > 30 ? 'like' : dx < -30 ? 'pass' : '';
  });
  const release = (event: PointerEvent) => {
    if (!dragging) return;
    const card = dragging;
    dragging = null;
    const dx = event.clientX - startX;
    card.dataset.lean = '';
    if (event.type === 'pointerup' && Math.abs(dx) > 90) fling(card, dx > 0 ? 1 : -1);
    else {
      card.style.transition = 'transform .2s';
      card.style.transform = '';
    }
  };
  stack.addEventListener('pointerup', release);
  stack.addEventListener('pointercancel', release);
  restack();
  sheet.hidden = true;
}

/** The source text that runs `fn` with its arguments, for an inline script. */
export function inlineCall<A extends unknown[]>(fn: (...args: A) => void, ...args: A): string {
  const json = args.map((arg) => JSON.stringify(arg).replaceAll('<', '\\u003c')).join(',');
  return `(${fn.toString()})(${json});`;
}
