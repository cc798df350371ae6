import Chart from 'react-apexcharts/core';
import 'apexcharts/donut';
import 'apexcharts/features/legend';
import { sliceLabels } from './label-colors';

export interface PieSlice {
  label: string;
  value: number;
}

// Red is #c53030, not #e53e3e: a slice label on it reaches 4.5:1 (label-colors.ts).
const PALETTE = ['#2b6cb0', '#38a169', '#d69e2e', '#c53030', '#805ad5', '#319795', '#dd6b20', '#718096'];

export function PieChart({
  slices,
  height = 300,
  colors,
}: {
  slices: PieSlice[];
  height?: number;
  colors?: string[];
}) {
  const sliceColors = colors ?? PALETTE;
  return (
    <Chart
      type="donut"
      height={height}
      series={slices.map((s) => s.value)}
      options={{
        labels: slices.map((s) => s.label),
        colors: sliceColors,
        chart: { animations: { enabled: false }, fontFamily: 'inherit' },
        legend: { position: 'bottom' },
        dataLabels: { enabled: true, ...sliceLabels(sliceColors) },
        plotOptions: { pie: { donut: { size: '55%' } } },
      }}
    />
  );
}
