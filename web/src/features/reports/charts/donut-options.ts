import type { ApexOptions } from 'apexcharts';
import { donutColors, donutLabel, highlightedSlice, type Slice } from './donut-rules';

/** The part of an ApexCharts instance the options use. */
export interface DonutChartHandle {
  /** The chart's element. */
  el?: Element;
  toggleDataPointSelection(index: number): void;
}

/**
 * After a redraw (a resize, a legend click): ApexCharts pulls a selected slice out again before it
 * draws the slice's labels, and they stay where they were, on the ring. Selecting the slice once more
 * takes them along.
 */
function reseatPulledOut(chart: DonutChartHandle) {
  const out = [...(chart.el?.querySelectorAll('.apexcharts-pie-area') ?? [])].find(
    (slice) => slice.getAttribute('data:pieClicked') === 'true',
  );
  const index = Number(out?.getAttribute('j'));
  if (!out || !Number.isInteger(index)) return;
  chart.toggleDataPointSelection(index);
  chart.toggleDataPointSelection(index);
}

/** How far the highlighted slice is pulled out (px). */
export const DONUT_PULL_OUT = 6;

/** The labels' text colour: the theme's gray.800, 16:1 on the white card. */
export const DONUT_LABEL_COLOR = '#1a202c';

/** A slice's label: the API's percent when the slice has one, else its share of the ring; '' under 1%. */
export const sliceLabel = (slices: readonly Slice[], index: number, share: number): string =>
  donutLabel(slices[index]?.percent ?? share);

/**
 * The ApexCharts options of a report donut (spec 2 §9, spec 3 §2: labels outside, legend, 'other' and
 * 'pending' slices grey, the largest slice highlighted, labels under 1% hidden).
 *
 * Labels sit outside the ring, each joined to its slice by a leader line, in dark text on the white
 * card; ApexCharts shrinks the ring so that they fit and spaces crowded ones apart. On the ring they
 * were cut: drawn in 16px where ApexCharts placed 12px (report-donut.css), in white, a label wider
 * than the ring ran into the white centre ('55.8%' read '5.8%'; the pulled-out slice's label also
 * stayed 10px behind its slice after a redraw, see reseatPulledOut), and one wider than its slice
 * spilled onto the next ('3.4%'). ApexCharts also drew no label on a slice under 10
 * degrees (its default plotOptions.pie.dataLabels.minAngleToShowLabel), so 2.6% and 2.2% had none;
 * the outer labels have no such rule: sliceLabel alone decides (1%).
 *
 * `highlighted` is pulled out when the chart is drawn: DonutChart draws a chart per data, as
 * ApexCharts keeps a slice's selection across data updates.
 */
export function donutOptions(slices: readonly Slice[], highlighted = highlightedSlice(slices)): ApexOptions {
  const colors = donutColors(slices.map((s) => s.label));
  return {
    labels: slices.map((s) => s.label),
    colors,
    chart: {
      events: {
        mounted: (chart: DonutChartHandle) => {
          if (highlighted >= 0) chart.toggleDataPointSelection(highlighted);
        },
        updated: reseatPulledOut,
      },
    },
    legend: { position: 'bottom' },
    // No labels on the ring itself: they are the outer labels below.
    dataLabels: { enabled: false },
    plotOptions: {
      pie: {
        expandOnClick: true,
        // ApexCharts leaves 8px beside and 6px above and below the outer labels: a slice (and its label)
        // pulled out by its default 10px crossed the chart's edge.
        expandOffset: DONUT_PULL_OUT,
        donut: { size: '55%' },
        dataLabels: {
          minAngleToShowLabel: 0,
          external: {
            show: true,
            formatter: (_name, { seriesIndex, percent }) => sliceLabel(slices, seriesIndex, percent),
            color: DONUT_LABEL_COLOR,
            fontSize: '12px',
            fontWeight: 600,
            // The gap keeps a label at the top or bottom of the ring (centred on the line's bend) off the ring.
            connector: { show: true, width: 1, gap: 10, length: 12 },
          },
        },
      },
    },
  };
}
