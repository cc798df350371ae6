import {
  BUILDER_MESSAGES as M,
  CATALOGUE_FIELDS,
  SALE_TYPE_IDS,
  transactionType,
  type BuilderFieldError,
  type BuilderSaveBody,
  type CatalogueField,
} from '@portal/contracts';

/**
 * The server rules of the case builder (spec 2 §4 'Case builder', §5 'Case
 * builder'). Pure: the route gives it the facts it looked up (the chosen
 * product, the category, the saved values); it answers every refused field,
 * so the browser can mark them all at once, and the normalised values.
 */
export interface RuleFacts {
  page: number;
  /** Field ids shown on this page. */
  pageFields: ReadonlySet<number>;
  /** Value a field has without this save (saved answer, else prefill from the case). */
  currentValue: (id: number) => string | null;
  /** Page 1: the existing product chosen, when it belongs to the case's MID; undefined when not found. */
  product?: { id: number; type_id: number } | null;
  /** Page 1: the category named, when offered to the case's merchant; undefined when not found. */
  categoryFound?: boolean;
  /** The item ids (as saved: strings) a select field of this save may pick, by field id: its lookup list. */
  options?: ReadonlyMap<number, { has(id: string): boolean }>;
}

export interface RuleResult {
  errors: BuilderFieldError[];
  values: Array<{ id: number; value: string | null }>;
  typeId: number | null;
}

const TEXT_MAX = 500;
const TEXTAREA_MAX = 10000;

function isDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** One value by its field type: the error text, or null when it is fine. */
export function fieldError(field: CatalogueField, value: string): string | null {
  switch (field.type) {
    case 'number':
      return /^-?\d{1,12}(\.\d{1,2})?$/.test(value) ? null : M.badNumber;
    case 'date':
      return isDate(value) ? null : M.badDate;
    case 'mmYYDate':
      return /^(0[1-9]|1[0-2])\/\d{2}$/.test(value) ? null : M.badMmYy;
    case 'select':
      return /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2147483647 ? null : M.badSelect;
    case 'textarea':
      return value.length <= TEXTAREA_MAX ? null : M.tooLong(TEXTAREA_MAX);
    case 'text':
      return value.length <= TEXT_MAX ? null : M.tooLong(TEXT_MAX);
  }
}

const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';

/** The select fields a save answers (with a value): the lookup lists the route must fetch for checkSave. */
export function answeredSelects(body: BuilderSaveBody): CatalogueField[] {
  return body.fields.flatMap((f) => {
    const field = CATALOGUE_FIELDS.get(f.id);
    return field?.type === 'select' && field.endpoint && !blank(f.value === null ? null : String(f.value))
      ? [field]
      : [];
  });
}

export function checkSave(body: BuilderSaveBody, facts: RuleFacts): RuleResult {
  const errors = new Map<number | string, string[]>();
  const add = (id: number | string, text: string) => errors.set(id, [...(errors.get(id) ?? []), text]);
  let typeId: number | null = null;

  if (body.page === 1) {
    if (body.sale_type === undefined || body.sale_type === null) add('sale_type', M.saleTypeRequired);
    else if (!SALE_TYPE_IDS.includes(body.sale_type)) add('sale_type', M.saleTypeRequired);
    const shippable = body.is_shippable ?? false;
    const service = body.is_service ?? false;
    if (shippable && service) {
      add('is_shippable', M.exclusive);
      add('is_service', M.exclusive);
    } else {
      typeId = transactionType(shippable, service);
      if (body.type_id !== undefined && body.type_id !== null && body.type_id !== typeId)
        add('type_id', M.typeRule(typeId));
    }
    if (body.product_id !== undefined && body.product_id !== null) {
      if (!facts.product) add('product_id', M.unknownProduct);
    } else {
      if (blank(body.new_product_name)) add('new_product_name', M.productNameRequired);
      if (body.category_id === undefined || body.category_id === null) add('category_id', M.categoryRequired);
      else if (!facts.categoryFound) add('category_id', M.unknownCategory);
    }
  }

  const given = new Map<number, string | null>();
  for (const f of body.fields) {
    const field = CATALOGUE_FIELDS.get(f.id);
    if (!field || !facts.pageFields.has(f.id) || given.has(f.id)) {
      add(f.id, M.unknownField);
      continue;
    }
    const value = f.value === null ? null : String(f.value).trim();
    const normalised = value === '' ? null : value;
    given.set(f.id, normalised);
    if (normalised !== null) {
      const error = fieldError(field, normalised);
      if (error) add(f.id, error);
      else if (field.type === 'select' && !facts.options?.get(f.id)?.has(normalised)) add(f.id, M.badSelect);
    }
  }
  for (const id of facts.pageFields) {
    const field = CATALOGUE_FIELDS.get(id)!;
    if (!field.required || errors.has(id)) continue;
    const value = given.has(id) ? given.get(id)! : facts.currentValue(id);
    if (blank(value)) add(id, M.required);
  }
  return {
    errors: [...errors].map(([id, list]) => ({ id, errors: list })),
    values: [...given].map(([id, value]) => ({ id, value })),
    typeId,
  };
}
