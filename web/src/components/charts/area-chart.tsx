import Chart from 'react-apexcharts/core';
import 'apexcharts/area';

export interface AreaPoint {
  date: string;
  count: number;
}

/** A date/count area chart; month labels when the range exceeds 90 days (spec 1 §2.5). */
export function AreaChart({
  points,
  monthLabels,
  color,
  name,
  height = 300,
}: {
  points: AreaPoint[];
  monthLabels: boolean;
  color: string;
  name: string;
  height?: number;
}) {
  return (
    <Chart
      type="area"
      height={height}
      series={[
        { name, data: points.map((p) => ({ x: new Date(`${p.date}T00:00:00`).getTime(), y: p.count })) },
      ]}
      options={{
        chart: {
          toolbar: { show: false },
          zoom: { enabled: false },
          animations: { enabled: false },
          fontFamily: 'inherit',
        },
        colors: [color],
        dataLabels: { enabled: false },
        stroke: { curve: 'smooth', width: 2 },
        fill: { type: 'gradient', gradient: { opacityFrom: 0.45, opacityTo: 0.05 } },
        xaxis: {
          type: 'datetime',
          labels: { datetimeUTC: false, format: monthLabels ? 'MMM yyyy' : 'dd MMM' },
        },
        yaxis: {
          labels: { formatter: (v: number) => new Intl.NumberFormat('en-US').format(Math.round(v)) },
          min: 0,
          forceNiceScale: true,
        },
        tooltip: { x: { format: 'MMM dd, yyyy' } },
        grid: { borderColor: '#e2e8f0' },
      }}
    />
  );
}
