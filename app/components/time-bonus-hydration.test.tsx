// @vitest-environment happy-dom
import { act } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatCountdown, useSecondsLeft } from './time-bonus.tsx';

function Countdown({ expires, renderedAt }: { expires: string; renderedAt?: number }) {
  return <span data-testid="countdown">{formatCountdown(useSecondsLeft(expires, renderedAt))}</span>;
}

describe('the time-bonus countdown hydrates without a mismatch', () => {
  const start = new Date('2026-03-01T12:00:00.400Z').getTime();
  const expires = new Date(start + 3_600_000).toISOString();
  let root: Root | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    vi.setSystemTime(start);
  });
  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    vi.useRealTimers();
  });

  it('renders the loader time on the server and in the browser, a second later, then ticks', async () => {
    const renderedAt = Date.now();
    const html = renderToString(<Countdown expires={expires} renderedAt={renderedAt} />);
    expect(html).toContain('1:00:00');

    vi.setSystemTime(start + 1_300); // the browser hydrates in the next second
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const recoverable = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, <Countdown expires={expires} renderedAt={renderedAt} />, {
        onRecoverableError: recoverable,
      });
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(container.textContent).toBe('0:59:59');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    expect(container.textContent).toBe('0:59:58');
  });

  it('starts from 0 without a loader time and counts after mounting', async () => {
    const html = renderToString(<Countdown expires={expires} />);
    expect(html).toContain('0:00:00');
    vi.setSystemTime(start + 1_300);
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const recoverable = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, <Countdown expires={expires} />, { onRecoverableError: recoverable });
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(container.textContent).toBe('0:59:59');
  });
});
