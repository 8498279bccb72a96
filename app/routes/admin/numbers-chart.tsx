import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '#app/lib/use-translation.ts';

export type ChartSeries = { label: string; values: (number | null)[]; color: string };

/** True when no series has a figure other than zero or none: the chart would be a bare frame. */
export function isEmptyChart(series: ChartSeries[]): boolean {
  return series.every((entry) => entry.values.every((value) => value === null || value === 0));
}

/**
 * A line chart per day drawn by uPlot on the client. The library is loaded only here (a chunk of the
 * back office's numbers page, never of member pages); the server renders a box of the final size,
 * so nothing moves when the chart appears, and the same figures are in the table below it.
 */
export function DayChart({
  title,
  days,
  series,
  format = (value) => String(value),
}: {
  title: string;
  days: string[];
  series: ChartSeries[];
  format?: (value: number) => string;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const height = 220;
  const empty = isEmptyChart(series);
  useEffect(() => {
    const element = box.current;
    if (!element || empty) return;
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | undefined;
    let cancelled = false;
    const observer = new ResizeObserver(() => chart?.setSize({ width: element.clientWidth, height }));
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
      chart = new UPlot(
        {
          width: element.clientWidth,
          height,
          tzDate: (seconds) => UPlot.tzDate(new Date(seconds * 1000), 'UTC'),
          legend: { show: true },
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: true } },
          axes: [{}, { values: (_chart, ticks) => ticks.map((tick) => format(tick)), size: 60 }],
          series: [
            {},
            ...series.map((entry) => ({
              label: entry.label,
              stroke: entry.color,
              width: 2,
              points: { show: days.length <= 62 },
              value: (_chart: unknown, value: number | null) => (value === null ? '–' : format(value)),
            })),
          ],
        },
        [x, ...series.map((entry) => entry.values)],
        element,
      );
      observer.observe(element);
      setReady(true);
    });
    return () => {
      cancelled = true;
      observer.disconnect();
      chart?.destroy();
    };
  }, [days, series, format, empty]);
  return (
    <figure className="card mb-3">
      <div className="card-body">
        <figcaption className="h6 card-title">{title}</figcaption>
        {empty ? (
          // Same box, so the page keeps its layout; a sentence instead of an empty frame.
          <div
            className="numbers-chart d-flex align-items-center justify-content-center text-body-secondary"
            data-testid="numbers-chart"
            data-empty="true"
            style={{ minHeight: height + 40 }}
          >
            <p className="mb-0">{t('admin:numbers.noChartData')}</p>
          </div>
        ) : (
          <div
            ref={box}
            className="numbers-chart"
            data-testid="numbers-chart"
            data-ready={ready ? 'true' : 'false'}
            role="img"
            aria-label={title}
            style={{ minHeight: height + 40 }}
          />
        )}
      </div>
    </figure>
  );
}
