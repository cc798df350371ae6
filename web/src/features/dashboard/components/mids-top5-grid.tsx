import { Input, Skeleton } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import type { ColDef } from 'ag-grid-community';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import type { PageRequest } from '../../../components/data-grid';
import { LazyDataGrid } from '../../../components/lazy-data-grid';
import { DateRangePicker } from '../../../components/date-range-picker';
import { lastDays, rangeParam, type DateRange } from '../../../lib/dates';
import { formatCount, formatPercent } from '../../../lib/format';
import { label, useTenant } from '../../../lib/tenant-config';
import { useClientId } from '../api/dashboard-params';
import type { MidTop5Row } from '@portal/contracts';
import { getMidsTop5QueryOptions } from '../api/get-mids-top5';
import { Card } from './card';

/** Default grid page size of the dashboard grid (spec 1 §9); search debounce 200 ms for grids. */
export const TOP5_PAGE_SIZE = 25;
const SEARCH_DEBOUNCE_MS = 200;

export function MidsTop5Grid() {
  const tenant = useTenant();
  const clientId = useClientId();
  const queryClient = useQueryClient();
  const [range, setRange] = useState<DateRange>(() => lastDays(90));
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setSearch(searchText.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [searchText]);

  const columns = useMemo<ColDef<MidTop5Row>[]>(
    () => [
      { field: 'mid', headerName: label(tenant, 'mid', 'MID'), minWidth: 130 },
      { field: 'midDescriptor', headerName: 'Merchant Descriptor', minWidth: 170 },
      { field: 'midAlias', headerName: label(tenant, 'mid_alias', 'MID Alias'), minWidth: 130 },
      { field: 'new', headerName: 'New', valueFormatter: (p) => formatCount(p.value as number) },
      { field: 'nonFraud', headerName: 'Non-fraud', valueFormatter: (p) => formatCount(p.value as number) },
      {
        field: 'percentNonFraud',
        headerName: '% Non-fraud',
        valueFormatter: (p) => formatPercent(p.value as number),
      },
      { field: 'fraud', headerName: 'Fraud', valueFormatter: (p) => formatCount(p.value as number) },
      {
        field: 'percentFraud',
        headerName: '% Fraud',
        valueFormatter: (p) => formatPercent(p.value as number),
      },
      { field: 'defended', headerName: 'Defended', valueFormatter: (p) => formatCount(p.value as number) },
    ],
    [tenant],
  );

  const dateRange = rangeParam(range);
  const fetchPage = useCallback(
    async (req: PageRequest) => {
      const r = await queryClient.fetchQuery(
        getMidsTop5QueryOptions({
          clientId,
          dateRange,
          start: req.start,
          limit: req.limit,
          sortBy: req.sort?.colId,
          sortOrder: req.sort?.sort,
          search: search || undefined,
        }),
      );
      return { rows: r.data, total: r.pagination.total };
    },
    [queryClient, clientId, dateRange, search],
  );

  return (
    <Card
      title="Top 5 MIDs By Number Of New Chargebacks"
      testId="mids-top5"
      actions={
        <>
          <Input
            size="sm"
            w={{ base: 'full', md: '56' }}
            placeholder="Search"
            aria-label="Search MIDs"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            bg="white"
          />
          <DateRangePicker value={range} onChange={setRange} testId="top5-range" />
        </>
      }
    >
      <Suspense fallback={<Skeleton h="420px" />}>
        <LazyDataGrid<MidTop5Row>
          columns={columns}
          fetchPage={fetchPage}
          queryKey={`${clientId}|${dateRange}|${search}`}
          pageSize={TOP5_PAGE_SIZE}
          testId="mids-top5-grid"
        />
      </Suspense>
    </Card>
  );
}
