import { PageSizeSelect } from '../../../components/page-size-select';
import type { CaseRow } from '@portal/contracts';
import {
  Box,
  Button,
  Heading,
  HStack,
  Input,
  Menu,
  Portal,
  Skeleton,
  Stack,
  Tabs,
  Text,
} from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Notice } from '../../../components/notice';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { BulkCloseButton } from '../../bulk-close/components/bulk-close-button';
import { exportCases } from '../api/export-cases';
import { getCasesQueryOptions, type CaseQuery } from '../api/get-cases';
import { useStackConfig } from '../api/get-stack-config';
import { CaseDialogs, type CaseDialogState } from '../dialogs/case-dialogs';
import { ConfirmDialog } from '../dialogs/confirm-dialog';
import { ResultDialog, type ActionResult } from '../dialogs/result-dialog';
import { caseColumns, exportAccessor, type CaseColumn } from '../lib/case-columns';
import { copiedRows, copiedValue, MSG, serverOr } from '../lib/case-messages';
import { VIEW_TITLES, type CaseView } from '../lib/case-views';
import { editRule } from '../lib/edit-rules';
import { downloadRowsPdf } from '../lib/pdf-export';
import { printRows, rowsTsv } from '../lib/print-rows';
import { useSavedHidden } from '../lib/use-saved-hidden';
import { hasResource } from '../../../lib/auth/resources';
import { useMerchantFeatures } from '../api/get-merchant-features';
import { releasePendingCasePatch } from '../../../lib/case-patch';
import { useTenant } from '../../../lib/tenant-config';
import { AdvancedSearch } from './advanced-search';
import { AssignedIconCell, DocumentCell, FlagCell } from './case-cells';
import { IssuerDocsCell } from './issuer-docs-cell';
import type { CaseGridHandle, CasePageRequest } from './case-grid';
import { DEFAULT_EXPIRE_DAYS, FilterPanel, type PanelFilter } from './filter-panel';
import { CaseDetailRow } from './case-detail-row';
import { RowActions, type HistoryVariant, type RowAction } from './row-actions';
import { BuilderIcon, builderIconState } from '../../builder/components/builder-icon';

// AG Grid loads with the case screens only.
const CaseGrid = lazy(() => import('./case-grid'));
const UploadRepresentmentModal = lazy(() => import('./upload-representment-modal'));
const CaseBuilderDialog = lazy(() => import('../../builder/components/case-builder-dialog'));

export const PAGE_SIZES = [10, 25, 50, 100];
const NO_FEATURES: ReadonlySet<number> = new Set();
const SEARCH_DEBOUNCE_MS = 200;
const DOC_COMPILING = 6;
const RECHECK_MS = 30_000;
const NOTICE_MS = 30_000;

export interface TabDef {
  key: string;
  title: string;
  query: CaseQuery;
}

export const CASE_TABS: TabDef[] = [
  { key: 'working_cases', title: 'Working Cases', query: { filter_group: 'working_cases' } },
  { key: 'new_cases', title: 'New', query: { filter_group: 'new_cases' } },
  { key: 'expiring_cases', title: 'Expiring', query: { filter_group: 'expiring_cases' } },
  { key: 'assigned', title: 'Assigned', query: { filter_group: 'assigned' } },
  { key: 'in_progress', title: 'In Progress', query: { filter_group: 'in_progress' } },
  { key: 'dnr', title: 'Do Not Represent', query: { filter_group: 'dnr' } },
  { key: 'expired', title: 'Expired', query: { filter_group: 'expired' } },
  { key: 'completed', title: 'Completed', query: { filter_group: 'completed' } },
];

/**
 * A case list view (chargebacks, case-management, qc-review, admin-review):
 * toolbar, filter panel and tabs, advanced search, the grid, grid tools, bulk
 * actions and the case dialogs (spec 2 §2.1-2.3).
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
  const readOnly = profile.is_read_only;
  const merchant = useSelectedMerchant();
  const stack = useStackConfig();
  const queryClient = useQueryClient();
  const gridRef = useRef<CaseGridHandle | null>(null);

  const features = useMerchantFeatures();
  const partnerCompanyId = hasResource(profile, 'cm-view-partner-admin-id');
  // Until the merchant's features are known no gated column shows; the grid waits for them (below).
  const columns = useMemo(
    () => caseColumns(view, profile.roles, { features: features ?? NO_FEATURES, partnerCompanyId }),
    [view, profile.roles, features, partnerCompanyId],
  );
  const { hidden, toggle, reset } = useSavedHidden(view, columns);
  const [pageSize, setPageSize] = useState(50);
  const [tab, setTab] = useState<string | null>(tabs?.[0]?.key ?? null);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [panelOpen, setPanelOpen] = useState(false);
  const [panel, setPanel] = useState<PanelFilter | null>(null);
  const [days, setDays] = useState(DEFAULT_EXPIRE_DAYS);
  const [advanced, setAdvanced] = useState<CaseQuery | null>(null);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [advancedMounted, setAdvancedMounted] = useState(false);
  const [pendingPanel, setPendingPanel] = useState<PanelFilter | null>(null);
  const [selected, setSelected] = useState<CaseRow[]>([]);
  const [dialog, setDialog] = useState<CaseDialogState | null>(null);
  const [result, setResult] = useState<ActionResult | null>(null);
  const [notice, setNotice] = useState<{ status: 'info' | 'error'; title?: string; text: string } | null>(
    null,
  );
  const [total, setTotal] = useState(0);
  const [compiling, setCompiling] = useState(false);
  const [uploadRow, setUploadRow] = useState<CaseRow | null>(null);
  const [builderRow, setBuilderRow] = useState<CaseRow | null>(null);
  const clientKind = useTenant().client_kind;

  // Route watcher (spec 2 §2): leaving a case area releases a pending case patch.
  useEffect(() => () => void releasePendingCasePatch(), []);
  useEffect(() => {
    const t = setTimeout(() => setSearch(searchText.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [searchText]);
  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(t);
  }, [notice]);
  // DocCompiling cases are rechecked every 30 s while any is on the page.
  useEffect(() => {
    if (!compiling) return;
    const t = setInterval(() => gridRef.current?.refresh(), RECHECK_MS);
    return () => clearInterval(t);
  }, [compiling]);

  const tabQuery = tabs?.find((t) => t.key === tab)?.query ?? {};
  const baseKey = JSON.stringify(baseQuery ?? {});
  const query = useMemo<CaseQuery>(
    () => ({
      intent: view,
      client_id: merchant?.id,
      ...baseQuery,
      ...tabQuery,
      ...(panel?.key === 'expire' ? { ...panel.query, primary_case_due_days: days } : panel?.query),
      ...advanced,
      search: search || undefined,
    }),
    // baseQuery and the tab query are compared by value (baseKey, tab).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [view, merchant?.id, baseKey, tab, panel, days, advanced, search],
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
  const historyVariant: HistoryVariant = useLocation().pathname.endsWith('-new') ? 'popover' : 'modal';
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

  const renderCell = useCallback(
    (kind: CaseColumn['kind'], row: CaseRow): ReactNode => {
      switch (kind) {
        case 'flag':
          return <FlagCell row={row} />;
        case 'document':
          return (
            <DocumentCell row={row} onUpload={setUploadRow} readOnly={readOnly} clientKind={clientKind} />
          );
        case 'issuer-docs':
          return <IssuerDocsCell row={row} />;
        case 'assigned-icon':
          return <AssignedIconCell row={row} />;
        case 'assign-control':
          return renderAssign ? renderAssign(row, afterWrite) : <AssignedIconCell row={row} />;
        case 'actions':
          return extraRowAction ? (
            extraRowAction(row, afterWrite)
          ) : (
            // Keyed by case: a row node that now shows another case starts a fresh cell.
            <HStack key={row.id} gap="1" h="full">
              {/* The case builder icon (spec 2 §2.1, §6: tabs new_cases, assigned, in_progress). */}
              {builderIconState(profile, tab, row) !== 'hidden' && (
                <BuilderIcon
                  row={row}
                  state={builderIconState(profile, tab, row) === 'enabled' ? 'enabled' : 'disabled'}
                  onOpen={setBuilderRow}
                />
              )}
              <RowActions
                row={row}
                readOnly={readOnly}
                edit={editRule(row, stackConfig, readOnly)}
                history={historyVariant}
                onAction={openRowAction}
              />
            </HStack>
          );
        default:
          return null;
      }
    },
    [
      readOnly,
      openRowAction,
      renderAssign,
      extraRowAction,
      afterWrite,
      stackConfig,
      historyVariant,
      clientKind,
      profile,
      tab,
    ],
  );

  const renderDetail = useCallback((row: CaseRow) => <CaseDetailRow row={row} />, []);

  const visible = columns.filter((c) => !hidden.has(c.key));
  const exportable = visible.filter((c) => exportAccessor(c));

  // --- bulk actions (only New cases are selectable)
  const bulk = (kind: 'flag' | 'unflag' | 'assign' | 'dnr' | 'revert' | 'edit') => {
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

  // --- grid tools
  const pageOrSelected = () => {
    const sel = gridRef.current?.selectedRows() ?? [];
    return sel.length ? sel : (gridRef.current?.pageRows() ?? []);
  };
  const copy = async () => {
    const rows = pageOrSelected();
    if (!rows.length) return toaster.create({ type: 'error', description: MSG.noCopy });
    await navigator.clipboard.writeText(rowsTsv(rows, exportable));
    toaster.create({ type: 'success', description: copiedRows(rows.length) });
  };
  const csv = () => {
    if (!gridRef.current?.pageRows().length)
      return toaster.create({ type: 'error', description: MSG.noCopy });
    gridRef.current.exportPageCsv(exportable, `${view}.csv`);
  };
  // PDF and Print take the same rows as Copy: the selected ones, else the page on screen.
  const print = () => {
    const rows = pageOrSelected();
    if (!rows.length) return toaster.create({ type: 'error', description: MSG.noPrint });
    if (!printRows(title ?? VIEW_TITLES[view], rows, exportable))
      toaster.create({ type: 'error', description: MSG.printBlocked });
  };
  const pdf = async () => {
    const rows = pageOrSelected();
    if (!rows.length) return toaster.create({ type: 'error', description: MSG.noPdf });
    try {
      await downloadRowsPdf(title ?? VIEW_TITLES[view], rows, exportable, `${view}.pdf`);
    } catch {
      toaster.create({ type: 'error', description: MSG.generic });
    }
  };
  const serverExport = async (format: 'csv' | 'xlsx', exportType: 'page' | 'all') => {
    const sort = gridRef.current?.currentSort();
    const pageQuery: CaseQuery =
      exportType === 'page' ? { ...query, start: gridRef.current?.pageStart() ?? 0, limit: pageSize } : query;
    try {
      const saved = await exportCases({
        format,
        exportType,
        total,
        query: { ...pageQuery, sort_by: sort?.colId, sort_order: sort?.sort },
        columns: exportable.map((c) => ({ accessor: exportAccessor(c)!, label: c.label })),
      });
      if (!saved) setNotice({ status: 'info', text: MSG.exportStarted });
    } catch (e) {
      setNotice({ status: 'error', title: 'Error.', text: serverOr(e, MSG.exportUnknown) });
    }
  };

  const choosePanel = (f: PanelFilter) => {
    if (advanced) return setPendingPanel(f);
    setPanel(f);
  };

  return (
    <Stack gap="3" p={{ base: 3, md: 5 }} data-testid={`case-list-${view}`}>
      <Heading size="lg">{title ?? VIEW_TITLES[view]}</Heading>
      {tabs && (
        <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value)} variant="line" size="sm">
          <Tabs.List flexWrap="wrap">
            {tabs.map((t) => (
              <Tabs.Trigger key={t.key} value={t.key} data-testid={`tab-${t.key}`}>
                {t.title}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Tabs.Root>
      )}
      <HStack wrap="wrap" gap="2">
        <Input
          size="sm"
          w={{ base: 'full', md: '64' }}
          placeholder="Search"
          aria-label="Search cases"
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          bg="white"
        />
        {stack.data?.show_cb_case_filter_btn !== false && (
          <Button
            size="sm"
            variant="outline"
            onClick={() => setPanelOpen((o) => !o)}
            data-testid="filter-button"
          >
            Filter{panel ? `: ${panel.title}` : ''}
          </Button>
        )}
        <Button
          size="sm"
          variant="outline"
          onClick={() => {
            setAdvancedOpen((o) => !o);
            setAdvancedMounted(true);
          }}
          data-testid="advanced-button"
        >
          Advanced Search{advanced ? ' (applied)' : ''}
        </Button>
        {(view === 'chargebacks' || view === 'case-management') && (
          <BulkCloseButton stackConfig={stack.data} merchantId={merchant?.id} />
        )}
        {toolbarExtra}
        {/* afterWrite reads the grid ref only when a bulk action completes, never while rendering. */}
        {/* eslint-disable-next-line react-hooks/refs */}
        {!readOnly && bulkActions?.(selected, afterWrite)}
        {!readOnly && !extraRowAction && !bulkActions && (
          <Menu.Root>
            <Menu.Trigger asChild>
              <Button size="sm" variant="outline" data-testid="bulk-menu">
                Bulk Actions{selected.length ? ` (${selected.length})` : ''}
              </Button>
            </Menu.Trigger>
            <Portal>
              <Menu.Positioner>
                <Menu.Content>
                  <Menu.Item value="edit" onSelect={() => bulk('edit')}>
                    Edit Verdict
                  </Menu.Item>
                  <Menu.Item value="flag" onSelect={() => bulk('flag')}>
                    Flag
                  </Menu.Item>
                  <Menu.Item value="unflag" onSelect={() => bulk('unflag')}>
                    Unflag
                  </Menu.Item>
                  <Menu.Item value="assign" onSelect={() => bulk('assign')}>
                    Bulk Assign
                  </Menu.Item>
                  <Menu.Item value="dnr" onSelect={() => bulk('dnr')}>
                    Do Not Represent
                  </Menu.Item>
                  <Menu.Item value="revert" onSelect={() => bulk('revert')}>
                    Revert Do Not Represent
                  </Menu.Item>
                </Menu.Content>
              </Menu.Positioner>
            </Portal>
          </Menu.Root>
        )}
        <Menu.Root closeOnSelect>
          <Menu.Trigger asChild>
            <Button size="sm" variant="outline" data-testid="tools-menu">
              Tools
            </Button>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content>
                <Menu.Item value="copy" onSelect={() => void copy()}>
                  Copy
                </Menu.Item>
                <Menu.Item value="csv" onSelect={csv}>
                  CSV
                </Menu.Item>
                <Menu.Item value="excel" onSelect={() => void serverExport('xlsx', 'page')}>
                  Excel
                </Menu.Item>
                <Menu.Item value="pdf" onSelect={() => void pdf()}>
                  PDF
                </Menu.Item>
                <Menu.Item value="print" onSelect={print}>
                  Print
                </Menu.Item>
                <Menu.Item value="export-all" onSelect={() => void serverExport('csv', 'all')}>
                  Export All
                </Menu.Item>
                <Menu.Item value="export-all-xlsx" onSelect={() => void serverExport('xlsx', 'all')}>
                  Export All (Excel)
                </Menu.Item>
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
        <Menu.Root closeOnSelect={false}>
          <Menu.Trigger asChild>
            <Button size="sm" variant="outline" data-testid="columns-menu">
              Column Filter
            </Button>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content maxH="80" overflowY="auto">
                {columns
                  .filter((c) => !c.locked)
                  .map((c) => (
                    <Menu.CheckboxItem
                      key={c.key}
                      value={c.key}
                      checked={!hidden.has(c.key)}
                      onCheckedChange={() => toggle(c.key)}
                    >
                      {c.label}
                      <Menu.ItemIndicator />
                    </Menu.CheckboxItem>
                  ))}
                <Menu.Separator />
                <Menu.Item value="reset" onSelect={reset}>
                  Reset
                </Menu.Item>
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
        <Box ms="auto">
          <PageSizeSelect
            sizes={PAGE_SIZES}
            value={pageSize}
            onChange={setPageSize}
            label="Rows per page"
            ariaLabel="Rows per page"
            testId="page-size"
          />
        </Box>
      </HStack>
      {panelOpen && (
        <FilterPanel
          base={{ intent: view, client_id: merchant?.id, ...baseQuery, ...tabQuery }}
          active={panel?.key ?? null}
          days={days}
          onDays={setDays}
          onChoose={choosePanel}
          onReset={() => {
            setPanel(null);
            setDays(DEFAULT_EXPIRE_DAYS);
          }}
          onClose={() => setPanelOpen(false)}
        />
      )}
      {/* Kept mounted once opened: closing and reopening keeps what was typed. */}
      {advancedMounted && (
        <Box hidden={!advancedOpen}>
          <AdvancedSearch
            applied={advanced}
            onSearch={(q) => {
              setPanel(null);
              setAdvanced(q);
            }}
            onClear={() => setAdvanced(null)}
          />
        </Box>
      )}
      {notice && (
        <Notice status={notice.status} title={notice.title} testId="export-notice">
          {notice.text}
        </Notice>
      )}
      <Box>
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
              selectable={!readOnly && (!extraRowAction || !!bulkActions)}
              renderCell={renderCell}
              renderDetail={renderDetail}
              onSelectionChanged={setSelected}
              onCellCopy={(v) => toaster.create({ type: 'success', description: copiedValue(v) })}
              onLoaded={(rows, t) => {
                setTotal(t);
                setCompiling(rows.some((r) => r.status_id === DOC_COMPILING));
              }}
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
      {pendingPanel && (
        <ConfirmOverwrite
          onConfirm={() => {
            setAdvanced(null);
            setPanel(pendingPanel);
            setPendingPanel(null);
          }}
          onClose={() => setPendingPanel(null)}
        />
      )}
      {result && <ResultDialog result={result} onClose={() => setResult(null)} />}
      {builderRow && (
        <Suspense fallback={null}>
          <CaseBuilderDialog
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

function ConfirmOverwrite({ onConfirm, onClose }: { onConfirm: () => void; onClose: () => void }) {
  return (
    <ConfirmDialog
      title="Overwrite advanced search?"
      message={MSG.overwrite}
      confirmLabel="Continue"
      onConfirm={onConfirm}
      onClose={onClose}
      testId="overwrite-dialog"
    />
  );
}
