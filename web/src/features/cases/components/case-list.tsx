import type { CaseRow } from '@portal/contracts';
import { Box, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Notice } from '../../../components/notice';
import { PageHeader } from '../../../components/page-header';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { casesListKey, getCasesQueryOptions, type CaseQuery } from '../api/get-cases';
import { useStackConfig } from '../../../lib/get-stack-config';
import { CaseDialogs, type CaseDialogState } from '../dialogs/case-dialogs';
import { ResultDialog, type ActionResult } from '../../../components/dialogs/result-dialog';
import { caseColumns, exportAccessor } from '../lib/case-columns';
import { copiedValue, MSG } from '../../../lib/case-messages';
import { VIEW_TITLES, type CaseView } from '../lib/case-views';
import { editRule } from '../lib/edit-rules';
import { panelFilter } from '../lib/panel-filters';
import { useCaseListState } from '../lib/use-case-list-state';
import { useCaseTools } from '../lib/use-case-tools';
import { useDocCompilingRecheck } from '../lib/use-doc-compiling-recheck';
import { useSavedHidden } from '../lib/use-saved-hidden';
import { hasResource } from '../../../lib/auth/resources';
import { useMerchantFeatures } from '../api/get-merchant-features';
import { releasePendingCasePatch } from '../../../lib/case-patch';
import { useTenant } from '../../../lib/tenant-config';
import type { CaseGridHandle, CasePageRequest } from './case-grid';
import { CaseDetailRow } from './case-detail-row';
import { CaseListPanels } from './case-list-panels';
import { CaseListTabs, caseTabPanelProps, type TabDef } from './case-list-tabs';
import { CaseListToolbar, type BulkKind } from './case-list-toolbar';
import { type HistoryVariant, type RowAction } from './row-actions';
import { useCaseCellRenderer } from './case-list-cells';
import { useCaseSlots } from '../lib/case-slots';

// AG Grid loads with the case screens only.
const CaseGrid = lazy(() => import('./case-grid'));
const UploadRepresentmentModal = lazy(() => import('./upload-representment-modal'));

const NO_FEATURES: ReadonlySet<number> = new Set();
const NO_TABS: TabDef[] = [];
const DOC_COMPILING = 6;
const NOTICE_MS = 30_000;

/**
 * A case list view (chargebacks, case-management, qc-review, admin-review):
 * toolbar, filter panel and tabs, advanced search, the grid, grid tools, bulk
 * actions and the case dialogs (spec 2 §2.1-2.3). The query (tab, search,
 * sort, page, page size, panel and advanced filters) is in the URL
 * (use-case-list-state); dialogs, notices and the selection are kept here.
 */
export function CaseList({
  view,
  tabs,
  baseQuery,
  title,
  renderAssign,
  extraRowAction,
  toolbarExtra,
  bulkActions,
}: {
  view: CaseView;
  tabs?: TabDef[];
  /** Fixed filters of the view (qc-review, admin-review, invalid). */
  baseQuery?: CaseQuery;
  title?: string;
  /** admin-review: the assign control of a row. */
  renderAssign?: (row: CaseRow, done: () => void) => ReactNode;
  /** qc-review / admin-review: the row action of the view instead of the actions menu. */
  extraRowAction?: (row: CaseRow, done: () => void) => ReactNode;
  /** qc-review: 'Start QC Review' next to the toolbar buttons. */
  toolbarExtra?: ReactNode;
  /** admin-review: the view's own bulk actions on the selected New cases (replaces the default bulk menu). */
  bulkActions?: (rows: CaseRow[], done: () => void) => ReactNode;
}) {
  const profile = useProfile();
  const slots = useCaseSlots();
  const readOnly = profile.is_read_only;
  const merchant = useSelectedMerchant();
  const stack = useStackConfig();
  const queryClient = useQueryClient();
  const gridRef = useRef<CaseGridHandle | null>(null);
  const tabsId = useId();
  const { pathname } = useLocation();
  const heading = title ?? VIEW_TITLES[view];

  const features = useMerchantFeatures();
  const partnerCompanyId = hasResource(profile, 'cm-view-partner-admin-id');
  // Until the merchant's features are known no gated column shows; the grid waits for them (below).
  const columns = useMemo(
    () => caseColumns(view, profile.roles, { features: features ?? NO_FEATURES, partnerCompanyId }),
    [view, profile.roles, features, partnerCompanyId],
  );
  const { hidden, toggle, reset } = useSavedHidden(view, columns);

  const tabList = tabs ?? NO_TABS;
  const tabKeys = useMemo(() => tabList.map((t) => t.key), [tabList]);
  const list = useCaseListState(tabKeys);
  const { tab, panel: panelKey, days, advanced, search, page, pageSize, sort } = list.state;
  const { setPage, setSort } = list;

  const [panelOpen, setPanelOpen] = useState(false);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [advancedMounted, setAdvancedMounted] = useState(false);
  const [selected, setSelected] = useState<CaseRow[]>([]);
  const [dialog, setDialog] = useState<CaseDialogState | null>(null);
  const [result, setResult] = useState<ActionResult | null>(null);
  const [total, setTotal] = useState(0);
  const [compiling, setCompiling] = useState(false);
  const [uploadRow, setUploadRow] = useState<CaseRow | null>(null);
  const [builderRow, setBuilderRow] = useState<CaseRow | null>(null);
  const clientKind = useTenant().client_kind;

  // Route watcher (spec 2 §2): leaving a case area releases a pending case patch.
  useEffect(() => () => void releasePendingCasePatch(), []);

  // Another merchant in the switcher is another list: from page one (the merchant is not in the URL).
  const merchantId = merchant?.id;
  const shownMerchant = useRef(merchantId);
  useEffect(() => {
    if (shownMerchant.current === merchantId) return;
    shownMerchant.current = merchantId;
    if (page > 0) setPage(0, { replace: true });
  }, [merchantId, page, setPage]);

  // A recheck reads past the list's 5 s cache: the case changed outside this page.
  const refreshGrid = useCallback(() => {
    void queryClient
      .invalidateQueries({ queryKey: casesListKey, refetchType: 'none' })
      .then(() => gridRef.current?.refresh());
  }, [queryClient]);
  useDocCompilingRecheck(compiling, refreshGrid);

  const panel = panelFilter(panelKey, days);
  const tabQuery = tabList.find((t) => t.key === tab)?.query;
  const baseKey = JSON.stringify(baseQuery ?? {});
  // Only the list's own query: the tab, the fixed filters and the merchant (the panel's counts use it).
  const filterBase = useMemo<CaseQuery>(
    () => ({ intent: view, client_id: merchantId, ...baseQuery, ...tabQuery }),
    // baseQuery and the tab query are compared by value (baseKey, tab).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [view, merchantId, baseKey, tab],
  );
  const query = useMemo<CaseQuery>(
    () => ({
      ...filterBase,
      ...(panel?.key === 'expire' ? { ...panel.query, primary_case_due_days: days } : panel?.query),
      ...advanced,
      search: search || undefined,
    }),
    [filterBase, panel, days, advanced, search],
  );
  const queryKey = JSON.stringify(query);

  const fetchPage = useCallback(
    async (req: CasePageRequest) => {
      const r = await queryClient.fetchQuery(
        getCasesQueryOptions({
          ...query,
          start: req.start,
          limit: req.limit,
          sort_by: req.sort?.colId === 'assigned_user' ? 'assigned_user' : req.sort?.colId,
          sort_order: req.sort?.sort,
        }),
      );
      return { rows: r.data, total: r.pagination.total };
    },
    [queryClient, query],
  );

  // Case History: the data-grid routes (catalogue paths ending in -new) open the popover
  // beside the row, the classic routes the modal (spec 2 §2, §2.3).
  const historyVariant: HistoryVariant = pathname.endsWith('-new') ? 'popover' : 'modal';
  const stackConfig = stack.data;
  const openRowAction = useCallback(
    (action: RowAction, row: CaseRow) => {
      if (action === 'history' || action === 'comment') setDialog({ kind: action, cases: [row] });
      else if (action === 'edit')
        setDialog({
          kind: 'edit',
          cases: [row],
          verdictOnly: editRule(row, stackConfig, readOnly).verdictOnly,
        });
      else setDialog({ kind: action, cases: [row] });
    },
    [stackConfig, readOnly],
  );

  const afterWrite = useCallback(() => {
    gridRef.current?.clearSelection();
    gridRef.current?.refresh();
  }, []);

  const renderCell = useCaseCellRenderer({
    profile,
    tab,
    stackConfig,
    historyVariant,
    clientKind,
    renderAssign,
    extraRowAction,
    afterWrite,
    onAction: openRowAction,
    onUpload: setUploadRow,
    onBuilder: setBuilderRow,
  });

  const renderDetail = useCallback((row: CaseRow) => <CaseDetailRow row={row} />, []);

  const visible = columns.filter((c) => !hidden.has(c.key));
  const exportable = visible.filter((c) => exportAccessor(c));
  const tools = useCaseTools({
    grid: gridRef,
    exportable,
    title: heading,
    fileBase: view,
    query,
    pageSize,
    total,
  });
  const { notice, clearNotice } = tools;
  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(clearNotice, NOTICE_MS);
    return () => clearTimeout(t);
  }, [notice, clearNotice]);

  // --- bulk actions (only New cases are selectable)
  const bulk = (kind: BulkKind) => {
    const rows = gridRef.current?.selectedRows() ?? selected;
    if (!rows.length) return toaster.create({ type: 'error', description: MSG.selectOne });
    if ((kind === 'dnr' || kind === 'revert') && new Set(rows.map((r) => r.status_id)).size > 1)
      return setDialog({ kind: 'warning', message: MSG.singleType, cases: rows });
    if (kind === 'edit') return setDialog({ kind: 'edit', cases: rows, verdictOnly: true });
    if (kind === 'unflag' || kind === 'flag')
      return setDialog({
        kind: 'flag',
        cases: rows.map((r) =>
          kind === 'unflag' && !r.flag ? r : kind === 'flag' && r.flag?.is_flagged ? { ...r, flag: null } : r,
        ),
      });
    setDialog({ kind, cases: rows });
  };

  const onLoaded = useCallback(
    (rows: CaseRow[], t: number) => {
      setTotal(t);
      setCompiling(rows.some((r) => r.status_id === DOC_COMPILING));
      // A link to a page past the end (fewer cases now, or hand-edited) shows the last page.
      if (!rows.length && t > 0 && page > 0) setPage(Math.ceil(t / pageSize) - 1, { replace: true });
    },
    [page, pageSize, setPage],
  );

  return (
    <Stack gap="3" p={{ base: 3, md: 6 }} minW="0" data-testid={`case-list-${view}`}>
      <PageHeader title={heading} mb="0" />
      {tabs && <CaseListTabs tabs={tabs} value={tab} onChange={list.setTab} idBase={tabsId} />}
      <CaseListToolbar
        list={list}
        path={pathname}
        showFilterButton={stack.data?.show_cb_case_filter_btn !== false}
        panelTitle={panel?.title ?? null}
        onTogglePanel={() => setPanelOpen((o) => !o)}
        onToggleAdvanced={() => {
          setAdvancedOpen((o) => !o);
          setAdvancedMounted(true);
        }}
        extra={
          <>
            {(view === 'chargebacks' || view === 'case-management') && slots.BulkCloseButton && (
              <slots.BulkCloseButton stackConfig={stack.data} merchantId={merchantId} />
            )}
            {toolbarExtra}
            {/* afterWrite reads the grid ref only when a bulk action completes, never while rendering. */}
            {/* eslint-disable-next-line react-hooks/refs */}
            {!readOnly && bulkActions?.(selected, afterWrite)}
          </>
        }
        bulk={!readOnly && !extraRowAction && !bulkActions ? { count: selected.length, onBulk: bulk } : null}
        tools={tools}
        columns={columns}
        hidden={hidden}
        onToggleColumn={toggle}
        onResetColumns={reset}
      />
      <CaseListPanels
        list={list}
        filterBase={filterBase}
        panelOpen={panelOpen}
        onClosePanel={() => setPanelOpen(false)}
        advancedOpen={advancedOpen}
        advancedMounted={advancedMounted}
      />
      {notice && (
        <Notice status={notice.status} title={notice.title} testId="export-notice">
          {notice.text}
        </Notice>
      )}
      <Box {...(tabs ? caseTabPanelProps(tabsId, tab) : {})}>
        <Suspense fallback={<Skeleton h="560px" />}>
          {!features ? (
            <Skeleton h="560px" />
          ) : (
            <CaseGrid
              key={pageSize}
              ref={gridRef}
              columns={columns}
              hidden={hidden}
              fetchPage={fetchPage}
              queryKey={queryKey}
              pageSize={pageSize}
              page={page}
              sort={sort}
              onPage={(p) => setPage(p)}
              onSort={(s, cause) => setSort(s, { replace: cause === 'error' })}
              selectable={!readOnly && (!extraRowAction || !!bulkActions)}
              renderCell={renderCell}
              renderDetail={renderDetail}
              onSelectionChanged={setSelected}
              onCellCopy={(v) => toaster.create({ type: 'success', description: copiedValue(v) })}
              onLoaded={onLoaded}
            />
          )}
        </Suspense>
        <Text fontSize="sm" color="fg.muted" mt="1" data-testid="case-total">
          {total.toLocaleString('en-US')} case(s)
        </Text>
      </Box>
      {dialog && (
        <CaseDialogs
          state={dialog}
          onClose={() => setDialog(null)}
          onDone={(r) => {
            setDialog(null);
            setResult(r);
            afterWrite();
          }}
        />
      )}
      {result && <ResultDialog result={result} onClose={() => setResult(null)} />}
      {builderRow && slots.builder && (
        <Suspense fallback={null}>
          <slots.builder.Dialog
            row={builderRow}
            onClose={() => setBuilderRow(null)}
            onSubmitted={(message) => {
              setResult({ ok: true, message });
              afterWrite();
            }}
          />
        </Suspense>
      )}
      {uploadRow && (
        <Suspense fallback={null}>
          <UploadRepresentmentModal
            row={uploadRow}
            onClose={() => setUploadRow(null)}
            onUploaded={(a) => {
              setResult({ ok: true, title: a.title, message: a.message });
              afterWrite();
            }}
          />
        </Suspense>
      )}
    </Stack>
  );
}
