import { lazy, type ComponentProps } from 'react';
import type { DataGrid as DataGridType } from './data-grid';

/** AG Grid loads in its own chunk. */
const loadDataGrid = () => import('./data-grid');
export function preloadDataGrid(): void {
  void loadDataGrid();
}

export const LazyDataGrid = lazy(() =>
  loadDataGrid().then((m) => ({
    default: m.DataGrid as (
      props: ComponentProps<typeof DataGridType<never>>,
    ) => ReturnType<typeof DataGridType>,
  })),
) as unknown as typeof DataGridType;
