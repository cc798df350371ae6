import { Box, Button, Checkbox, Flex, Icon, Stack, Table, Text } from '@chakra-ui/react';
import { RECONCILIATION_MESSAGES, type ReconciliationRow } from '@portal/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Flag } from 'lucide-react';
import { useState } from 'react';
import { DateRangePicker } from '../../../components/date-range-picker';
import { toaster } from '../../../components/toaster';
import { PageHeader } from '../../../components/page-header';
import { Pager } from '../../../components/pager';
import { lastDays, rangeParam } from '../../../lib/dates';
import { queryErrorMessage } from '../../../lib/errors';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import {
  downloadReportCsv,
  flagReconciliation,
  reportKey,
  reviewReconciliation,
  unflagReconciliation,
  useReconciliation,
} from '../api/reports-api';
import { NO_DATA } from '../charts/donut-rules';
import { ReconciliationDialog, type ReconciliationAction } from '../components/reconciliation-dialogs';

const PAGE = 50;
const n = (v: number) => v.toLocaleString('en-US');
const trend = (v: number | null) => (v === null ? '-' : `${v.toLocaleString('en-US')}%`);
/** Cycle maps are summed for display (spec 3 §2). */
const sum = (m: Record<string, number>) => Object.values(m).reduce((s, x) => s + x, 0);

const FAILURE: Record<ReconciliationAction, string> = {
  flag: RECONCILIATION_MESSAGES.flagError,
  unflag: RECONCILIATION_MESSAGES.unflagError,
  review: RECONCILIATION_MESSAGES.reviewError,
};

/** /reconciliation-report and /reconciliation-report-new (spec 3 §2 Reconciliation Report). */
export default function ReconciliationRoute() {
  const merchantId = useSelectedMerchant()?.id;
  const queryClient = useQueryClient();
  const [range, setRange] = useState(() => lastDays(30));
  const [start, setStart] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [action, setAction] = useState<ReconciliationAction | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const params = { merchant_id: merchantId, date_range: rangeParam(range) };
  const q = useReconciliation({ ...params, start, limit: PAGE });
  const rows = q.data?.data ?? [];
  const total = q.data?.pagination.total ?? 0;
  const chosen = rows.filter((r) => selected.has(r.id));
  const toggle = (r: ReconciliationRow) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(r.id)) next.delete(r.id);
      else next.add(r.id);
      return next;
    });

  const confirm = async (comment: string) => {
    if (!action) return;
    setBusy(true);
    setError(null);
    try {
      const keys = chosen.map((r) => ({ processor_id: r.processor_id, date: r.date }));
      if (action === 'flag')
        await flagReconciliation(
          chosen.filter((r) => !r.flag).map((r) => ({ processor_id: r.processor_id, date: r.date, comment })),
        );
      if (action === 'unflag') await unflagReconciliation(chosen.flatMap((r) => (r.flag ? [r.flag.id] : [])));
      if (action === 'review') {
        await reviewReconciliation(keys);
        toaster.success({ title: RECONCILIATION_MESSAGES.reviewed });
      }
      setAction(null);
      setSelected(new Set());
      await queryClient.invalidateQueries({ queryKey: reportKey('reconciliation') });
    } catch {
      setError(FAILURE[action]);
    } finally {
      setBusy(false);
    }
  };

  const open = (a: ReconciliationAction) => {
    setError(null);
    setAction(a);
  };
  const exportCsv = () =>
    downloadReportCsv('reconciliation', params).catch((e: unknown) =>
      toaster.error({ title: queryErrorMessage(e) }),
    );
  const unflagged = chosen.filter((r) => !r.flag).length;
  const flagged = chosen.length - unflagged;

  return (
    <Stack gap="4" p={{ base: 3, md: 6 }} data-testid="reconciliation">
      <PageHeader title="Reconciliation Report" mb="0" />
      <Flex gap="3" wrap="wrap" align="center">
        <DateRangePicker
          value={range}
          onChange={(r) => {
            setRange(r);
            setStart(0);
          }}
          testId="reconciliation-range"
        />
        <Button
          size="sm"
          onClick={() => open('flag')}
          disabled={!unflagged}
          data-testid="reconciliation-flag"
        >
          Flag
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => open('unflag')}
          disabled={!flagged}
          data-testid="reconciliation-unflag"
        >
          Unflag
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => open('review')}
          disabled={!chosen.length}
          data-testid="reconciliation-review"
        >
          Mark Reviewed
        </Button>
        <Button size="sm" variant="outline" onClick={exportCsv} data-testid="reconciliation-csv">
          CSV
        </Button>
      </Flex>
      <Table.ScrollArea borderWidth="1px" borderRadius="md" bg="white">
        <Table.Root size="sm" data-testid="reconciliation-grid">
          <Table.Header>
            <Table.Row>
              {[
                '',
                'Flag',
                'Date',
                'Platform',
                'Retrievals',
                'First Cycle',
                'Trend',
                'Second Cycle',
                'Trend',
                'Representments',
                'Total Wins',
                'Win Trend',
                'Reviewer',
              ].map((h, i) => (
                <Table.ColumnHeader key={i}>{h}</Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((r) => (
              <Table.Row key={r.id} data-testid="reconciliation-row" bg={r.flag ? 'red.50' : undefined}>
                <Table.Cell>
                  <Checkbox.Root
                    checked={selected.has(r.id)}
                    onCheckedChange={() => toggle(r)}
                    aria-label={`Select ${r.id}`}
                  >
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                  </Checkbox.Root>
                </Table.Cell>
                <Table.Cell title={r.flag?.comment} data-testid="reconciliation-flag-cell">
                  {r.flag && (
                    <>
                      <Box as="span" role="img" aria-label="Flagged" color="red.500" mr="1">
                        <Icon size="sm">
                          <Flag fill="currentColor" />
                        </Icon>
                      </Box>
                      {r.flag.comment}
                    </>
                  )}
                </Table.Cell>
                <Table.Cell>{r.date}</Table.Cell>
                <Table.Cell>{r.platform}</Table.Cell>
                <Table.Cell>{n(r.retrievals)}</Table.Cell>
                <Table.Cell>{n(sum(r.first_cycle))}</Table.Cell>
                <Table.Cell>{trend(r.first_cycle_trend)}</Table.Cell>
                <Table.Cell>{n(sum(r.second_cycle))}</Table.Cell>
                <Table.Cell>{trend(r.second_cycle_trend)}</Table.Cell>
                <Table.Cell>{n(r.representments)}</Table.Cell>
                <Table.Cell>{n(r.total_wins)}</Table.Cell>
                <Table.Cell>{trend(r.win_trend)}</Table.Cell>
                <Table.Cell data-testid="reconciliation-reviewer">{r.reviewer ?? ''}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      {!q.isPending && rows.length === 0 && <Text color="fg.muted">{NO_DATA}</Text>}
      <Pager start={start} pageSize={PAGE} total={total} onStart={setStart} />
      {action && (
        <ReconciliationDialog
          action={action}
          count={action === 'flag' ? unflagged : action === 'unflag' ? flagged : chosen.length}
          busy={busy}
          error={error}
          onConfirm={(c) => void confirm(c)}
          onClose={() => setAction(null)}
        />
      )}
    </Stack>
  );
}
