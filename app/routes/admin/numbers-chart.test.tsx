// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderShell } from '../../../tests/setup/render-shell.tsx';
import { DayChart, isEmptyChart } from './numbers-chart.tsx';

afterEach(cleanup);

const days = ['2026-03-01', '2026-03-02'];

describe('a chart of the numbers', () => {
  it('counts a range as empty when every figure is zero or missing, or there is no series', () => {
    expect(isEmptyChart([])).toBe(true);
    expect(isEmptyChart([{ label: 'a', values: [0, null], color: '#000' }])).toBe(true);
    expect(
      isEmptyChart([
        { label: 'a', values: [0, 0], color: '#000' },
        { label: 'b', values: [null, 2], color: '#000' },
      ]),
    ).toBe(false);
  });

  it('says there is nothing to show instead of drawing an empty frame', async () => {
    renderShell(
      <DayChart title="Revenue" days={days} series={[{ label: 'EUR', values: [0, 0], color: '#000' }]} />,
    );
    expect(await screen.findByText('No data for this period.')).toBeTruthy();
    const box = screen.getByTestId('numbers-chart');
    expect(box.dataset.empty).toBe('true');
    expect(box.getAttribute('role')).toBeNull();
  });

  it('keeps the drawing box when there are figures', async () => {
    renderShell(
      <DayChart title="Signups" days={days} series={[{ label: 'Signups', values: [1, 3], color: '#000' }]} />,
    );
    const box = await screen.findByRole('img', { name: 'Signups' });
    expect(box.dataset.empty).toBeUndefined();
    expect(screen.queryByText('No data for this period.')).toBeNull();
  });
});
