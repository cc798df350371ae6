import type { ApexOptions } from 'apexcharts';
import { describe, expect, it, vi } from 'vitest';
import { donutOptions, DONUT_LABEL_COLOR, type DonutChartHandle } from './donut-options';
import { reportSlices, type Slice } from './donut-rules';

/** ApexCharts' default plotOptions.pie.dataLabels.minAngleToShowLabel (degrees). */
const APEX_MIN_ANGLE = 10;

/**
 * The labels ApexCharts draws for these options (its rules, charts/Pie.js): on the ring when data
 * labels are on and the slice's angle passes minAngleToShowLabel; outside it when the external labels
 * are on and the formatter gives text.
 */
function drawnLabels(options: ApexOptions, slices: readonly Slice[]) {
  const total = slices.reduce((s, x) => s + x.value, 0);
  const pie = options.plotOptions?.pie?.dataLabels;
  return slices.map((slice, i) => {
    const share = (100 * slice.value) / total;
    const angle = (360 * slice.value) / total;
    const inner =
      options.dataLabels?.enabled !== false && angle > (pie?.minAngleToShowLabel ?? APEX_MIN_ANGLE)
        ? String(
            options.dataLabels?.formatter?.(share, { seriesIndex: i, dataPointIndex: 0, w: {} as never }) ??
              `${share}%`,
          )
        : '';
    const outer =
      pie?.external?.show && angle !== 0
        ? String(
            pie.external.formatter?.(slice.label, {
              seriesIndex: i,
              percent: share,
              value: slice.value,
              w: {} as never,
            }) ?? slice.label,
          )
        : '';
    return { inner, outer };
  });
}

const slice = (label: string, value: number): Slice => ({ label, value });

describe('report donut options', () => {
  it('labels every slice of 1% or more (Win 2.6%, Loss 2.2%), none under 1%, all outside the ring', () => {
    // ApexCharts drew no label under 10 degrees (2.8%) whatever donutLabel said.
    const slices = [
      slice('Verdict Pending', 700),
      slice('Pending', 248),
      slice('Win', 26),
      slice('Loss', 22),
      slice('Other', 4),
    ];
    const labels = drawnLabels(donutOptions(slices), slices);
    expect(labels.map((l) => l.inner || l.outer)).toEqual(['70.0%', '24.8%', '2.6%', '2.2%', '']);
    // Nothing on the ring: a label there ran into the white centre ('55.8%' read '5.8%') or off its slice.
    expect(labels.every((l) => l.inner === '')).toBe(true);
    expect(donutOptions(slices).plotOptions?.pie?.dataLabels?.external?.color).toBe(DONUT_LABEL_COLOR);
  });

  it("labels a top-5 slice with the API's percent of every chargeback", () => {
    const rows = [
      { key: '1', label: '10.4', count: 78, amount: 0, percent: 29.21 },
      { key: '2', label: '4842', count: 12, amount: 0, percent: 4.49 },
    ];
    const slices = reportSlices(rows, 267, 5);
    expect(drawnLabels(donutOptions(slices), slices).map((l) => l.inner || l.outer)).toEqual([
      '29.2%',
      '4.5%',
      '66.3%',
    ]);
  });

  it('after a redraw, selects the pulled-out slice again so that its labels move out with it', () => {
    // As ApexCharts marks them: SVG paths with j (the slice) and data:pieClicked.
    const el = document.createElement('div');
    for (const [j, out] of [
      ['0', 'false'],
      ['2', 'true'],
    ] as const) {
      const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
      path.setAttribute('class', 'apexcharts-pie-area');
      path.setAttribute('j', j);
      path.setAttribute('data:pieClicked', out);
      el.append(path);
    }

    const chart = { el, toggleDataPointSelection: vi.fn() };
    donutOptions([slice('New', 10), slice('Completed', 47)]).chart?.events?.updated?.(
      chart as never,
      {} as never,
    );
    expect(chart.toggleDataPointSelection.mock.calls).toEqual([[2], [2]]);
    // Nothing pulled out (the user clicked it back in): nothing to do.
    el.querySelector('[j="2"]')!.setAttribute('data:pieClicked', 'false');
    chart.toggleDataPointSelection.mockClear();
    donutOptions([slice('New', 10)]).chart?.events?.updated?.(chart as never, {} as never);
    expect(chart.toggleDataPointSelection).not.toHaveBeenCalled();
  });

  it('pulls out the largest slice when drawn', () => {
    const chart: DonutChartHandle = { toggleDataPointSelection: vi.fn() };
    const options = donutOptions([slice('New', 10), slice('Completed', 47), slice('Expired', 21)]);
    options.chart?.events?.mounted?.(chart as never, {} as never);
    expect(chart.toggleDataPointSelection).toHaveBeenCalledExactlyOnceWith(1);
  });
});
