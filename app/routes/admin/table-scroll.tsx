import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * A wide table's sideways scroller (Bootstrap's `.table-responsive`). While the table is wider than
 * the screen, the scroller is a named region in the tab order, so a keyboard can scroll it too; a
 * table that fits adds no tab stop.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className="table-responsive"
      data-testid="table-scroll"
      {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
    >
      {children}
    </div>
  );
}
