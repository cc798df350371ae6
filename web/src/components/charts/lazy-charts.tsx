import { lazy } from 'react';

/** ApexCharts loads in its own chunk, in parallel with the data (the dashboard shell renders first). */
export const LazyAreaChart = lazy(() => import('./area-chart').then((m) => ({ default: m.AreaChart })));
export const LazyPieChart = lazy(() => import('./pie-chart').then((m) => ({ default: m.PieChart })));
