import type { AdvancedFilterField } from '@portal/contracts';
import type { CaseQuery } from '../../api/get-cases';
import type { Choice } from '../../../../lib/option-pages';

/**
 * The advanced search form's values by key: text and amounts as strings,
 * free-text multi-values as string lists, select choices as value + label.
 * Amount operators sit under `{alias}_operator`, date ends under
 * `{alias}_from` / `{alias}_to`.
 */
export type FilterValue = string | string[] | Choice[];
export type FilterValues = Record<string, FilterValue>;

export const AMOUNT_OPERATORS = ['<', '<=', '=', '>', '>='] as const;
/** initial_compare_value names (lt, lte, ...) or the operators themselves. */
const COMPARE: Record<string, string> = { lt: '<', lte: '<=', eq: '=', gt: '>', gte: '>=' };
export const FILTER_TYPES = new Set<string>([
  'select',
  'text',
  'userDefinedMultiSelect',
  'amount',
  'date',
  'due-date',
]);
/** Filter aliases whose list parameter has another name. */
const PARAM: Record<string, string> = {
  cc_type: 'card_type_id',
  date_post: 'date_range',
  date_due: 'due_date_range',
  date_trans: 'trans_date_range',
  date_completed: 'completed_date_range',
};

/** The /cm/cases parameter a field fills. */
export const paramOf = (f: AdvancedFilterField) => f.alias_override ?? PARAM[f.alias] ?? f.alias;
export const operatorKey = (f: AdvancedFilterField) => `${f.alias}_operator`;

/** The operator an amount gets when a value is entered with none chosen. */
export function defaultOperator(f: AdvancedFilterField): string {
  const c = f.initial_compare_value ?? '';
  return COMPARE[c] ?? ((AMOUNT_OPERATORS as readonly string[]).includes(c) ? c : '>=');
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v == null || v === '' ? [] : [v]);

/** The form as the configuration starts it (initial_value, initial_compare_value). */
export function initialValues(fields: AdvancedFilterField[]): FilterValues {
  const values: FilterValues = {};
  for (const f of fields) {
    const init = f.initial_value;
    if (f.type === 'select') {
      // A label from default_options when there is one; an endpoint's label is known only once loaded.
      values[f.alias] = asList(init).map((x) => ({
        value: String(x),
        label: f.default_options?.find((o) => String(o.value) === String(x))?.label ?? String(x),
      }));
    } else if (f.type === 'userDefinedMultiSelect') {
      values[f.alias] = asList(init).map(String);
    } else if (f.type === 'date' || f.type === 'due-date') {
      const [from, to] = typeof init === 'string' ? init.split('|') : [];
      values[`${f.alias}_from`] = from ?? '';
      values[`${f.alias}_to`] = to ?? '';
    } else {
      values[f.alias] = init == null ? '' : String(init);
      if (f.type === 'amount') values[operatorKey(f)] = values[f.alias] ? defaultOperator(f) : '';
    }
  }
  return values;
}

const text = (v: FilterValue | undefined) => (typeof v === 'string' ? v.trim() : '');
const numericOr = (s: string) => (/^\d+$/.test(s) ? Number(s) : s);

/** The advanced search as /cm/cases parameters; an operator is sent only with its value. */
export function toQuery(fields: AdvancedFilterField[], values: FilterValues): CaseQuery {
  const q: Record<string, unknown> = {};
  for (const f of fields) {
    const param = paramOf(f);
    const value = values[f.alias];
    if (f.type === 'select') {
      const ids = ((value as Choice[] | undefined) ?? []).map((c) => c.value);
      if (ids.length) q[param] = ids.length === 1 ? numericOr(ids[0]!) : ids.join(',');
    } else if (f.type === 'userDefinedMultiSelect') {
      const list = (value as string[] | undefined) ?? [];
      if (list.length) q[param] = list.join(',');
    } else if (f.type === 'date' || f.type === 'due-date') {
      const from = text(values[`${f.alias}_from`]);
      const to = text(values[`${f.alias}_to`]);
      if (from && to) q[param] = `${from}|${to}`;
    } else if (f.type === 'amount') {
      const t = text(value);
      if (t !== '' && Number.isFinite(Number(t)) && Number(t) >= 0) {
        q[param] = Number(t);
        q[`${param}_operator`] = text(values[operatorKey(f)]) || defaultOperator(f);
      }
    } else if (f.type === 'text') {
      const t = text(value);
      if (t) q[param] = t;
    }
  }
  return q as CaseQuery;
}

/**
 * The form of an applied advanced search (from the list's URL or a saved
 * view): the inverse of toQuery. Select labels come from default_options when
 * there; an endpoint's label is known only once its options are loaded.
 */
export function fromQuery(fields: AdvancedFilterField[], query: CaseQuery): FilterValues {
  const q = query as Record<string, unknown>;
  const values: FilterValues = {};
  const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  for (const f of fields) {
    const raw = q[paramOf(f)];
    if (f.type === 'select') {
      values[f.alias] = str(raw)
        .split(',')
        .filter(Boolean)
        .map((x) => ({
          value: x,
          label: f.default_options?.find((o) => String(o.value) === x)?.label ?? x,
        }));
    } else if (f.type === 'userDefinedMultiSelect') {
      values[f.alias] = str(raw).split(',').filter(Boolean);
    } else if (f.type === 'date' || f.type === 'due-date') {
      const [from = '', to = ''] = str(raw).split('|');
      values[`${f.alias}_from`] = from;
      values[`${f.alias}_to`] = to;
    } else {
      values[f.alias] = str(raw);
      if (f.type === 'amount')
        values[operatorKey(f)] = raw === undefined ? '' : str(q[`${paramOf(f)}_operator`]);
    }
  }
  return values;
}
