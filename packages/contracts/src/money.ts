import { Type, type Static } from '@sinclair/typebox';
import { Id, Text } from './common';
import { ReportQuery } from './reports';

/**
 * The money ledger (issue 33 part 1, design §15): what disputes recovered, lost and cost, in the tenant's
 * reporting currency, read from the report rollups. Paths (without /api):
 *   GET  /cm/cases/{id}/money                          -> CaseMoney
 *   GET  /cm/cases/dashboard/recovered                 -> RecoveredTile (client_id)
 *   GET  /cm/cases/reports/recovered-revenue (+ .csv)  -> RecoveredRevenueRows (ReportQuery + group_by)
 *   GET  /cm/money/rates                               -> ExchangeRateSummary (provider staff)
 *   POST /cm/money/rates  {csv}                        -> ExchangeRatesUploadResult (cb911_admin)
 */

/** Currencies a tenant may report in (the currencies lookup's codes). */
export const REPORTING_CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'MXN'] as const;
export type ReportingCurrency = (typeof REPORTING_CURRENCIES)[number];
/** Card networks of a fee line: the card types lookup's aliases. */
export const FEE_CARD_NETWORKS = ['visa', 'mastercard', 'amex', 'discover'] as const;
/** Cycles of a fee line: first chargeback, second chargeback (arbitration), retrieval request. */
export const FEE_CYCLES = ['first', 'second', 'rfi'] as const;

const Fee = () => Type.Number({ minimum: 0, maximum: 100_000 });
/**
 * One line of a tenant's dispute fees (config/tenants `fees`), in the reporting currency: network_fee and
 * processor_fee are charged on every case of the network and cycle, loss_fee only when the case is lost
 * (the card network's arbitration fee of a second cycle, 'up to $1000.00+' in the spec's warning).
 */
export const MoneyFeeConfig = Type.Object(
  {
    card_network: Type.Union(FEE_CARD_NETWORKS.map((n) => Type.Literal(n))),
    cycle: Type.Union(FEE_CYCLES.map((c) => Type.Literal(c))),
    network_fee: Fee(),
    processor_fee: Fee(),
    loss_fee: Type.Optional(Fee()),
  },
  { additionalProperties: false },
);
export type MoneyFeeConfig = Static<typeof MoneyFeeConfig>;
export const ReportingCurrencyConfig = Type.Union(REPORTING_CURRENCIES.map((c) => Type.Literal(c)));

const Amount = () => Type.Union([Type.Number(), Type.Null()]);
const Amounts = Type.Object({
  currency: Type.String(),
  disputed: Amount(),
  recovered: Amount(),
  lost: Amount(),
  fees: Amount(),
  net: Amount(),
});
/**
 * One case's money (migration 040), in its currency and in the reporting currency; the reporting amounts
 * (and the fees in the case currency) are null while no rate covers the case's post date.
 */
export const CaseMoney = Type.Object({
  case_id: Type.Integer(),
  case_currency: Amounts,
  reporting_currency: Amounts,
  /** Rate to the reporting currency used (the newest on or before the post date); null: none yet. */
  rate: Type.Union([Type.Number(), Type.Null()]),
});
export type CaseMoney = Static<typeof CaseMoney>;

/** Recovered, lost and fees of a selection, in the reporting currency; net = recovered - fees. */
export const MoneyTotals = Type.Object({
  chargebacks: Type.Integer(),
  recovered: Type.Number(),
  lost: Type.Number(),
  fees: Type.Number(),
  net: Type.Number(),
  /** Cases of the selection without an exchange rate for their currency and day: not in the sums. */
  unrated: Type.Integer(),
});
export type MoneyTotals = Static<typeof MoneyTotals>;

export const RecoveredTile = Type.Object({
  currency: Type.String(),
  this_month: MoneyTotals,
  last_month: MoneyTotals,
  /** Net recovered this month against last month, in percent; null when last month's net is 0. */
  change_percent: Type.Union([Type.Number(), Type.Null()]),
});
export type RecoveredTile = Static<typeof RecoveredTile>;

export const RECOVERED_REVENUE_GROUPS = ['month', 'reason_code', 'mid'] as const;
export type RecoveredRevenueGroup = (typeof RECOVERED_REVENUE_GROUPS)[number];
export const RecoveredRevenueQuery = Type.Composite([
  ReportQuery,
  Type.Object({
    group_by: Type.Optional(Type.Union(RECOVERED_REVENUE_GROUPS.map((g) => Type.Literal(g)))),
  }),
]);
export type RecoveredRevenueQuery = Static<typeof RecoveredRevenueQuery>;
export const RecoveredRevenueRow = Type.Composite([
  Type.Object({ key: Type.String(), label: Type.String() }),
  MoneyTotals,
]);
export type RecoveredRevenueRow = Static<typeof RecoveredRevenueRow>;
export const RecoveredRevenueRows = Type.Object({
  currency: Type.String(),
  /** Of every group, also those beyond `limit`. */
  total: MoneyTotals,
  /** How many groups there are; `data` holds the first `limit` of them. */
  groups: Type.Integer({ minimum: 0 }),
  data: Type.Array(RecoveredRevenueRow),
});
export type RecoveredRevenueRows = Static<typeof RecoveredRevenueRows>;

/** The columns of the section and its CSV export, in order. */
export const RECOVERED_REVENUE_COLUMNS = [
  { accessor: 'label', label: 'Group' },
  { accessor: 'chargebacks', label: 'Chargebacks' },
  { accessor: 'recovered', label: 'Recovered' },
  { accessor: 'lost', label: 'Lost' },
  { accessor: 'fees', label: 'Fees' },
  { accessor: 'net', label: 'Net Recovered' },
  { accessor: 'unrated', label: 'Without Rate' },
] as const satisfies ReadonlyArray<{ accessor: keyof RecoveredRevenueRow; label: string }>;

// --- Exchange rates
/** The CSV an admin uploads: header `date,currency,rate_to_reporting`, one rate per line. */
export const EXCHANGE_RATES_HEADER = 'date,currency,rate_to_reporting';
export const ExchangeRatesUpload = Type.Object(
  { csv: Text({ minLength: 1, maxLength: 2_000_000 }) },
  { additionalProperties: false },
);
export type ExchangeRatesUpload = Static<typeof ExchangeRatesUpload>;
export const ExchangeRatesUploadResult = Type.Object({
  /** Rates new or changed; the rest were already loaded with the same value. */
  upserted: Type.Integer(),
  unchanged: Type.Integer(),
  /** Cases whose reporting amounts the upload changed. */
  repriced_cases: Type.Integer(),
});
export type ExchangeRatesUploadResult = Static<typeof ExchangeRatesUploadResult>;
export const ExchangeRateSummary = Type.Object({
  reporting_currency: Type.String(),
  data: Type.Array(
    Type.Object({
      currency_id: Id(),
      currency: Type.String(),
      first_day: Type.String(),
      last_day: Type.String(),
      days: Type.Integer(),
      latest_rate: Type.Number(),
    }),
  ),
  /** Cases of the tenant without a rate (their money is not in the reports). */
  unrated_cases: Type.Integer(),
});
export type ExchangeRateSummary = Static<typeof ExchangeRateSummary>;
