import type { PlatformCardRows, ReportChart as ChartId, ReportRows, ReportSeries } from '@portal/contracts';
import { lazy } from 'react';
import type { Params } from '../../../lib/api-client';
import { useReport } from '../api/reports-api';
import { DONUT_HEIGHT, reportSlices } from '../charts/donut-rules';
import { ChartCard } from './chart-card';

const load = () => import('../charts/report-charts');
const Donut = lazy(() => load().then((m) => ({ default: m.DonutChart })));
const Bar = lazy(() => load().then((m) => ({ default: m.BarChart })));
const Line = lazy(() => load().then((m) => ({ default: m.LineChart })));

type View = 'donut' | 'bar' | 'bar-percent' | 'line' | 'area' | 'span' | 'combo' | 'stacked';

/** Each chart of /reports: its title, how it is drawn and its top-N (spec 3 §2, §9). */
export const CHART_VIEWS: Record<ChartId, { title: string; view: View; limit?: number }> = {
  'cb-by-reason-code': { title: 'Reason Code Percent (Top 5)', view: 'donut', limit: 5 },
  'chargebacks-by-issuer': { title: 'Chargebacks by BIN (Top 5)', view: 'bar', limit: 5 },
  'card-type': { title: 'Card Type (Top 5)', view: 'donut', limit: 5 },
  'cb-by-trans-month': { title: '% by Transaction Month', view: 'area' },
  'percent-chargebacks-by-trans-amount-range': {
    title: '% by Transaction Amount Range',
    view: 'bar-percent',
  },
  'span-between-post-trans-date': { title: 'Average Days from Transaction to Post by Week', view: 'span' },
  'percent-chargebacks-by-processor-by-cc-type': {
    title: 'Card Type per Platform',
    view: 'stacked',
    limit: 4,
  },
  'cases-by-platform': { title: 'Chargebacks by Platform', view: 'bar', limit: 5 },
  'location-type': { title: 'Domestic vs Offshore', view: 'donut', limit: 5 },
  'chargeback-transaction-ratio-by-transaction-date-week': {
    title: 'Chargeback to Transaction Ratio by Transaction Week',
    view: 'line',
  },
  'cb-non-unique-customers': { title: '% from Non-Unique Customers', view: 'combo' },
  'cases-status-totals': { title: 'Case Status', view: 'donut' },
  verdict: { title: 'Win/Loss', view: 'donut', limit: 5 },
};

const isSeries = (v: View) => v === 'line' || v === 'area' || v === 'span' || v === 'combo';

/** One chart of the /reports page: its own call, 'No Data' when empty or failed. */
export function ReportChart({ chart, params }: { chart: ChartId; params: Params }) {
  const def = CHART_VIEWS[chart];
  const q = useReport<ReportRows & ReportSeries & PlatformCardRows>(chart, {
    ...params,
    ...(def.limit ? { limit: def.limit } : {}),
  });
  const data = q.data?.data ?? [];
  const empty = q.isError || (isSeries(def.view) ? !data.some((p) => p.count > 0) : data.length === 0);
  const height = def.view === 'donut' ? DONUT_HEIGHT : undefined;
  return (
    <ChartCard
      title={def.title}
      loading={q.isPending}
      empty={empty}
      testId={`report-${chart}`}
      height={height}
    >
      {q.data && <ChartBody view={def.view} data={q.data} limit={def.limit} />}
    </ChartCard>
  );
}

function ChartBody({
  view,
  data,
  limit,
}: {
  view: View;
  data: ReportRows & ReportSeries & PlatformCardRows;
  limit?: number;
}) {
  if (view === 'donut') {
    // Each slice shows the API's percent of every chargeback; a top-N chart's rest is its 'Other' slice.
    const { data: rows, total } = data as ReportRows;
    return <Donut slices={reportSlices(rows, total, limit)} />;
  }
  if (view === 'bar' || view === 'bar-percent') {
    const rows = (data as ReportRows).data;
    const percent = view === 'bar-percent';
    return (
      <Bar
        categories={rows.map((r) => r.label)}
        series={[
          {
            name: percent ? '% of chargebacks' : 'Chargebacks',
            data: rows.map((r) => (percent ? r.percent : r.count)),
          },
        ]}
        percent={percent}
      />
    );
  }
  if (view === 'stacked') {
    const rows = (data as PlatformCardRows).data;
    const platforms = [...new Set(rows.map((r) => r.platform))];
    const cards = [...new Set(rows.map((r) => r.card_type))];
    return (
      <Bar
        categories={platforms}
        series={cards.map((card) => ({
          name: card,
          data: platforms.map(
            (p) => rows.find((r) => r.platform === p && r.card_type === card)?.percent ?? 0,
          ),
        }))}
        percent
        stacked
      />
    );
  }
  const points = (data as ReportSeries).data;
  const categories = points.map((p) => p.period);
  if (view === 'span')
    return (
      <Line
        categories={categories}
        line={{ name: 'Average days', data: points.map((p) => p.average ?? 0) }}
        percent={false}
      />
    );
  if (view === 'combo')
    return (
      <Line
        categories={categories}
        line={{ name: 'Ratio', data: points.map((p) => p.percent) }}
        bars={{ name: 'Count', data: points.map((p) => p.count) }}
      />
    );
  return (
    <Line
      categories={categories}
      line={{ name: 'Chargebacks / transactions', data: points.map((p) => p.percent) }}
      area={view === 'area'}
    />
  );
}
