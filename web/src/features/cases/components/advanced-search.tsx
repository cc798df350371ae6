import type { AdvancedFilterField } from '@portal/contracts';
import {
  Badge,
  Box,
  Button,
  Field,
  HStack,
  Input,
  NativeSelect,
  SimpleGrid,
  Spinner,
  Text,
  Wrap,
} from '@chakra-ui/react';
import { useState } from 'react';
import { Notice } from '../../../components/notice';
import { useAdvancedFilters } from '../api/get-advanced-filters';
import type { CaseQuery } from '../api/get-cases';
import { lookupLabel, useLookup } from '../api/get-lookup';
import { MSG } from '../lib/case-messages';

type Values = Record<string, string | string[]>;

const OPERATORS = ['<', '<=', '=', '>', '>='] as const;
const COMPARE: Record<string, string> = { lt: '<', lte: '<=', eq: '=', gt: '>', gte: '>=' };
/** Filter aliases whose list parameter has another name. */
const PARAM: Record<string, string> = {
  cc_type: 'card_type_id',
  date_post: 'date_range',
  date_due: 'due_date_range',
  date_trans: 'trans_date_range',
  date_completed: 'completed_date_range',
};
const KNOWN_TYPES = new Set(['select', 'text', 'userDefinedMultiSelect', 'amount', 'date', 'due-date']);

const paramOf = (f: AdvancedFilterField) => f.alias_override ?? PARAM[f.alias] ?? f.alias;

function initialValues(fields: AdvancedFilterField[]): Values {
  const v: Values = {};
  for (const f of fields) {
    if (f.initial_value != null) v[f.alias] = String(f.initial_value);
    if (f.type === 'amount') v[`${f.alias}_operator`] = COMPARE[f.initial_compare_value ?? ''] ?? '>=';
  }
  return v;
}

/** The advanced search values as list parameters; operators blank when their value is. */
export function toQuery(fields: AdvancedFilterField[], v: Values): CaseQuery {
  const q: Record<string, unknown> = {};
  for (const f of fields) {
    const value = v[f.alias];
    const param = paramOf(f);
    if (Array.isArray(value)) {
      if (value.length) q[param] = value.join(',');
    } else if (f.type === 'date' || f.type === 'due-date') {
      const from = v[`${f.alias}_from`] as string | undefined;
      const to = v[`${f.alias}_to`] as string | undefined;
      if (from && to) q[param] = `${from}|${to}`;
    } else if (value != null && String(value).trim() !== '') {
      const t = String(value).trim();
      q[param] = f.type === 'amount' || (/^\d+$/.test(t) && f.type === 'select') ? Number(t) : t;
      if (f.type === 'amount') q[`${param}_operator`] = v[`${f.alias}_operator`] || '>=';
    }
  }
  return q as CaseQuery;
}

function SelectField({
  f,
  value,
  onChange,
}: {
  f: AdvancedFilterField;
  value: string;
  onChange: (v: string) => void;
}) {
  const lookup = useLookup(f.default_options ? undefined : f.endpoint);
  const options =
    f.default_options ?? (lookup.data?.data ?? []).map((i) => ({ value: i.id, label: lookupLabel(i) }));
  return (
    <NativeSelect.Root size="sm">
      <NativeSelect.Field aria-label={f.label} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

/** Free-text multi-value: an entry is added on Enter or blur unless it is a duplicate. */
function MultiText({
  f,
  value,
  onChange,
}: {
  f: AdvancedFilterField;
  value: string[];
  onChange: (v: string[]) => void;
}) {
  const [text, setText] = useState('');
  const add = () => {
    const t = text.trim();
    if (t && !value.includes(t)) onChange([...value, t]);
    setText('');
  };
  return (
    <Box>
      <Input
        size="sm"
        aria-label={f.label}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={add}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
      />
      <Wrap mt="1">
        {value.map((x) => (
          <Badge
            key={x}
            cursor="pointer"
            onClick={() => onChange(value.filter((y) => y !== x))}
            title="Remove"
          >
            {x} ×
          </Badge>
        ))}
      </Wrap>
    </Box>
  );
}

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
  const filters = useAdvancedFilters();
  const fields = (filters.data ?? []).filter((f) => f.is_enabled);
  const [values, setValues] = useState<Values | null>(null);
  const v = values ?? initialValues(fields);
  const set = (k: string, x: string | string[]) => setValues({ ...v, [k]: x });

  if (filters.isPending) return <Spinner />;
  if (filters.isError) return <Notice status="error">{MSG.advancedLoad}</Notice>;

  return (
    <Box borderWidth="1px" borderRadius="md" p="3" bg="white" data-testid="advanced-search">
      <SimpleGrid columns={{ base: 1, md: 2, xl: 4 }} gap="3">
        {fields.map((f) => (
          <Field.Root key={f.alias}>
            <Field.Label>{f.label}</Field.Label>
            {!KNOWN_TYPES.has(f.type) && <Text color="red.600">{MSG.unknownProperty}</Text>}
            {f.type === 'text' && (
              <Input
                size="sm"
                aria-label={f.label}
                value={(v[f.alias] as string) ?? ''}
                onChange={(e) => set(f.alias, e.target.value)}
              />
            )}
            {f.type === 'select' && (
              <SelectField f={f} value={(v[f.alias] as string) ?? ''} onChange={(x) => set(f.alias, x)} />
            )}
            {f.type === 'userDefinedMultiSelect' && (
              <MultiText f={f} value={(v[f.alias] as string[]) ?? []} onChange={(x) => set(f.alias, x)} />
            )}
            {f.type === 'amount' && (
              <HStack>
                <NativeSelect.Root size="sm" width="20">
                  <NativeSelect.Field
                    aria-label={`${f.label} operator`}
                    value={(v[`${f.alias}_operator`] as string) ?? '>='}
                    onChange={(e) => set(`${f.alias}_operator`, e.target.value)}
                  >
                    {OPERATORS.map((o) => (
                      <option key={o} value={o}>
                        {o}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
                <Input
                  size="sm"
                  inputMode="decimal"
                  aria-label={f.label}
                  value={(v[f.alias] as string) ?? ''}
                  onChange={(e) => set(f.alias, e.target.value)}
                />
              </HStack>
            )}
            {(f.type === 'date' || f.type === 'due-date') && (
              <HStack>
                <Input
                  size="sm"
                  type="date"
                  aria-label={`${f.label} from`}
                  value={(v[`${f.alias}_from`] as string) ?? ''}
                  max={f.type === 'date' ? new Date().toISOString().slice(0, 10) : undefined}
                  onChange={(e) => set(`${f.alias}_from`, e.target.value)}
                />
                <Input
                  size="sm"
                  type="date"
                  aria-label={`${f.label} to`}
                  value={(v[`${f.alias}_to`] as string) ?? ''}
                  onChange={(e) => set(`${f.alias}_to`, e.target.value)}
                />
              </HStack>
            )}
          </Field.Root>
        ))}
      </SimpleGrid>
      <HStack justify="flex-end" mt="3">
        <Button
          size="sm"
          variant="outline"
          onClick={() => {
            setValues(initialValues(fields));
            onClear();
          }}
        >
          Clear Search
        </Button>
        <Button
          size="sm"
          colorPalette="brand"
          onClick={() => onSearch(toQuery(fields, v))}
          data-testid="advanced-search-submit"
        >
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
