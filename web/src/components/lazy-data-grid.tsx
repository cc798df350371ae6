import { lazy, type ComponentProps } from 'react';
import type { DataGrid as DataGridType } from './data-grid';

/** AG Grid loads in its own chunk. */
export const LazyDataGrid = lazy(() =>
  import('./data-grid').then((m) => ({
    default: m.DataGrid as (
      props: ComponentProps<typeof DataGridType<never>>,
    ) => ReturnType<typeof DataGridType>,
  })),
) as unknown as typeof DataGridType;
