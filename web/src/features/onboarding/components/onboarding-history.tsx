import { Button, HStack, NativeSelect, Field, Table, Text } from '@chakra-ui/react';
import { ONBOARDING_MESSAGES as M, type OnboardingType } from '@portal/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { CsvUploadDialog } from '../../../components/csv-upload-dialog';
import { DateRangePicker } from '../../../components/date-range-picker';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { lastDays, rangeParam, type DateRange } from '../../../lib/dates';
import { serverMessage } from '../../../lib/errors';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import {
  downloadTemplate,
  onboardingFilesKey,
  uploadOnboarding,
  useOnboardingFiles,
} from '../api/onboarding-api';
import { DiscardOnboardingDialog } from './discard-onboarding-dialog';

const when = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) : '');

/**
 * /onboarding: uploaded files of the last 7 days (by default) and the 'Initiate Onboarding' dialog;
 * an upload that was never finalized can be discarded (issue 29).
 */
export function OnboardingHistory({ legacy }: { legacy: boolean }) {
  const profile = useProfile();
  const selected = useSelectedMerchant();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [range, setRange] = useState<DateRange>(() => lastDays(7));
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<OnboardingType | ''>('');
  const [discarding, setDiscarding] = useState<{ id: number; name: string } | null>(null);
  const files = useOnboardingFiles(rangeParam(range));
  const merchantId = selected?.id ?? profile.merchant.id;

  async function upload(file: File) {
    if (!type) return;
    try {
      const r = await uploadOnboarding({ file, type, merchantId });
      // The new file is listed when the user comes back (the list is otherwise fresh for 30 s).
      void qc.invalidateQueries({ queryKey: onboardingFilesKey });
      toaster.create({ type: 'success', description: M.uploaded });
      navigate(`${legacy ? '/onboarding-legacy' : '/onboarding'}/edit/${r.id}`);
    } catch (e) {
      throw new Error(serverMessage((e as { body?: unknown }).body, (e as Error).message || M.uploadFailed));
    }
  }

  return (
    <Page data-testid="onboarding-history">
      <PageHeader
        title="Onboarding"
        actions={
          <>
            <DateRangePicker value={range} onChange={setRange} testId="onboarding-range" />
            {!profile.is_read_only && (
              <Button size="sm" onClick={() => setOpen(true)}>
                Initiate Onboarding
              </Button>
            )}
          </>
        }
      />
      {files.isError && <Notice status="error">{M.generic}</Notice>}
      <Table.Root size="sm" variant="outline" data-testid="onboarding-files">
        <Table.Header>
          <Table.Row>
            {[
              'Merchant',
              'User Name',
              'Onboarding Type',
              'Date Created',
              'Finalized Date',
              'Rows In Upload',
              '',
            ].map((h) => (
              <Table.ColumnHeader key={h}>{h}</Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {(files.data?.data ?? []).map((f) => (
            <Table.Row key={f.id} data-testid={`onboarding-file-${f.id}`}>
              <Table.Cell>{f.merchant.business_name}</Table.Cell>
              <Table.Cell>{`${f.user.name} ${f.user.last_name}`.trim()}</Table.Cell>
              <Table.Cell>{f.onboarding_type.name}</Table.Cell>
              <Table.Cell>{when(f.date_created)}</Table.Cell>
              <Table.Cell>{f.status_id === 2 ? 'Finalizing...' : when(f.finalized_date)}</Table.Cell>
              <Table.Cell>{f.rows_in_upload.toLocaleString('en-US')}</Table.Cell>
              <Table.Cell>
                <HStack gap="1" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="outline"
                    onClick={() => navigate(`${legacy ? '/onboarding-legacy' : '/onboarding'}/edit/${f.id}`)}
                  >
                    {f.finalized_date || profile.is_read_only ? 'View' : 'Edit'}
                  </Button>
                  {f.status_id === 1 && !f.finalized_date && !profile.is_read_only && (
                    <Button
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      data-testid={`onboarding-discard-${f.id}`}
                      onClick={() =>
                        setDiscarding({
                          id: f.id,
                          name: `${f.onboarding_type.name} upload of ${when(f.date_created)}`,
                        })
                      }
                    >
                      Discard
                    </Button>
                  )}
                </HStack>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
      {files.data && !files.data.data.length && (
        <Text p="4" color="fg.muted">
          No Records Found!
        </Text>
      )}
      {discarding && <DiscardOnboardingDialog file={discarding} onClose={() => setDiscarding(null)} />}
      {open && (
        <CsvUploadDialog
          title="Upload Onboarding"
          testId="onboarding-upload-dialog"
          ready={!!type}
          templates={[
            { label: 'Merchant CSV template', download: () => downloadTemplate('merchant') },
            { label: 'MID CSV template', download: () => downloadTemplate('mid') },
          ]}
          onUpload={upload}
          onClose={() => setOpen(false)}
        >
          <Field.Root required>
            <Field.Label>Onboarding Type</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                name="onboarding-type"
                value={type}
                onChange={(e) => setType(e.target.value as OnboardingType | '')}
              >
                <option value="">Select a type</option>
                <option value="merchant">Merchant</option>
                <option value="mid">MID</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        </CsvUploadDialog>
      )}
    </Page>
  );
}
