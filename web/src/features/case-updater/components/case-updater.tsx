import { Button, Link, Table, Text } from '@chakra-ui/react';
import { ONBOARDING_MESSAGES as M, type UpdaterUpload } from '@portal/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CsvUploadDialog } from '../../../components/csv-upload-dialog';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { toaster } from '../../../components/toaster';
import { saveBlob } from '../../../lib/api-client';
import { useProfile } from '../../../lib/auth/auth-context';
import { queryRoots } from '../../../lib/query-keys';
import { downloadUpdaterTemplate, submitUpdaterFile, useUpdaterUploads } from '../api/case-updater-api';

const COLUMNS: Array<[keyof UpdaterUpload, string]> = [
  ['id', 'ID'],
  ['status_name', 'Status'],
  ['created_by_user', 'Created By'],
  ['date_created', 'Date Created'],
  ['message', 'Result'],
];

/** Quotes a cell for a spreadsheet; formula-looking cells get a leading quote. */
const cell = (v: unknown) => {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** /case-updater: previous uploads with their result files, CSV export, and the Upload CSV dialog. */
export function CaseUpdater() {
  const profile = useProfile();
  const qc = useQueryClient();
  const uploads = useUpdaterUploads();
  const [open, setOpen] = useState(false);
  const rows = uploads.data?.data ?? [];

  async function upload(file: File) {
    await submitUpdaterFile(file);
    toaster.create({ type: 'success', description: M.uploaded });
    setOpen(false);
    await qc.invalidateQueries({ queryKey: queryRoots.caseUpdater });
  }

  function exportCsv() {
    if (!rows.length) return toaster.create({ type: 'error', description: 'No Records Found!' });
    const header = ['id', 'status_name', 'created_by_user', 'date_created', 'filename', 'message'] as const;
    const text = [header.join(','), ...rows.map((r) => header.map((h) => cell(r[h])).join(','))].join('\r\n');
    saveBlob(new Blob([text], { type: 'text/csv' }), 'case-updater.csv');
  }

  return (
    <Page data-testid="case-updater">
      <PageHeader
        title="Case Updater"
        actions={
          <>
            <Button size="sm" variant="outline" onClick={exportCsv}>
              Export CSV
            </Button>
            {!profile.is_read_only && (
              <Button size="sm" onClick={() => setOpen(true)}>
                Upload CSV
              </Button>
            )}
          </>
        }
      />
      {uploads.isError && <Notice status="error">{M.generic}</Notice>}
      <Table.Root size="sm" variant="outline" data-testid="updater-uploads">
        <Table.Header>
          <Table.Row>
            {COLUMNS.map(([, label]) => (
              <Table.ColumnHeader key={label}>{label}</Table.ColumnHeader>
            ))}
            <Table.ColumnHeader>Result File</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((u) => (
            <Table.Row key={u.id} data-testid={`updater-upload-${u.id}`}>
              {COLUMNS.map(([k, label]) => (
                <Table.Cell key={label}>
                  {k === 'date_created' ? u.date_created.replace('T', ' ').slice(0, 16) : String(u[k] ?? '')}
                </Table.Cell>
              ))}
              <Table.Cell>
                {u.loc ? (
                  <Link href={u.loc} target="_blank" rel="noopener noreferrer" color="brand.solid">
                    Download
                  </Link>
                ) : (
                  ''
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
      {uploads.data && !rows.length && (
        <Text p="4" color="fg.muted">
          No Records Found!
        </Text>
      )}
      {open && (
        <CsvUploadDialog
          title="Upload CSV"
          testId="updater-upload-dialog"
          templates={[{ label: 'CSV template', download: downloadUpdaterTemplate }]}
          onUpload={upload}
          onClose={() => setOpen(false)}
        />
      )}
    </Page>
  );
}
