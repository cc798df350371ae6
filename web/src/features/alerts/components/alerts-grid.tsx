import { Box, Button, Flex, Input, Spinner, Text } from '@chakra-ui/react';
import { ALERT_SORT_COLUMNS, type AlertRow, type AlertSortColumn } from '@portal/contracts';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { DateRangePicker } from '../../../components/date-range-picker';
import { LazyDataGrid } from '../../../components/lazy-data-grid';
import { Notice } from '../../../components/notice';
import { PageHeader } from '../../../components/page-header';
import { SavedViewsMenu } from '../../../components/saved-views-menu';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { rangeParam } from '../../../lib/dates';
import { ApiError } from '../../../lib/errors';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { useCompleteAlert } from '../api/complete-alert';
import { exportAlerts } from '../api/export-alerts';
import { getAlerts, type AlertQuery } from '../api/get-alerts';
import { useAlertServiceLevel } from '../api/get-alert-service-level';
import { useMapDescriptor } from '../api/map-descriptor';
import { useMarkAlertOutcome } from '../api/mark-alert-outcome';
import { AlertHistoryDialog } from '../dialogs/alert-history-dialog';
import { ConfirmCompletionDialog } from '../dialogs/confirm-completion-dialog';
import { MarkOutcomeDialog } from '../dialogs/mark-outcome-dialog';
import { SelectMidDialog } from '../dialogs/select-mid-dialog';
import { ALERT_MESSAGES } from '../lib/alert-messages';
import { ALERTS_PAGE_SIZE, useAlertListState } from '../lib/use-alert-list-state';
import { toOutcomeBody } from '../lib/outcome-form';
import { alertColumns } from './alert-columns';
import { DescriptorFilter } from './descriptor-filter';
// The rules panel is shared with the case lists' bulk close (one feature for both job kinds).
import { useAlertSlots } from '../lib/alert-slots';

type Dialog =
  | { kind: 'mark'; alert: AlertRow }
  | { kind: 'complete'; alert: AlertRow }
  | { kind: 'history'; alert: AlertRow }
  | { kind: 'mid'; alert: AlertRow }
  | null;

/**
 * The alerts grid form (spec 2 §2.11): merchant switcher scope, descriptor
 * type-ahead, date range (last 7 days), search, export to Excel, the grid with
 * the columns of the merchant's alerts service level and the four dialogs.
 */
export function AlertsGrid({ title }: { title: string }) {
  const profile = useProfile();
  const { AutoRefundRulesButton } = useAlertSlots();
  const selected = useSelectedMerchant();
  const merchantId = selected?.id;
  const level = useAlertServiceLevel(merchantId ?? profile.merchant.id);
  const { pathname } = useLocation();
  const list = useAlertListState();
  const filters = list.state;
  const [searchText, setSearchText] = useState(filters.search);
  // A search changed from outside (Back, a saved view) shows in the box.
  const [shownSearch, setShownSearch] = useState(filters.search);
  if (shownSearch !== filters.search) {
    setShownSearch(filters.search);
    if (searchText.trim() !== filters.search) setSearchText(filters.search);
  }
  const [dialog, setDialog] = useState<Dialog>(null);
  const [version, setVersion] = useState(0);
  const [exportNotice, setExportNotice] = useState<{
    status: 'info' | 'error';
    title: string;
    text: string;
  } | null>(null);
  const mark = useMarkAlertOutcome();
  const complete = useCompleteAlert();
  const mapMid = useMapDescriptor();
  const readOnly = profile.is_read_only;

  // Grid search debounce 200 ms (spec 2 §9).
  const { setSearch, setSort } = list;
  useEffect(() => {
    if (searchText.trim() === filters.search) return;
    const t = setTimeout(() => setSearch(searchText), 200);
    return () => clearTimeout(t);
  }, [searchText, filters.search, setSearch]);

  useEffect(() => {
    if (!exportNotice) return;
    const t = setTimeout(() => setExportNotice(null), 30_000);
    return () => clearTimeout(t);
  }, [exportNotice]);

  const query: AlertQuery = {
    merchant_id: merchantId,
    descriptor: filters.descriptor || undefined,
    date_range: rangeParam(filters.range),
    search: filters.search || undefined,
  };
  const queryKey = JSON.stringify([query, version]);
  const refresh = () => setVersion((v) => v + 1);

  const open = useCallback(
    (kind: NonNullable<Dialog>['kind']) => (alert: AlertRow) => setDialog({ kind, alert }),
    [],
  );
  const sortColId = filters.sort?.colId;
  const sortOrder = filters.sort?.sort;
  const columns = useMemo(
    () =>
      alertColumns(level.data?.service_level_id ?? 1, {
        readOnly,
        onMark: open('mark'),
        onComplete: open('complete'),
        onHistory: open('history'),
        onSelectMid: open('mid'),
        // The URL's sort shows in the header (and the grid asks with it).
      }).map((c) => ({ ...c, sort: (c.colId ?? c.field) === sortColId ? (sortOrder ?? null) : null })),
    [level.data?.service_level_id, readOnly, open, sortColId, sortOrder],
  );

  const fetchPage = async ({
    start,
    limit,
    sort,
  }: {
    start: number;
    limit: number;
    sort?: { colId: string; sort: 'asc' | 'desc' };
  }) => {
    const sortBy =
      sort && (ALERT_SORT_COLUMNS as readonly string[]).includes(sort.colId)
        ? (sort.colId as AlertSortColumn)
        : undefined;
    const r = await getAlerts({
      ...query,
      start,
      limit,
      sort_by: sortBy,
      sort_order: sortBy ? sort?.sort : undefined,
    });
    return { rows: r.data, total: r.pagination.total, totalIsLowerBound: r.pagination.total_is_lower_bound };
  };

  async function runExport() {
    try {
      // A file is saved as it comes; a JSON answer (202) means the export is e-mailed.
      if (await exportAlerts('xlsx', query)) return;
      setExportNotice({
        status: 'info',
        title: ALERT_MESSAGES.exportStartedTitle,
        text: ALERT_MESSAGES.exportStarted,
      });
    } catch (e) {
      setExportNotice({
        status: 'error',
        title: ALERT_MESSAGES.exportErrorTitle,
        text: e instanceof ApiError && e.message ? e.message : ALERT_MESSAGES.exportUnknown,
      });
    }
  }

  const close = () => setDialog(null);
  const failure = (title: string, e: unknown) =>
    toaster.create({ type: 'error', title, description: e instanceof Error ? e.message : undefined });

  return (
    <Box p={{ base: 3, md: 6 }}>
      <PageHeader
        title={title}
        actions={
          <>
            <SavedViewsMenu list="alerts" path={pathname} query={list.query} />
            {AutoRefundRulesButton && <AutoRefundRulesButton merchantId={merchantId} />}
            <Button size="sm" variant="outline" onClick={() => void runExport()} data-testid="alerts-export">
              Export All (Excel)
            </Button>
          </>
        }
      />
      {exportNotice && (
        <Box mb="3">
          <Notice status={exportNotice.status} title={exportNotice.title} testId="alerts-export-notice">
            {exportNotice.text}
          </Notice>
        </Box>
      )}
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        <DescriptorFilter
          key={filters.descriptor}
          merchantId={merchantId}
          value={filters.descriptor}
          onChange={list.setDescriptor}
        />
        <DateRangePicker value={filters.range} onChange={list.setRange} testId="alerts-date-range" />
        <Input
          size="sm"
          bg="white"
          w={{ base: 'full', md: '56' }}
          placeholder="Search"
          aria-label="Search alerts"
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          data-testid="alerts-search"
        />
        {level.data && (
          <Text fontSize="sm" color="fg.muted" data-testid="alerts-service-level">
            {level.data.name}
          </Text>
        )}
      </Flex>
      <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 2, md: 4 }}>
        {level.isLoading ? (
          <Spinner />
        ) : (
          <Suspense fallback={<Spinner />}>
            <LazyDataGrid<AlertRow>
              columns={columns}
              queryKey={queryKey}
              fetchPage={fetchPage}
              pageSize={ALERTS_PAGE_SIZE}
              page={filters.page}
              onPageChanged={list.setPage}
              height={560}
              testId="alerts-grid"
              onSortChanged={(s) =>
                setSort(
                  s && (ALERT_SORT_COLUMNS as readonly string[]).includes(s.colId)
                    ? { colId: s.colId as AlertSortColumn, sort: s.sort }
                    : undefined,
                )
              }
            />
          </Suspense>
        )}
      </Box>
      {dialog?.kind === 'mark' && (
        <MarkOutcomeDialog
          alert={dialog.alert}
          busy={mark.isPending}
          onClose={close}
          onSubmit={(form) =>
            mark.mutate(toOutcomeBody(dialog.alert.alert_id, form, profile.id), {
              onSuccess: () => {
                toaster.create({ type: 'success', title: ALERT_MESSAGES.marked(dialog.alert.alert_id) });
                close();
                refresh();
              },
              onError: (e) => failure(ALERT_MESSAGES.markFailed(dialog.alert.alert_id), e),
            })
          }
        />
      )}
      {dialog?.kind === 'complete' && (
        <ConfirmCompletionDialog
          alert={dialog.alert}
          busy={complete.isPending}
          onClose={close}
          onConfirm={() =>
            complete.mutate(
              { alert_id: dialog.alert.alert_id, user_id: profile.id },
              {
                onSuccess: () => {
                  toaster.create({ type: 'success', title: ALERT_MESSAGES.completed(dialog.alert.alert_id) });
                  close();
                  refresh();
                },
                onError: (e) => failure(ALERT_MESSAGES.completeFailed(dialog.alert.alert_id), e),
              },
            )
          }
        />
      )}
      {dialog?.kind === 'mid' && (
        <SelectMidDialog
          alert={dialog.alert}
          busy={mapMid.isPending}
          onClose={close}
          onApply={(mid) =>
            mapMid.mutate(
              {
                merchantId: dialog.alert.merchant_id,
                descriptor: dialog.alert.descriptor,
                midId: mid.id,
                userId: profile.id,
              },
              {
                onSuccess: () => {
                  toaster.create({ type: 'success', title: ALERT_MESSAGES.midApplied(mid.mid) });
                  close();
                  refresh();
                },
                onError: (e) => failure(ALERT_MESSAGES.midFailed(mid.mid), e),
              },
            )
          }
        />
      )}
      {dialog?.kind === 'history' && (
        <AlertHistoryDialog alertId={dialog.alert.alert_id} merchantId={merchantId} onClose={close} />
      )}
    </Box>
  );
}
