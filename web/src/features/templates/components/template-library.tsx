import { Box, Button, Flex, Spinner, Table, Text } from '@chakra-ui/react';
import { TEMPLATE_MESSAGES, type Template } from '@portal/contracts';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { Suspense, useMemo, useState } from 'react';
import { LazyDataGrid } from '../../../components/lazy-data-grid';
import { PageHeader } from '../../../components/page-header';
import { Pager, usePaging } from '../../../components/pager';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { GENERIC_ERROR } from '../../../lib/errors';
import { formatBytes } from './format-bytes';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { useDeleteTemplate } from '../api/delete-template';
import { getTemplates, useTemplates } from '../api/get-templates';
import { DeleteTemplateDialog } from './delete-template-dialog';
import { UploadTemplateDialog } from './upload-template-dialog';

const PAGE_SIZES = [10, 25, 50, 100] as const;
const fmtDate = (iso: string) => iso.slice(0, 10);

/**
 * Templates Library (/template-library classic, /template-library-new data grid): the
 * templates of the merchant in the switcher (or the user's own), with paging, upload
 * and delete with confirmation. Read-only users see the list only.
 */
export function TemplateLibrary({ variant }: { variant: 'classic' | 'grid' }) {
  const profile = useProfile();
  const selected = useSelectedMerchant();
  const merchantId = selected?.id ?? profile.merchant.id;
  const canWrite = !profile.is_read_only;
  const [uploading, setUploading] = useState(false);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const [version, setVersion] = useState(0);
  const remove = useDeleteTemplate();

  function confirmDelete() {
    if (!deleting) return;
    remove.mutate(
      { merchantId, templateId: deleting.id },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: TEMPLATE_MESSAGES.deleted });
          setDeleting(null);
          setVersion((v) => v + 1);
        },
        onError: (e) => toaster.create({ type: 'error', title: e.message || GENERIC_ERROR }),
      },
    );
  }

  return (
    <Box p={{ base: 3, md: 6 }}>
      <PageHeader
        title="Templates Library"
        actions={
          canWrite && (
            <Button
              colorPalette="brand"
              size="sm"
              onClick={() => setUploading(true)}
              data-testid="upload-template"
            >
              Upload Template
            </Button>
          )
        }
      />
      <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 2, md: 4 }}>
        {variant === 'classic' ? (
          <ClassicList merchantId={merchantId} canWrite={canWrite} onDelete={setDeleting} />
        ) : (
          <GridList
            key={`${merchantId}:${version}`}
            merchantId={merchantId}
            canWrite={canWrite}
            onDelete={setDeleting}
          />
        )}
      </Box>
      {uploading && (
        <UploadTemplateDialog
          merchantId={merchantId}
          onClose={() => setUploading(false)}
          onDone={() => {
            toaster.create({ type: 'success', title: TEMPLATE_MESSAGES.created });
            setUploading(false);
            setVersion((v) => v + 1);
          }}
        />
      )}
      {deleting && (
        <DeleteTemplateDialog
          template={deleting}
          busy={remove.isPending}
          onConfirm={confirmDelete}
          onClose={() => setDeleting(null)}
        />
      )}
    </Box>
  );
}

interface ListProps {
  merchantId: number;
  canWrite: boolean;
  onDelete: (t: Template) => void;
}

function ClassicList({ merchantId, canWrite, onDelete }: ListProps) {
  const paging = usePaging(25);
  const q = useTemplates({ merchantId, start: paging.start, limit: paging.pageSize });
  const rows = q.data?.data ?? [];
  const total = q.data?.pagination.total ?? 0;
  if (q.isLoading)
    return (
      <Flex justify="center" p="6">
        <Spinner />
      </Flex>
    );
  if (!rows.length)
    return (
      <Text p="6" textAlign="center" color="gray.600" data-testid="templates-empty">
        {TEMPLATE_MESSAGES.empty}
      </Text>
    );
  return (
    <Box data-testid="templates-list">
      <Table.Root size="sm" variant="line">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Name</Table.ColumnHeader>
            <Table.ColumnHeader>File</Table.ColumnHeader>
            <Table.ColumnHeader>Document Type</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Pages</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Size</Table.ColumnHeader>
            <Table.ColumnHeader>Created</Table.ColumnHeader>
            {canWrite && <Table.ColumnHeader width="1" />}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((t) => (
            <Table.Row key={t.id} data-testid="template-row">
              <Table.Cell fontWeight="medium">{t.name}</Table.Cell>
              <Table.Cell>{t.file.filename}</Table.Cell>
              <Table.Cell>{t.document_type ?? ''}</Table.Cell>
              <Table.Cell textAlign="end">{t.file.pages}</Table.Cell>
              <Table.Cell textAlign="end">{formatBytes(t.file.size)}</Table.Cell>
              <Table.Cell>{fmtDate(t.created_at)}</Table.Cell>
              {canWrite && (
                <Table.Cell>
                  <DeleteButton template={t} onDelete={onDelete} />
                </Table.Cell>
              )}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
      <Pager {...paging} total={total} sizes={PAGE_SIZES} mt="3" />
    </Box>
  );
}

function DeleteButton({ template, onDelete }: { template: Template; onDelete: (t: Template) => void }) {
  return (
    <Button
      size="xs"
      variant="outline"
      colorPalette="red"
      aria-label={`Delete ${template.name}`}
      onClick={() => onDelete(template)}
    >
      Delete
    </Button>
  );
}

function GridList({ merchantId, canWrite, onDelete }: ListProps) {
  const columns = useMemo<ColDef<Template>[]>(
    () => [
      { headerName: 'Name', field: 'name', sortable: false, minWidth: 180 },
      { headerName: 'File', valueGetter: (p) => p.data?.file.filename ?? '', sortable: false, minWidth: 180 },
      { headerName: 'Document Type', field: 'document_type', sortable: false },
      { headerName: 'Pages', valueGetter: (p) => p.data?.file.pages ?? '', sortable: false, maxWidth: 100 },
      {
        headerName: 'Size',
        valueGetter: (p) => (p.data ? formatBytes(p.data.file.size) : ''),
        sortable: false,
        maxWidth: 120,
      },
      {
        headerName: 'Created',
        valueGetter: (p) => (p.data ? fmtDate(p.data.created_at) : ''),
        sortable: false,
      },
      ...(canWrite
        ? [
            {
              headerName: '',
              colId: 'actions',
              sortable: false,
              maxWidth: 100,
              cellRenderer: (p: ICellRendererParams<Template>) =>
                p.data ? <DeleteButton template={p.data} onDelete={onDelete} /> : null,
            } satisfies ColDef<Template>,
          ]
        : []),
    ],
    [canWrite, onDelete],
  );
  return (
    <Suspense fallback={<Spinner />}>
      <LazyDataGrid<Template>
        columns={columns}
        queryKey={String(merchantId)}
        fetchPage={async ({ start, limit }) => {
          const r = await getTemplates({ merchantId, start, limit });
          return { rows: r.data, total: r.pagination.total };
        }}
        pageSize={25}
        height={480}
        testId="templates-grid"
        noRowsText={TEMPLATE_MESSAGES.empty}
      />
    </Suspense>
  );
}
