import { useMemo } from 'react';
import Chart from 'react-apexcharts/core';
import 'apexcharts/area';
import 'apexcharts/bar';
import 'apexcharts/donut';
import 'apexcharts/line';
import 'apexcharts/features/legend';
import { BAR_MAX_SIZE, CHART_HEIGHT, DONUT_HEIGHT, PALETTE, percentAxis, type Slice } from './donut-rules';
import { donutOptions } from './donut-options';
import './report-donut.css';

/** ApexCharts views of the reports; this module loads with the report routes only. */
const base = { animations: { enabled: false }, fontFamily: 'inherit', toolbar: { show: false } };

export type { Slice };

/**
 * A report donut, drawn anew for each data (keyed by its slices): the largest slice is pulled out
 * when drawn, and ApexCharts keeps a selection across updates, so after 30 days then 1Y the first
 * data's largest slice stayed out. The options are made once per data: ApexCharts redraws on options
 * with new functions, and each redraw left the pulled-out slice's labels behind.
 */
export function DonutChart({ slices, height = DONUT_HEIGHT }: { slices: Slice[]; height?: number }) {
  const data = JSON.stringify(slices);
  const options = useMemo(() => {
    const donut = donutOptions(JSON.parse(data) as Slice[]);
    return { ...donut, chart: { ...base, ...donut.chart } };
  }, [data]);
  return (
    // report-donut.css: the labels in the font ApexCharts places them by.
    <div className="report-donut">
      <Chart key={data} type="donut" height={height} series={slices.map((s) => s.value)} options={options} />
    </div>
  );
}

export interface BarSeries {
  name: string;
  data: number[];
}

export function BarChart({
  categories,
  series,
  percent = false,
  stacked = false,
  horizontal = false,
  height = CHART_HEIGHT,
}: {
  categories: string[];
  series: BarSeries[];
  percent?: boolean;
  stacked?: boolean;
  horizontal?: boolean;
  height?: number;
}) {
  const axis = percentAxis(series.flatMap((s) => s.data));
  return (
    <Chart
      type="bar"
      height={height}
      series={series}
      options={{
        chart: { ...base, stacked },
        colors: PALETTE,
        xaxis: { categories },
        yaxis: percent
          ? stacked
            ? { min: 0, max: 100, labels: { formatter: (v: number) => `${v.toFixed(0)}%` } }
            : {
                min: 0,
                max: axis.max,
                tickAmount: axis.tickAmount,
                labels: { formatter: (v: number) => `${v.toFixed(axis.decimals)}%` },
              }
          : { labels: { formatter: (v: number) => v.toFixed(0) } },
        plotOptions: { bar: { horizontal, barHeight: '70%', columnWidth: `${Math.min(70, BAR_MAX_SIZE)}%` } },
        dataLabels: { enabled: false },
        legend: { position: 'bottom' },
        tooltip: { y: { formatter: (v: number) => (percent ? `${v}%` : String(v)) } },
      }}
    />
  );
}

/** A line or area of percents (or counts), with an optional bar series on a second axis (combo). */
export function LineChart({
  categories,
  line,
  bars,
  area = false,
  percent = true,
  height = CHART_HEIGHT,
}: {
  categories: string[];
  line: BarSeries;
  bars?: BarSeries;
  area?: boolean;
  percent?: boolean;
  height?: number;
}) {
  const axis = percentAxis(line.data);
  const lineAxis = percent
    ? {
        min: 0,
        max: axis.max,
        tickAmount: axis.tickAmount,
        labels: { formatter: (v: number) => `${v.toFixed(axis.decimals)}%` },
        title: { text: line.name },
      }
    : { labels: { formatter: (v: number) => v.toFixed(1) }, title: { text: line.name } };
  return (
    <Chart
      type="line"
      height={height}
      series={[{ ...line, type: area ? 'area' : 'line' }, ...(bars ? [{ ...bars, type: 'column' }] : [])]}
      options={{
        chart: { ...base },
        colors: PALETTE,
        stroke: { width: bars ? [3, 0] : 3, curve: 'smooth' },
        xaxis: { categories },
        yaxis: bars
          ? [
              lineAxis,
              {
                opposite: true,
                title: { text: bars.name },
                labels: { formatter: (v: number) => v.toFixed(0) },
              },
            ]
          : lineAxis,
        dataLabels: { enabled: false },
        legend: { position: 'bottom' },
        plotOptions: { bar: { columnWidth: '50%' } },
      }}
    />
  );
}
