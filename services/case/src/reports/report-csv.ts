import type { ReconciliationRow } from '@portal/contracts';
import type { FastifyReply } from 'fastify';
import { csvExport, exportFileName, type TableColumn } from '../exports/table-export';

/** Sums a cycle map for display and export (spec 3 §2 Reconciliation). */
const total = (map: Record<string, number>) => Object.values(map).reduce((s, n) => s + n, 0);
const pct = (v: number | null) => (v === null ? null : v);

export const RECONCILIATION_COLUMNS: TableColumn<ReconciliationRow>[] = [
  { label: 'Flag', cell: (r) => (r.flag ? r.flag.comment : null) },
  { label: 'Date', cell: (r) => r.date },
  { label: 'Platform', cell: (r) => r.platform },
  { label: 'Retrievals', cell: (r) => r.retrievals },
  { label: 'First Cycle', cell: (r) => total(r.first_cycle) },
  { label: 'First Cycle Trend %', cell: (r) => pct(r.first_cycle_trend) },
  { label: 'Second Cycle', cell: (r) => total(r.second_cycle) },
  { label: 'Second Cycle Trend %', cell: (r) => pct(r.second_cycle_trend) },
  { label: 'Representments', cell: (r) => r.representments },
  { label: 'Total Wins', cell: (r) => r.total_wins },
  { label: 'Win Trend %', cell: (r) => pct(r.win_trend) },
  { label: 'Reviewer', cell: (r) => r.reviewer },
];

/** A report's rows as a CSV download (the rows are already bounded by the report's range and scope). */
export function reportCsv<R>(
  reply: FastifyReply,
  name: string,
  columns: readonly TableColumn<R>[],
  rows: R[],
) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${exportFileName(name, 'csv')}"`)
    .send(
      csvExport(
        columns,
        (async function* () {
          yield rows;
        })(),
      ),
    );
}
