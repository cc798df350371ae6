import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Id, IdList, ListResponse, Offset, Text } from './common';

/**
 * Reports and analytics of the case service (spec 3 §2, §7; issue 18). Paths (without /api):
 *   GET  /cm/cases/reports/<chart>                      -> ReportRows / ReportSeries (REPORT_CHARTS)
 *   GET  /cm/cases/reports/res-kpi/chargebacks          -> KpiChargebacks
 *   GET  /cm/cases/reports/res-kpi/alerts               -> KpiAlerts
 *   GET  /cm/cases/reports/mid-health (+ .csv)          -> MidHealthList
 *   GET  /cm/cases/reports/reconciliation (+ .csv)      -> ReconciliationList
 *   POST /cm/cases/reports/reconciliation/flag/bulk     {flags[]} -> ReconciliationFlagResult
 *   POST /cm/cases/reports/reconciliation/flag/delete   {ids[]}   -> ReconciliationCountResult
 *   POST /cm/cases/reports/reconciliation/review        {rows[]}  -> ReconciliationCountResult
 *   GET  /cm/cases/reports/mtd                          -> MtdReport
 *   GET  /cm/cases/reports/alerts                       -> AlertsReport
 *   GET  /cm/cases/reports/monitoring                   -> MonitoringReport
 *   GET  /cm/cases/reports/win-rate                     -> WinRateRows
 */

/** -1 means 'all' (the web app omits the parameter then, spec 3 §7; both are accepted). */
const AllOrId = () => Type.Integer({ minimum: -1, maximum: 2_147_483_647 });

export const DATE_REFERENCES = ['post', 'transaction'] as const;
export type DateReference = (typeof DATE_REFERENCES)[number];

/** The common parameters of the report calls. */
export const ReportQuery = Type.Object({
  merchant_id: Type.Optional(AllOrId()),
  mid_id: Type.Optional(AllOrId()),
  currency_id: Type.Optional(AllOrId()),
  date_reference: Type.Optional(Type.Union(DATE_REFERENCES.map((r) => Type.Literal(r)))),
  /** 'yyyy-MM-dd|yyyy-MM-dd'; default the last 30 days. */
  date_range: Type.Optional(Text({ maxLength: 40 })),
  /** The MID's payment gateway (its processor); -1 all. */
  gateway_id: Type.Optional(AllOrId()),
  /** Processor ids (platforms), comma-separated. */
  platforms: Type.Optional(IdList({ maxLength: 200 })),
  /** Top-N charts: how many labels (the rest are not summed into 'Other'). */
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  /** chargebacks-by-issuer: label the bars by BIN (default) or issuer name. */
  label: Type.Optional(Type.Union([Type.Literal('bin'), Type.Literal('issuer')])),
});
export type ReportQuery = Static<typeof ReportQuery>;

/** One slice or bar: count and its percent of every chargeback of the selection. */
export const ReportRow = Type.Object({
  key: Type.String(),
  label: Type.String(),
  count: Type.Integer(),
  amount: Type.Number(),
  percent: Type.Number(),
});
export type ReportRow = Static<typeof ReportRow>;
export const ReportRows = Type.Object({ total: Type.Integer(), data: Type.Array(ReportRow) });
export type ReportRows = Static<typeof ReportRows>;

/** A point of a time series: period start (yyyy-MM-dd; a month or a week), a count, a base and a ratio. */
export const SeriesPoint = Type.Object({
  period: Type.String(),
  /** Chargebacks of the period (or the chart's own count). */
  count: Type.Integer(),
  /** What the count is compared with: transactions, or all chargebacks. */
  base: Type.Integer(),
  /** count / base * 100, two decimals (0 with no base). */
  percent: Type.Number(),
  /** Average span in days (span chart only). */
  average: Type.Optional(Type.Number()),
});
export type SeriesPoint = Static<typeof SeriesPoint>;
export const ReportSeries = Type.Object({ data: Type.Array(SeriesPoint) });
export type ReportSeries = Static<typeof ReportSeries>;

/** Stacked bars: card type share of each platform's chargebacks. */
export const PlatformCardRows = Type.Object({
  data: Type.Array(
    Type.Object({
      platform: Type.String(),
      card_type: Type.String(),
      count: Type.Integer(),
      percent: Type.Number(),
    }),
  ),
});
export type PlatformCardRows = Static<typeof PlatformCardRows>;

/** Charts of the /reports page: path segment and answer kind. */
export const REPORT_CHARTS = {
  'cb-by-trans-month': 'series',
  'percent-chargebacks-by-trans-amount-range': 'rows',
  'chargebacks-by-issuer': 'rows',
  'span-between-post-trans-date': 'series',
  'chargeback-transaction-ratio-by-transaction-date-week': 'series',
  'cb-non-unique-customers': 'series',
  'cb-by-reason-code': 'rows',
  'card-type': 'rows',
  'cases-status-totals': 'rows',
  verdict: 'rows',
  'location-type': 'rows',
  'percent-chargebacks-by-processor-by-cc-type': 'platform-card',
  'cases-by-platform': 'rows',
} as const;
export type ReportChart = keyof typeof REPORT_CHARTS;

/**
 * `GET /cm/cases/reports/cases-status-totals`: the case status chart of /reports and the status totals
 * of the chargebacks list (spec 2 §7, which names the merchant `client_id`). Without date_range it
 * counts every case of the scope (the list's totals); with one, the cases posted in it.
 */
export const StatusTotalsReportQuery = Type.Composite([
  ReportQuery,
  Type.Object({ client_id: Type.Optional(AllOrId()) }),
]);
export type StatusTotalsReportQuery = Static<typeof StatusTotalsReportQuery>;
export const StatusTotalsReport = Type.Object({
  total: Type.Integer(),
  data: Type.Array(
    Type.Composite([
      ReportRow,
      Type.Object({ status_group_id: Type.Integer(), status_group: Type.String() }),
    ]),
  ),
});
export type StatusTotalsReport = Static<typeof StatusTotalsReport>;

// --- Resultant KPI
export const KpiQuery = Type.Object({
  merchant_id: Type.Optional(AllOrId()),
  /** Default the prior 6 months. */
  date_range: Type.Optional(Text({ maxLength: 40 })),
  currency_id: Type.Optional(AllOrId()),
  platform_id: Type.Optional(AllOrId()),
});
export type KpiQuery = Static<typeof KpiQuery>;
export const KpiChargebacks = Type.Object({
  data: Type.Array(
    Type.Object({
      month: Type.String(),
      chargebacks: Type.Integer(),
      transactions: Type.Integer(),
      result_ratio: Type.Number(),
    }),
  ),
});
export type KpiChargebacks = Static<typeof KpiChargebacks>;
export const KpiAlerts = Type.Object({
  data: Type.Array(
    Type.Object({
      month: Type.String(),
      alert_total: Type.Integer(),
      chargeback_total: Type.Integer(),
      total: Type.Integer(),
    }),
  ),
});
export type KpiAlerts = Static<typeof KpiAlerts>;

// --- MID health
export const MID_HEALTH_RATINGS = ['Good', 'Low Risk', 'Medium Risk', 'High Risk'] as const;
export type MidHealthRating = (typeof MID_HEALTH_RATINGS)[number];
export const MID_HEALTH_SORT = [
  'mid',
  'mid_alias',
  'mid_group',
  'platform',
  'transactions',
  'chargebacks',
  'ratio',
  'alert_count',
  'alert_trans_ratio',
  'alert_chargebacks_ratio',
] as const;
export const MidHealthQuery = Type.Object({
  merchant_id: Type.Optional(AllOrId()),
  date_range: Type.Optional(Text({ maxLength: 40 })),
  search: Type.Optional(Text({ maxLength: 100 })),
  rating: Type.Optional(Type.Union([Type.Literal('ALL'), ...MID_HEALTH_RATINGS.map((r) => Type.Literal(r))])),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  sort_by: Type.Optional(Type.Union(MID_HEALTH_SORT.map((c) => Type.Literal(c)))),
  sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});
export type MidHealthQuery = Static<typeof MidHealthQuery>;
export const MidHealthRow = Type.Object({
  mid_id: Type.Integer(),
  health: Type.Union([...MID_HEALTH_RATINGS.map((r) => Type.Literal(r)), Type.Null()]),
  gateway_id: Type.Union([Type.Integer(), Type.Null()]),
  mid_group: Type.String(),
  mid: Type.String(),
  mid_alias: Type.Union([Type.String(), Type.Null()]),
  platform: Type.Union([Type.String(), Type.Null()]),
  transactions: Type.Integer(),
  chargebacks: Type.Integer(),
  ratio: Type.Number(),
  ethoca_count: Type.Integer(),
  cdrn_count: Type.Integer(),
  order_insight_count: Type.Integer(),
  rdr_count: Type.Integer(),
  other_count: Type.Integer(),
  alert_count: Type.Integer(),
  alert_trans_ratio: Type.Number(),
  alert_chargebacks_ratio: Type.Number(),
});
export type MidHealthRow = Static<typeof MidHealthRow>;
export const MidHealthList = ListResponse(MidHealthRow);
export type MidHealthList = Static<typeof MidHealthList>;
export const MID_HEALTH_COLUMNS: ReadonlyArray<{ accessor: keyof MidHealthRow; label: string }> = [
  { accessor: 'health', label: 'Health' },
  { accessor: 'gateway_id', label: 'Gateway ID' },
  { accessor: 'mid_group', label: 'MID Group' },
  { accessor: 'mid', label: 'MID' },
  { accessor: 'mid_alias', label: 'MID Alias' },
  { accessor: 'platform', label: 'Platform' },
  { accessor: 'transactions', label: 'Transactions' },
  { accessor: 'chargebacks', label: 'Chargebacks' },
  { accessor: 'ratio', label: 'Ratio %' },
  { accessor: 'ethoca_count', label: 'Ethoca' },
  { accessor: 'cdrn_count', label: 'CDRN' },
  { accessor: 'order_insight_count', label: 'Order Insight' },
  { accessor: 'rdr_count', label: 'RDR' },
  { accessor: 'other_count', label: 'Other' },
  { accessor: 'alert_count', label: 'Alerts' },
  { accessor: 'alert_trans_ratio', label: 'Alert/Trans %' },
  { accessor: 'alert_chargebacks_ratio', label: 'Alert/Chargebacks %' },
];

// --- Reconciliation
export const ReconciliationQuery = Type.Object({
  merchant_id: Type.Optional(AllOrId()),
  date_range: Type.Optional(Text({ maxLength: 40 })),
  platforms: Type.Optional(IdList({ maxLength: 200 })),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
});
export type ReconciliationQuery = Static<typeof ReconciliationQuery>;
const CountMap = Type.Record(Type.String(), Type.Integer());
export const ReconciliationRow = Type.Object({
  /** processor_id|date: the row's identity for flag and review calls. */
  id: Type.String(),
  date: Type.String(),
  processor_id: Type.Integer(),
  platform: Type.String(),
  retrievals: Type.Integer(),
  /** First and second cycle chargebacks by card type; the grid shows their sums. */
  first_cycle: CountMap,
  second_cycle: CountMap,
  first_cycle_total: Type.Integer(),
  second_cycle_total: Type.Integer(),
  /** Change against the processor's previous day with chargebacks, percent (null without one). */
  first_cycle_trend: Type.Union([Type.Number(), Type.Null()]),
  second_cycle_trend: Type.Union([Type.Number(), Type.Null()]),
  representments: Type.Integer(),
  total_wins: Type.Integer(),
  /** Wins per representment, percent. */
  win_trend: Type.Union([Type.Number(), Type.Null()]),
  flag: Type.Union([
    Type.Object({
      id: Type.Integer(),
      comment: Type.String(),
      created_by: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ]),
  reviewer: Type.Union([Type.String(), Type.Null()]),
});
export type ReconciliationRow = Static<typeof ReconciliationRow>;
export const ReconciliationList = ListResponse(ReconciliationRow);
export type ReconciliationList = Static<typeof ReconciliationList>;
const RowKey = {
  processor_id: Id(),
  date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 }),
};
export const ReconciliationFlagBody = Type.Object({
  flags: Type.Array(Type.Object({ ...RowKey, comment: Text({ minLength: 1, maxLength: 1000 }) }), {
    minItems: 1,
    maxItems: 500,
  }),
  merchant_id: Type.Optional(AllOrId()),
});
export type ReconciliationFlagBody = Static<typeof ReconciliationFlagBody>;
export const ReconciliationUnflagBody = Type.Object({
  ids: Type.Array(Id(), { minItems: 1, maxItems: 500 }),
});
export type ReconciliationUnflagBody = Static<typeof ReconciliationUnflagBody>;
export const ReconciliationReviewBody = Type.Object({
  rows: Type.Array(Type.Object(RowKey), { minItems: 1, maxItems: 500 }),
  merchant_id: Type.Optional(AllOrId()),
});
export type ReconciliationReviewBody = Static<typeof ReconciliationReviewBody>;
export const ReconciliationFlagResult = Type.Object({
  data: Type.Array(Type.Object({ id: Type.Integer(), processor_id: Type.Integer(), date: Type.String() })),
});
export type ReconciliationFlagResult = Static<typeof ReconciliationFlagResult>;
export const ReconciliationCountResult = Type.Object({ count: Type.Integer() });
export type ReconciliationCountResult = Static<typeof ReconciliationCountResult>;
export const RECONCILIATION_MESSAGES = {
  flagError: 'There was an error flagging these reports.',
  unflagError: 'There was an error unflagging these reports.',
  reviewError: 'There was an issue. Please try again.',
  reviewed: 'The selected row(s) has been reviewed.',
} as const;

// --- Month to date
export const MtdQuery = Type.Object({
  merchant_id: Type.Optional(AllOrId()),
  mid_id: Type.Optional(AllOrId()),
  currency_id: Type.Optional(AllOrId()),
  platforms: Type.Optional(IdList({ maxLength: 200 })),
});
export type MtdQuery = Static<typeof MtdQuery>;
export const MtdMetric = Type.Object({
  key: Type.String(),
  label: Type.String(),
  current: Type.Number(),
  previous: Type.Number(),
  /** current against previous, percent (null when previous is 0). */
  change: Type.Union([Type.Number(), Type.Null()]),
  money: Type.Boolean(),
});
const MtdPeriods = Type.Object({ current: Type.Integer(), previous: Type.Integer() });
export const MtdReport = Type.Object({
  current: Type.Object({ from: Type.String(), to: Type.String() }),
  previous: Type.Object({ from: Type.String(), to: Type.String() }),
  /**
   * The tenant's reporting currency: every money metric is in it, converted as the money ledger converts
   * (issue 33: the newest rate of the currency on or before the day; recovered as the ledger counts it).
   */
  currency: Type.String(),
  /** Chargebacks and transactions of each period without a rate for their day: counted, not in the amounts. */
  unrated: Type.Object({ chargebacks: MtdPeriods, transactions: MtdPeriods }),
  metrics: Type.Array(MtdMetric),
  /** Cumulative chargebacks by day of month, this month and the previous one. */
  daily: Type.Array(Type.Object({ day: Type.Integer(), current: Type.Integer(), previous: Type.Integer() })),
});
export type MtdReport = Static<typeof MtdReport>;

// --- Alerts report
export const AlertsReportQuery = Type.Object({
  merchant_id: Type.Optional(AllOrId()),
  date_range: Type.Optional(Text({ maxLength: 40 })),
});
export type AlertsReportQuery = Static<typeof AlertsReportQuery>;
const AlertsReportRow = Type.Object({
  source: Type.String(),
  alerts: Type.Integer(),
  /** Refunded (outcomes 1-3) or resolved with the customer (8): a chargeback avoided. */
  resolved: Type.Integer(),
  already_chargeback: Type.Integer(),
  not_resolved: Type.Integer(),
  open: Type.Integer(),
  alert_amount: Type.Number(),
  /** Amount of the resolved alerts: what would otherwise have been disputed. */
  savings: Type.Number(),
  resolve_rate: Type.Number(),
});
export const AlertsReport = Type.Object({
  data: Type.Array(AlertsReportRow),
  total: AlertsReportRow,
  outcomes: Type.Array(Type.Object({ outcome: Type.String(), count: Type.Integer() })),
});
export type AlertsReport = Static<typeof AlertsReport>;

// --- Monitoring (card network programs)
export const MonitoringQuery = Type.Object({
  merchant_id: Type.Optional(AllOrId()),
  /** yyyy-MM; default the current month. */
  month: Type.Optional(Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', maxLength: 7 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});
export type MonitoringQuery = Static<typeof MonitoringQuery>;
export const MONITORING_STATUSES = ['Above threshold', 'Warning', 'OK'] as const;
export const MonitoringRow = Type.Object({
  network: Type.String(),
  mid_id: Type.Integer(),
  mid: Type.String(),
  mid_alias: Type.Union([Type.String(), Type.Null()]),
  merchant: Type.String(),
  disputes: Type.Integer(),
  transactions: Type.Integer(),
  ratio: Type.Number(),
  status: Type.Union(MONITORING_STATUSES.map((s) => Type.Literal(s))),
});
export type MonitoringRow = Static<typeof MonitoringRow>;
export const MonitoringReport = Type.Object({
  month: Type.String(),
  programs: Type.Array(
    Type.Object({
      network: Type.String(),
      program: Type.String(),
      ratio_threshold: Type.Number(),
      count_threshold: Type.Integer(),
      disputes: Type.Integer(),
      transactions: Type.Integer(),
      ratio: Type.Number(),
      above: Type.Integer(),
      warning: Type.Integer(),
    }),
  ),
  data: Type.Array(MonitoringRow),
});
export type MonitoringReport = Static<typeof MonitoringReport>;

// --- Win rate
export const WIN_RATE_GROUPS = ['reason_code', 'card_type', 'merchant'] as const;
export const WinRateQuery = Type.Composite([
  ReportQuery,
  Type.Object({ group_by: Type.Optional(Type.Union(WIN_RATE_GROUPS.map((g) => Type.Literal(g)))) }),
]);
export type WinRateQuery = Static<typeof WinRateQuery>;
export const WinRateRow = Type.Object({
  key: Type.String(),
  label: Type.String(),
  chargebacks: Type.Integer(),
  won: Type.Integer(),
  lost: Type.Integer(),
  /** won / (won + lost) * 100; null with no decided case. */
  win_rate: Type.Union([Type.Number(), Type.Null()]),
  /** The chargebacks' disputed amount in the reporting currency (the money ledger's rate of each case). */
  disputed_amount: Type.Number(),
  /** What the won cases recovered (partial recoveries as recovered), in the reporting currency: the ledger's. */
  recovered_amount: Type.Number(),
  /** Chargebacks without a rate for their post date: counted, not in the amounts (the ledger's 'Without Rate'). */
  unrated: Type.Integer(),
});
export type WinRateRow = Static<typeof WinRateRow>;
/** `currency`: the tenant's reporting currency, of every amount. */
export const WinRateRows = Type.Object({ currency: Type.String(), data: Type.Array(WinRateRow) });
export type WinRateRows = Static<typeof WinRateRows>;

/** The answer schema of a chart by its kind. */
export function reportChartSchema(kind: (typeof REPORT_CHARTS)[ReportChart]): TSchema {
  return kind === 'rows' ? ReportRows : kind === 'series' ? ReportSeries : PlatformCardRows;
}
