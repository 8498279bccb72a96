import { getSharedManager } from 'react-bootstrap/BootstrapModalManager';

/**
 * How wide the page's vertical scrollbar is, which a modal makes up for (padding) while it hides it.
 * Bootstrap takes the gap between the window and the page (innerWidth − clientWidth); on a phone
 * that gap is no scrollbar but the page zoomed out (content wider than the screen, a pinch zoom),
 * and padding the page by it squeezed everything behind the match modal into a narrow column. The
 * gap counts only up to what this browser's scrollbars really take: nothing where they float over
 * the page, as on phones.
 */
export function bodyScrollbarWidth(doc: Document): number {
  const view = doc.defaultView;
  if (!view) return 0;
  const gap = view.innerWidth - doc.documentElement.clientWidth;
  if (gap <= 0) return 0;
  const probe = doc.createElement('div');
  probe.style.cssText = 'position:absolute;top:-9999px;width:100px;height:100px;overflow:scroll';
  doc.body.append(probe);
  const scrollbar = probe.offsetWidth - probe.clientWidth;
  probe.remove();
  return Math.max(0, Math.min(gap, scrollbar));
}

/** Every React Bootstrap modal (they share one manager) measures the scrollbar as above. */
export function measureModalScrollbarsTruly(): void {
  getSharedManager().getScrollbarWidth = () => bodyScrollbarWidth(document);
}
