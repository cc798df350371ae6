import { Flex, NativeSelect } from '@chakra-ui/react';
import type { DateReference } from '@portal/contracts';
import { DateRangePicker } from '../../../components/date-range-picker';
import { rangeParam, type DateRange } from '../../../lib/dates';
import type { Params } from '../../../lib/api-client';
import { searchCurrencies, searchMids, type Option } from '../api/reports-api';
import { TypeAhead } from './type-ahead';

export interface ReportFilterState {
  mid: Option | null;
  currency: Option | null;
  dateReference: DateReference;
  range: DateRange;
}

/** The common parameters of the report calls (spec 3 §7): ids omitted when 'All'. */
export function reportParams(f: ReportFilterState, merchantId: number | undefined): Params {
  return {
    merchant_id: merchantId,
    mid_id: f.mid?.id,
    currency_id: f.currency?.id,
    date_reference: f.dateReference,
    date_range: rangeParam(f.range),
  };
}

/** MID and currency type-aheads, date reference and date range of the /reports page. */
export function ReportFilters({
  value,
  onChange,
  merchantId,
  show = { mid: true, currency: true, reference: true },
}: {
  value: ReportFilterState;
  onChange: (f: ReportFilterState) => void;
  merchantId: number | undefined;
  show?: { mid: boolean; currency: boolean; reference: boolean };
}) {
  return (
    <Flex gap="3" wrap="wrap" align="center" data-testid="report-filters">
      {show.mid && (
        <TypeAhead
          allLabel="All MIDs"
          value={value.mid}
          onChange={(mid) => onChange({ ...value, mid })}
          search={(text, signal) => searchMids(text, merchantId, signal)}
          queryKey={['mids', merchantId]}
          testId="filter-mid"
        />
      )}
      {show.currency && (
        <TypeAhead
          allLabel="All Currencies"
          value={value.currency}
          onChange={(currency) => onChange({ ...value, currency })}
          search={searchCurrencies}
          queryKey={['currencies']}
          testId="filter-currency"
        />
      )}
      {show.reference && (
        <NativeSelect.Root size="sm" w="auto" bg="white">
          <NativeSelect.Field
            aria-label="Date reference"
            value={value.dateReference}
            onChange={(e) => onChange({ ...value, dateReference: e.target.value as DateReference })}
            data-testid="filter-date-reference"
          >
            <option value="post">Posted Date</option>
            <option value="transaction">Transaction Date</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      )}
      <DateRangePicker
        value={value.range}
        onChange={(range) => onChange({ ...value, range })}
        testId="filter-range"
      />
    </Flex>
  );
}
