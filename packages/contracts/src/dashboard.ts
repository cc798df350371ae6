import { Type, type Static } from '@sinclair/typebox';
import { Id, ListResponse, Offset, Text } from './common';

/**
 * Dashboard and report calls of the case service (spec 1 §2.5, §7). Every one
 * takes client_id (the merchant switcher) and a date_range 'from|to'.
 * Paths (without /api):
 *   GET /cm/cases/dashboard/chargebacks-mtd            -> CountResult
 *   GET /cm/cases/reports/cases-fraud-pct               -> FraudPct
 *   GET /cm/cases/reports/mids-count                    -> CountResult
 *   GET /cm/cases/reports/mids-top5                     -> MidTop5List (paged, sortable, searchable)
 *   GET /cm/cases/dashboard/chargebacks-by-date-range   -> DateCountRows
 *   GET /cm/cases/reports/chargebacks-by-status         -> StatusCountRows
 *   GET /cm/cases/reports/chargebacks-by-card-type      -> CardTypeCountRows (names 'Visa,Mastercard,Discover,Amex')
 */
export const DashboardQuery = Type.Object({
  client_id: Type.Optional(Id()),
  date_range: Type.Optional(Text({ maxLength: 40 })),
  /** Card type names for by-card-type; the rest are summed as 'Other'. */
  names: Type.Optional(Text({ maxLength: 200 })),
});
export type DashboardQuery = Static<typeof DashboardQuery>;

export const MID_TOP5_SORT_COLUMNS = [
  'mid',
  'midDescriptor',
  'midAlias',
  'new',
  'nonFraud',
  'percentNonFraud',
  'fraud',
  'percentFraud',
  'defended',
] as const;

export const MidTop5Query = Type.Composite([
  DashboardQuery,
  Type.Object({
    start: Type.Optional(Offset()),
    limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 5 })),
    sort_by: Type.Optional(Type.Union(MID_TOP5_SORT_COLUMNS.map((c) => Type.Literal(c)))),
    sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    search: Type.Optional(Text({ maxLength: 200 })),
  }),
]);
export type MidTop5Query = Static<typeof MidTop5Query>;

export const CountResult = Type.Object({ count: Type.Integer() });
export type CountResult = Static<typeof CountResult>;
export const FraudPct = Type.Object({
  /** fraud / total, 0..1 (0 when there are no cases). */
  ratio: Type.Number(),
  percent: Type.Number(),
  fraud: Type.Integer(),
  total: Type.Integer(),
});
export type FraudPct = Static<typeof FraudPct>;
export const MidTop5Row = Type.Object({
  mid: Type.String(),
  midDescriptor: Type.Union([Type.String(), Type.Null()]),
  midAlias: Type.Union([Type.String(), Type.Null()]),
  new: Type.Integer(),
  nonFraud: Type.Integer(),
  percentNonFraud: Type.Number(),
  fraud: Type.Integer(),
  percentFraud: Type.Number(),
  /** Cases with a representment sent (doc uploaded or later) or won. */
  defended: Type.Integer(),
});
export const MidTop5List = ListResponse(MidTop5Row);
export type MidTop5List = Static<typeof MidTop5List>;
export const DateCountRows = Type.Object({
  data: Type.Array(Type.Object({ date: Type.String(), count: Type.Integer() })),
});
export type DateCountRows = Static<typeof DateCountRows>;
export const StatusCountRows = Type.Object({
  data: Type.Array(Type.Object({ case_status: Type.String(), count: Type.Integer() })),
});
export type StatusCountRows = Static<typeof StatusCountRows>;
export const CardTypeCountRows = Type.Object({
  data: Type.Array(Type.Object({ name: Type.String(), count: Type.Integer() })),
});
export type CardTypeCountRows = Static<typeof CardTypeCountRows>;
export type MidTop5Row = Static<typeof MidTop5Row>;
