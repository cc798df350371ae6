import { Box, Button, Flex, Input, NativeSelect, Stack } from '@chakra-ui/react';
import {
  MID_HEALTH_COLUMNS,
  MID_HEALTH_RATINGS,
  MID_HEALTH_SORT,
  type MidHealthRow,
} from '@portal/contracts';
import type { ColDef } from 'ag-grid-community';
import { Suspense, useCallback, useMemo, useState } from 'react';
import { DateRangePicker } from '../../../components/date-range-picker';
import { LazyDataGrid } from '../../../components/lazy-data-grid';
import type { PageRequest } from '../../../components/data-grid';
import { toaster } from '../../../components/toaster';
import { PageHeader } from '../../../components/page-header';
import { lastDays, rangeParam } from '../../../lib/dates';
import { queryErrorMessage } from '../../../lib/errors';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { downloadReportCsv, getMidHealth } from '../api/reports-api';
import { GridLoading } from '../components/grid-loading';

/** MID health grid default rows (spec 3 §9). */
export const MID_HEALTH_ROWS = 50;
/** Rating cell colours (spec 3 §2): Good green, Low yellow, Medium orange, High red. */
export const RATING_COLOURS: Record<string, string> = {
  Good: '#c6f6d5',
  'Low Risk': '#fefcbf',
  'Medium Risk': '#feebc8',
  'High Risk': '#fed7d7',
};

/** The rating as a coloured chip; '-' without one. */
function RatingCell({ value }: { value: string | null }) {
  if (!value) return '-';
  return (
    <Box
      as="span"
      px="2"
      py="0.5"
      borderRadius="sm"
      bg={RATING_COLOURS[value]}
      data-testid="mid-health-rating-cell"
    >
      {value}
    </Box>
  );
}

type Rating = 'ALL' | (typeof MID_HEALTH_RATINGS)[number];

/** /mid-health and /mid-health-new (spec 3 §2 MID Health). */
export default function MidHealthRoute() {
  const merchantId = useSelectedMerchant()?.id;
  const [range, setRange] = useState(() => lastDays(30));
  const [rating, setRating] = useState<Rating>('ALL');
  const [search, setSearch] = useState('');
  const query = useMemo(
    () => ({
      merchant_id: merchantId,
      date_range: rangeParam(range),
      rating,
      search: search.trim() || undefined,
    }),
    [merchantId, range, rating, search],
  );
  const columns = useMemo<ColDef<MidHealthRow>[]>(
    () =>
      MID_HEALTH_COLUMNS.map(({ accessor, label }) => ({
        field: accessor,
        headerName: label,
        sortable: (MID_HEALTH_SORT as readonly string[]).includes(accessor),
        minWidth: 125,
        ...(accessor === 'health'
          ? {
              cellRenderer: RatingCell,
              minWidth: 135,
            }
          : {}),
      })),
    [],
  );
  const fetchPage = useCallback(
    async (req: PageRequest) => {
      const r = await getMidHealth({
        ...query,
        start: req.start,
        limit: req.limit,
        ...(req.sort ? { sort_by: req.sort.colId as never, sort_order: req.sort.sort } : {}),
      });
      return { rows: r.data, total: r.pagination.total };
    },
    [query],
  );
  const exportCsv = () =>
    downloadReportCsv('mid-health', query).catch((e: unknown) =>
      toaster.error({ title: queryErrorMessage(e) }),
    );
  return (
    <Stack gap="4" p={{ base: 3, md: 6 }} data-testid="mid-health">
      <PageHeader title="MID Health" mb="0" />
      <Flex gap="3" wrap="wrap" align="center">
        <DateRangePicker value={range} onChange={setRange} testId="mid-health-range" />
        <NativeSelect.Root size="sm" w="auto" bg="white">
          <NativeSelect.Field
            aria-label="Rating"
            value={rating}
            onChange={(e) => setRating(e.target.value as Rating)}
            data-testid="mid-health-rating"
          >
            {(['ALL', ...MID_HEALTH_RATINGS] as const).map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Input
          size="sm"
          w="56"
          bg="white"
          placeholder="Search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="mid-health-search"
        />
        <Button size="sm" variant="outline" onClick={exportCsv} data-testid="mid-health-csv">
          CSV
        </Button>
      </Flex>
      <Suspense fallback={<GridLoading />}>
        <LazyDataGrid<MidHealthRow>
          columns={columns}
          fetchPage={fetchPage}
          queryKey={JSON.stringify(query)}
          pageSize={MID_HEALTH_ROWS}
          height={620}
          testId="mid-health-grid"
        />
      </Suspense>
    </Stack>
  );
}
