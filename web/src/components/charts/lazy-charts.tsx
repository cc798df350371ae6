import { lazy } from 'react';

/** ApexCharts loads in its own chunk, in parallel with the data (the dashboard shell renders first). */
const loadArea = () => import('./area-chart');
const loadPie = () => import('./pie-chart');
export const LazyAreaChart = lazy(() => loadArea().then((m) => ({ default: m.AreaChart })));
export const LazyPieChart = lazy(() => loadPie().then((m) => ({ default: m.PieChart })));

export function preloadCharts(): void {
  void loadArea();
  void loadPie();
}
