import { Button, Input } from '@chakra-ui/react';
import type { ErtRow } from '@portal/contracts';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { Suspense, useMemo, useState } from 'react';
import { CsvUploadDialog } from '../../../components/csv-upload-dialog';
import type { PageRequest } from '../../../components/data-grid';
import { LazyDataGrid } from '../../../components/lazy-data-grid';
import { Page, PageHeader } from '../../../components/page-header';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { GENERIC_ERROR } from '../../../lib/errors';
import {
  bulkCreate,
  bulkResolve,
  downloadErtTemplate,
  exportErts,
  listErts,
  resolveErt,
} from '../api/ert-api';
import { AddErtDialog } from './add-ert-dialog';

const SORTABLE = new Set([
  'id',
  'merchant',
  'status',
  'level',
  'created_by',
  'date_created',
  'date_resolved',
]);
const date = (v: unknown) => (typeof v === 'string' ? v.replace('T', ' ').slice(0, 16) : '');

/** /ert: ERT records with search, server paging and sorting, CSV export, add, resolve, bulk files. */
export function ErtRecords() {
  const profile = useProfile();
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [version, setVersion] = useState(0);
  const [dialog, setDialog] = useState<'add' | 'resolve' | 'upload' | null>(null);
  const canWrite = !profile.is_read_only;
  const bulkUpload = profile.features.some((f) => f.alias === 'ert-bulk-upload');
  const refresh = (message: string) => {
    toaster.create({ type: 'success', description: message });
    setDialog(null);
    setVersion((v) => v + 1);
  };

  const columns = useMemo<ColDef<ErtRow>[]>(
    () => [
      // First: a wide grid renders only the columns in view, and Resolve must be at hand.
      ...(canWrite
        ? [
            {
              colId: 'resolve',
              headerName: '',
              sortable: false,
              // The Resolve button whole (the grid widens a column to its content by its id).
              minWidth: 110,
              maxWidth: 110,
              cellRenderer: (p: ICellRendererParams<ErtRow>) =>
                p.data && !p.data.date_resolved ? (
                  <Button
                    size="xs"
                    variant="outline"
                    data-testid={`resolve-${p.data.id}`}
                    onClick={() =>
                      resolveErt(p.data!.id)
                        .then((r) => refresh(r.message))
                        .catch((e: Error) =>
                          toaster.create({ type: 'error', description: e.message || GENERIC_ERROR }),
                        )
                    }
                  >
                    Resolve
                  </Button>
                ) : null,
            } satisfies ColDef<ErtRow>,
          ]
        : []),
      { field: 'id', headerName: 'ID', minWidth: 90 },
      { field: 'cb_id', headerName: 'CB ID', minWidth: 120, sortable: false },
      { field: 'merchant', headerName: 'Merchant', minWidth: 170 },
      { field: 'status', headerName: 'Status', minWidth: 110 },
      { field: 'level', headerName: 'Level', minWidth: 90 },
      { field: 'content', headerName: 'Content', minWidth: 240, sortable: false },
      { field: 'created_by', headerName: 'Created By', minWidth: 130 },
      { field: 'resolved_by', headerName: 'Resolved By', minWidth: 130, sortable: false },
      {
        field: 'date_created',
        headerName: 'Date Created',
        minWidth: 150,
        valueFormatter: (p) => date(p.value),
      },
      {
        field: 'date_approved',
        headerName: 'Date Approved',
        minWidth: 150,
        sortable: false,
        valueFormatter: (p) => date(p.value),
      },
      {
        field: 'date_resolved',
        headerName: 'Date Resolved',
        minWidth: 150,
        valueFormatter: (p) => date(p.value),
      },
      {
        field: 'date_archived',
        headerName: 'Date Archived',
        minWidth: 150,
        sortable: false,
        valueFormatter: (p) => date(p.value),
      },
    ],
    [canWrite],
  );

  const fetchPage = async (req: PageRequest) => {
    const sort = req.sort && SORTABLE.has(req.sort.colId) ? req.sort : undefined;
    const r = await listErts({
      start: req.start,
      limit: req.limit,
      search: applied || undefined,
      sort_by: sort?.colId as never,
      sort_order: sort?.sort,
    });
    return { rows: r.data, total: r.pagination.total };
  };

  return (
    <Page data-testid="ert-records">
      <PageHeader
        title="ERT"
        actions={
          <>
            <Input
              size="sm"
              w="220px"
              placeholder="Search"
              aria-label="Search ERTs"
              value={search}
              maxLength={100}
              onChange={(e) => setSearch(e.target.value)}
              onKeyDown={(e) => e.key === 'Enter' && setApplied(search.trim())}
              onBlur={() => setApplied(search.trim())}
            />
            <Button
              size="sm"
              variant="outline"
              onClick={() =>
                exportErts(applied).catch((e: Error) =>
                  toaster.create({ type: 'error', description: e.message }),
                )
              }
            >
              Export CSV
            </Button>
            {canWrite && (
              <>
                <Button size="sm" variant="outline" onClick={() => setDialog('resolve')}>
                  Bulk Resolve
                </Button>
                {bulkUpload && (
                  <Button size="sm" variant="outline" onClick={() => setDialog('upload')}>
                    Bulk Upload
                  </Button>
                )}
                <Button size="sm" onClick={() => setDialog('add')}>
                  Add ERT
                </Button>
              </>
            )}
          </>
        }
      />
      <Suspense fallback={null}>
        <LazyDataGrid<ErtRow>
          columns={columns}
          fetchPage={fetchPage}
          queryKey={`erts:${applied}:${version}`}
          testId="ert-grid"
          height={520}
        />
      </Suspense>
      {dialog === 'add' && <AddErtDialog onClose={() => setDialog(null)} onDone={refresh} />}
      {dialog === 'resolve' && (
        <CsvUploadDialog
          title="Bulk Resolve ERTs"
          templates={[{ label: 'CSV template', download: () => downloadErtTemplate('resolve') }]}
          onUpload={async (file) => refresh((await bulkResolve(file)).message)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'upload' && (
        <CsvUploadDialog
          title="Upload ERTs"
          templates={[{ label: 'CSV template', download: () => downloadErtTemplate('create') }]}
          onUpload={async (file) => refresh((await bulkCreate(file)).message)}
          onClose={() => setDialog(null)}
        />
      )}
    </Page>
  );
}
