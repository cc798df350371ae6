import { REPORT_CHARTS, type ReportChart } from '@portal/contracts';

/** Charts on a wide screen row when the layout does not say otherwise. */
export const CHARTS_PER_ROW = 3;

const known = (c: string): c is ReportChart => c in REPORT_CHARTS;

/**
 * The /reports sections from the tenant's `report_charts` (spec 3 §2): an entry 'a,b' is its own row
 * of charts side by side; single entries fill rows of CHARTS_PER_ROW; unknown names are skipped.
 * Without a configuration every chart is shown.
 */
export function reportSections(config: readonly string[]): ReportChart[][] {
  const entries = config.length ? config : Object.keys(REPORT_CHARTS);
  const sections: ReportChart[][] = [];
  let row: ReportChart[] = [];
  const flush = () => {
    if (row.length) sections.push(row);
    row = [];
  };
  for (const entry of entries) {
    const charts = entry
      .split(',')
      .map((c) => c.trim())
      .filter(known);
    if (entry.includes(',')) {
      flush();
      if (charts.length) sections.push(charts);
      continue;
    }
    if (!charts.length) continue;
    row.push(...charts);
    if (row.length === CHARTS_PER_ROW) flush();
  }
  flush();
  return sections;
}
