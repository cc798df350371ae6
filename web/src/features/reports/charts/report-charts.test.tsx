import { cleanup, render } from '@testing-library/react';
import { useEffect, useRef } from 'react';
import type { ApexOptions } from 'apexcharts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DonutChart } from './report-charts';

/**
 * A stand-in for react-apexcharts that keeps what ApexCharts keeps: one chart per mounted component,
 * 'mounted' once when drawn, 'updated' on new series values or new options, and the selected
 * (pulled-out) slices across updates.
 */
const drawn = vi.hoisted(() => ({ charts: 0, updates: 0, selected: new Set<number>() }));

vi.mock('react-apexcharts/core', () => ({
  default: function FakeChart({ series, options }: { series: number[]; options: ApexOptions }) {
    const chart = useRef<{ toggleDataPointSelection(i: number): void } | null>(null);
    const first = useRef(true);
    useEffect(() => {
      drawn.charts++;
      drawn.updates = 0;
      drawn.selected = new Set();
      const selected = drawn.selected;
      chart.current = {
        toggleDataPointSelection: (i) => void (selected.has(i) ? selected.delete(i) : selected.add(i)),
      };
      options.chart?.events?.mounted?.(chart.current as never, {} as never);
      // Drawn once: the options of later renders reach it through 'updated'.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, []);
    // react-apexcharts compares the series by value and the options deeply, functions by identity.
    const values = JSON.stringify(series);
    useEffect(() => {
      if (first.current) first.current = false;
      else {
        drawn.updates++;
        options.chart?.events?.updated?.(chart.current as never, {} as never);
      }
    }, [values, options]);
    return null;
  },
}));
vi.mock('apexcharts/area', () => ({}));
vi.mock('apexcharts/bar', () => ({}));
vi.mock('apexcharts/donut', () => ({}));
vi.mock('apexcharts/line', () => ({}));
vi.mock('apexcharts/features/legend', () => ({}));

afterEach(cleanup);

const statuses = (counts: number[]) =>
  ['New', 'In Progress', 'Completed', 'Expired', 'Do Not Represent'].map((label, i) => ({
    label,
    value: counts[i]!,
  }));

describe('report donut', () => {
  it('pulls out the largest slice, and the new largest one when the data changes (30 days, then 1Y)', () => {
    const view = render(<DonutChart slices={statuses([74, 24, 1, 0, 1])} />);
    expect([...drawn.selected]).toEqual([0]);
    // 1Y: Completed (47.3%) is the largest; New (10.1%) was left pulled out.
    view.rerender(<DonutChart slices={statuses([101, 33, 473, 217, 175])} />);
    expect([...drawn.selected]).toEqual([2]);
    // The same data again (a render of the page): not drawn again, the slice stays out.
    const charts = drawn.charts;
    view.rerender(<DonutChart slices={statuses([101, 33, 473, 217, 175])} />);
    expect(drawn.charts).toBe(charts);
    expect(drawn.updates).toBe(0);
    expect([...drawn.selected]).toEqual([2]);
  });
});
