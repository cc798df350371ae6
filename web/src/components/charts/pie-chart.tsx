import Chart from 'react-apexcharts/core';
import 'apexcharts/donut';
import 'apexcharts/features/legend';

export interface PieSlice {
  label: string;
  value: number;
}

const PALETTE = ['#2b6cb0', '#38a169', '#d69e2e', '#e53e3e', '#805ad5', '#319795', '#dd6b20', '#718096'];

export function PieChart({
  slices,
  height = 300,
  colors,
}: {
  slices: PieSlice[];
  height?: number;
  colors?: string[];
}) {
  return (
    <Chart
      type="donut"
      height={height}
      series={slices.map((s) => s.value)}
      options={{
        labels: slices.map((s) => s.label),
        colors: colors ?? PALETTE,
        chart: { animations: { enabled: false }, fontFamily: 'inherit' },
        legend: { position: 'bottom' },
        dataLabels: { enabled: true },
        plotOptions: { pie: { donut: { size: '55%' } } },
      }}
    />
  );
}
