import { FIELD_GROUPS, type BuilderCase, type InternalContext } from '@portal/contracts';
import type { LookupPath } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { openPdf } from '../preview/pdfjs-node';
import { answerLabels, caseSummary } from './case-summary';

/** The case service's lookups as its routes answer them (migration 001's rows). */
const LOOKUPS: Partial<Record<LookupPath, object[]>> = {
  '/cm/gen/currencies': [
    { id: 1, currency: 'US Dollar', code: 'USD', iso: '840' },
    { id: 5, currency: 'Australian Dollar', code: 'AUD', iso: '036' },
  ],
  '/cm/gen/rc': [
    {
      id: 222,
      code: '4842',
      name: 'MasterCard - 4842',
      description: 'Late Presentment',
      is_fraud: false,
      card_type: { id: 2, name: 'MasterCard' },
      category: { id: 3, name: 'Processing Errors' },
    },
  ],
  '/cm/gen/countries': [
    { id: 1, code: 'US', name: 'United States', number_code: '840' },
    { id: 3, code: 'GB', name: 'United Kingdom', number_code: '826' },
  ],
};

/** A case service stand-in that counts the lookups asked. */
function fakeCases() {
  const asked: string[] = [];
  return {
    asked,
    lookup: <T extends { id: number }>(_ctx: InternalContext, path: LookupPath) => {
      asked.push(path);
      return Promise.resolve((LOOKUPS[path] ?? []) as T[]);
    },
  };
}

const ctx = { tenant: 'acme', username: 'manager' } as InternalContext;

/** A builder page of the catalogue's groups with these answers (field id -> value). */
function page(
  n: number,
  groupIds: number[],
  values: Record<number, string>,
  extra: object[] = [],
): BuilderCase {
  const groups = FIELD_GROUPS.filter((g) => groupIds.includes(g.id)).map((g) => ({
    id: g.id,
    name: g.name,
    fields: g.fields.map((f) => ({
      id: f.id,
      name: f.name,
      label: f.label,
      type: f.type,
      is_required: f.required ?? false,
      full_width: f.full ?? false,
      endpoint: f.endpoint ?? null,
      value: values[f.id] ?? null,
    })),
  }));
  if (extra.length) groups.push({ id: 99, name: 'Other Details', fields: extra as never });
  return {
    id: 7,
    mid_id: 1,
    merchant_id: 1,
    page: n,
    product_id: null,
    product: null,
    category_id: null,
    sale_type: 1,
    type_id: 1,
    is_shippable: true,
    is_service: false,
    is_subscription: false,
    groups,
    reason_code: '4842',
    reason_code_description: 'Late Presentment',
    reason_category: 'Processing Errors',
    case_no: 'CB-7',
    cc_no: null,
    dispute_amt: 12,
    dispute_currency: 'AUD',
    date_trans: '2026-01-15',
    date_created: '2026-02-01',
    date_due: '2026-03-01',
    status_id: 1,
    assigned_user_id: null,
    last_updated: { timestamp: '2026-02-02T10:00:00.000Z', username: 'manager' },
  };
}

/** A plain select: options of its own, no lookup to ask. */
const plainSelect = {
  id: 500,
  name: 'delivery_proof',
  label: 'Delivery Proof',
  type: 'select',
  is_required: false,
  full_width: false,
  endpoint: null,
  value: 'Signed',
};

const pages = () => [
  page(1, [1, 2], { 11: 'Jane', 12: 'Doe', 55: '5', 65: '1' }),
  // Shipping Country 42 is no longer in the lookup: its value is printed as saved.
  page(2, [3, 14], { 70: '1 Main St', 117: '42', 49: '222' }, [plainSelect]),
];

/** The first page's lines as read back by pdf.js: a label and its value, one line each. */
async function linesOf(bytes: Uint8Array): Promise<string[]> {
  const pdf = await openPdf(bytes);
  const content = await (await pdf.getPage(1)).getTextContent();
  const lines = new Map<number, string[]>();
  for (const item of content.items) {
    if (!('str' in item) || !item.str.trim()) continue;
    const y = Math.round(item.transform[5] as number);
    lines.set(y, [...(lines.get(y) ?? []), item.str.trim()]);
  }
  await pdf.destroy();
  return [...lines.values()].map((parts) => parts.join(' | '));
}

describe('the case summary of the builder', () => {
  it('names each answered lookup select by the case service’s lookup, asking each lookup once', async () => {
    const cases = fakeCases();
    const labels = await answerLabels(cases, ctx, pages());
    expect(Object.fromEntries(labels)).toEqual({
      55: 'AUD',
      65: 'United States',
      49: '4842 - Late Presentment',
    });
    expect(cases.asked.sort()).toEqual(['/cm/gen/countries', '/cm/gen/currencies', '/cm/gen/rc']);
  });

  it('asks nothing when no lookup select is answered', async () => {
    const cases = fakeCases();
    const labels = await answerLabels(cases, ctx, [page(1, [1, 2], { 11: 'Jane', 55: '' })]);
    expect(labels.size).toBe(0);
    expect(cases.asked).toEqual([]);
  });

  it('prints the names, never the ids; an unknown id and a plain select print their value', async () => {
    const summary = await caseSummary(
      fakeCases(),
      ctx,
      { id: 7, merchant_name: 'Acme Outdoor' } as never,
      pages(),
    );
    expect(summary.filename).toBe('case-summary-7.pdf');
    const lines = await linesOf(summary.bytes);
    expect(lines).toEqual(
      expect.arrayContaining([
        'Currency | AUD',
        'Billing Country | United States',
        'Shipping Country | 42',
        'Delivery Proof | Signed',
      ]),
    );
    // The case's own reason code line, and the Case History answer: the same words.
    expect(lines.filter((l) => l === 'Reason Code | 4842 - Late Presentment')).toHaveLength(2);
    expect(lines.filter((l) => /\| (5|1|222)$/.test(l))).toEqual([]);
  });

  it('is the same bytes every time it is made', async () => {
    const make = async () =>
      (await caseSummary(fakeCases(), ctx, { id: 7, merchant_name: 'Acme Outdoor' } as never, pages())).bytes;
    expect(Buffer.from(await make()).equals(Buffer.from(await make()))).toBe(true);
  });
});
