import type { AdvancedFilterField } from '@portal/contracts';
import { Box, Button, HStack, Input, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useId, useMemo, useState } from 'react';
import { Notice } from '../../../components/notice';
import { useAdvancedFilters } from '../api/get-advanced-filters';
import type { CaseQuery } from '../api/get-cases';
import { MERCHANT_FEATURE, useMerchantFeatures } from '../api/get-merchant-features';
import { selectOptionSource } from '../api/get-select-options';
import type { Choice } from '../../../lib/option-pages';
import { MSG } from '../../../lib/case-messages';
import { AmountFilter } from './filters/amount-filter';
import { DateRangeFilter } from './filters/date-range-filter';
import {
  defaultOperator,
  FILTER_TYPES,
  fromQuery,
  initialValues,
  operatorKey,
  paramOf,
  toQuery,
  type FilterValue,
  type FilterValues,
} from './filters/filter-values';
import { MultiTextFilter } from './filters/multi-text-filter';
import { PagedSelect } from './filters/paged-select';

/**
 * The fields shown: enabled ones (the gateway already dropped those the
 * user's roles may not see), and the verdict filter only when the merchant
 * being worked has the outcome-verdicts feature (hidden while that loads).
 */
export function visibleFields(
  fields: AdvancedFilterField[],
  features: ReadonlySet<number> | undefined,
): AdvancedFilterField[] {
  return fields.filter(
    (f) => f.is_enabled && (paramOf(f) !== 'verdict_id' || !!features?.has(MERCHANT_FEATURE.verdicts)),
  );
}

function SelectFilter({
  f,
  value,
  onChange,
}: {
  f: AdvancedFilterField;
  value: Choice[];
  onChange: (v: Choice[]) => void;
}) {
  const source = useMemo(() => selectOptionSource(f.endpoint, f.default_options), [f]);
  return (
    <PagedSelect
      label={f.label}
      source={source}
      multiple={!!f.is_multiple_choice}
      value={value}
      onChange={onChange}
      testId={`filter-${f.alias}`}
    />
  );
}

/** One field of the form by its type; an unknown type says so instead of guessing. */
function FilterInput({
  f,
  v,
  set,
}: {
  f: AdvancedFilterField;
  v: FilterValues;
  set: (changes: Record<string, FilterValue>) => void;
}) {
  const str = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : '');
  if (!FILTER_TYPES.has(f.type)) return <Text color="red.600">{MSG.unknownProperty}</Text>;
  switch (f.type) {
    case 'text':
      return (
        <Input
          size="sm"
          aria-label={f.label}
          value={str(f.alias)}
          onChange={(e) => set({ [f.alias]: e.target.value })}
        />
      );
    case 'select':
      return (
        <SelectFilter
          f={f}
          value={(v[f.alias] as Choice[] | undefined) ?? []}
          onChange={(x) => set({ [f.alias]: x })}
        />
      );
    case 'userDefinedMultiSelect':
      return (
        <MultiTextFilter
          label={f.label}
          value={(v[f.alias] as string[] | undefined) ?? []}
          onChange={(x) => set({ [f.alias]: x })}
        />
      );
    case 'amount':
      return (
        <AmountFilter
          label={f.label}
          amount={str(f.alias)}
          operator={str(operatorKey(f))}
          defaultOperator={defaultOperator(f)}
          onChange={(amount, operator) => set({ [f.alias]: amount, [operatorKey(f)]: operator })}
        />
      );
    default:
      return (
        <DateRangeFilter
          label={f.label}
          from={str(`${f.alias}_from`)}
          to={str(`${f.alias}_to`)}
          future={f.type === 'due-date'}
          clearable={!!f.is_clear_date_icon}
          onChange={(from, to) => set({ [`${f.alias}_from`]: from, [`${f.alias}_to`]: to })}
        />
      );
  }
}

/** A query compared as the URL carries it (numbers and their strings alike). */
const queryKeyOf = (q: CaseQuery | null) =>
  Object.entries(q ?? {})
    .filter(([, x]) => x !== undefined && x !== null && x !== '')
    .map(([k, x]) => `${k}=${String(x)}`)
    .sort()
    .join('&');

/** Advanced search from GET /config/cfg/cases_advanced_filters (spec 2 §2.2): Search and Clear Search. */
export function AdvancedSearch({
  applied,
  onSearch,
  onClear,
}: {
  applied: CaseQuery | null;
  onSearch: (q: CaseQuery) => void;
  onClear: () => void;
}) {
  const formId = useId();
  const filters = useAdvancedFilters();
  const features = useMerchantFeatures();
  const fields = visibleFields(filters.data ?? [], features);
  const [values, setValues] = useState<FilterValues | null>(null);
  // The applied search changed from outside (Back, a link, a saved view): the form shows it. The
  // form's own Search and Clear change it too, and then keep what was typed (labels of selects).
  const appliedKey = queryKeyOf(applied);
  const [shownKey, setShownKey] = useState(appliedKey);
  const [submittedKey, setSubmittedKey] = useState<string | null>(null);
  if (shownKey !== appliedKey) {
    setShownKey(appliedKey);
    if (appliedKey !== submittedKey) setValues(null);
  }
  const v = values ?? (applied ? fromQuery(fields, applied) : initialValues(fields));
  const set = (changes: Record<string, FilterValue>) => setValues({ ...v, ...changes });

  if (filters.isPending) return <Spinner aria-label="Loading advanced search" />;
  if (filters.isError)
    return (
      <Notice status="error" testId="advanced-search-error">
        {MSG.advancedLoad}
      </Notice>
    );

  return (
    <Box
      as="form"
      borderWidth="1px"
      borderRadius="md"
      p="3"
      bg="white"
      data-testid="advanced-search"
      aria-label="Advanced search"
      onSubmit={(e) => {
        e.preventDefault();
        const q = toQuery(fields, v);
        setSubmittedKey(queryKeyOf(q));
        onSearch(q);
      }}
    >
      <SimpleGrid columns={{ base: 1, md: 2, xl: 3, '2xl': 4 }} gap="3">
        {fields.map((f) => (
          // A group, not a Field: amounts and date ranges have two controls, each with its own name.
          <Stack
            key={f.alias}
            gap="1"
            role="group"
            aria-labelledby={`${formId}-${f.alias}`}
            data-testid={`advanced-field-${f.alias}`}
          >
            <Text id={`${formId}-${f.alias}`} fontSize="sm" fontWeight="medium" data-field-label>
              {f.label}
            </Text>
            <FilterInput f={f} v={v} set={set} />
          </Stack>
        ))}
      </SimpleGrid>
      <HStack justify="flex-end" mt="3">
        <Button
          size="sm"
          variant="outline"
          onClick={() => {
            setValues(initialValues(fields));
            setSubmittedKey(queryKeyOf(null));
            onClear();
          }}
        >
          Clear Search
        </Button>
        <Button size="sm" colorPalette="brand" type="submit" data-testid="advanced-search-submit">
          Search
        </Button>
      </HStack>
      {applied && (
        <Text fontSize="xs" color="fg.muted" mt="1">
          Advanced search applied.
        </Text>
      )}
    </Box>
  );
}
