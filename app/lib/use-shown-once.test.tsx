// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useShownOnce } from './use-shown-once.ts';

afterEach(cleanup);

describe('useShownOnce', () => {
  it('mounts a dialog only once it is first shown, and keeps it for its closing transition', () => {
    const mounts: string[] = [];
    function Dialog({ show }: { show: boolean }) {
      useEffect(() => {
        mounts.push('mount');
        return () => {
          mounts.push('unmount');
        };
      }, []);
      return <div data-testid="dialog">{show ? 'open' : 'closing'}</div>;
    }
    function Page({ show }: { show: boolean }) {
      const mounted = useShownOnce(show);
      return mounted ? <Dialog show={show} /> : null;
    }

    const { rerender, queryByTestId } = render(<Page show={false} />);
    rerender(<Page show={false} />);
    expect(queryByTestId('dialog')).toBeNull();
    expect(mounts).toEqual([]);

    act(() => rerender(<Page show />));
    expect(queryByTestId('dialog')?.textContent).toBe('open');
    act(() => rerender(<Page show={false} />));
    expect(queryByTestId('dialog')?.textContent).toBe('closing');
    act(() => rerender(<Page show />));
    expect(mounts).toEqual(['mount']);
  });

  it('mounts at once a dialog that starts open', () => {
    function Page() {
      return useShownOnce(true) ? <p>open</p> : null;
    }
    expect(render(<Page />).container.textContent).toBe('open');
  });
});
