// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodyScrollbarWidth } from './modal-scrollbar.ts';

/** A window `innerWidth` wide over a page `clientWidth` wide, whose scrollbars take `scrollbar` px. */
function screen(innerWidth: number, clientWidth: number, scrollbar: number) {
  vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(innerWidth);
  vi.spyOn(document.documentElement, 'clientWidth', 'get').mockReturnValue(clientWidth);
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(100);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(100 - scrollbar);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('bodyScrollbarWidth', () => {
  it('is the scrollbar on a desktop page that has one', () => {
    screen(1366, 1351, 15);
    expect(bodyScrollbarWidth(document)).toBe(15);
  });

  it('is nothing on a page without a scrollbar', () => {
    screen(1366, 1366, 15);
    expect(bodyScrollbarWidth(document)).toBe(0);
  });

  it('is nothing on a phone whose page is zoomed out, however wide the gap', () => {
    // 390 px of page in a window zoomed out to 957 px: no scrollbar takes any of it.
    screen(957, 390, 0);
    expect(bodyScrollbarWidth(document)).toBe(0);
  });

  it('never counts more than the gap', () => {
    screen(1366, 1360, 15);
    expect(bodyScrollbarWidth(document)).toBe(6);
  });

  it('leaves no probe behind', () => {
    screen(1366, 1351, 15);
    bodyScrollbarWidth(document);
    expect(document.body.children).toHaveLength(0);
  });
});
