import { Badge, Box, Button, Checkbox, Flex, Heading, Input, Menu, Portal, Table } from '@chakra-ui/react';
import type { MerchantMidRow } from '@portal/contracts';
import { useState } from 'react';
import { Notice } from '../../../components/notice';
import { Pager } from '../../../components/pager';
import { toaster } from '../../../components/toaster';
import { queryErrorMessage } from '../../../lib/errors';
import { exportMerchantMids, MIDS_GRID_PAGE, useMerchantMids } from '../api/merchant-admin-api';
import { AlertActionsDialog } from './alert-actions-dialog';

const COLUMNS: { label: string; value: (r: MerchantMidRow) => string }[] = [
  { label: 'MID', value: (r) => r.mid },
  { label: 'Alias', value: (r) => r.alias ?? '' },
  { label: 'Descriptor', value: (r) => r.descriptor ?? '' },
  { label: 'Platform', value: (r) => r.platform ?? '' },
  { label: 'MCC', value: (r) => r.mcc ?? '' },
  { label: 'Service Level', value: (r) => r.service_level },
  { label: 'Status', value: (r) => (r.status_id === 2 ? 'Active' : 'Inactive') },
  {
    label: 'Date Onboarded',
    value: (r) =>
      new Date(r.date_created).toLocaleDateString('en-US', {
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }),
  },
];

/** Tab-separated rows, as a spreadsheet pastes them. */
const asTsv = (rows: MerchantMidRow[]) =>
  [COLUMNS.map((c) => c.label), ...rows.map((r) => COLUMNS.map((c) => c.value(r)))]
    .map((cells) => cells.map((v) => v.replace(/[\t\r\n]+/g, ' ')).join('\t'))
    .join('\n');

/**
 * The MIDs grid of the Merchant Settings grid view (spec 3 §2): pages of 50,
 * search, row selection by checkbox, the row clicked opens its details, and
 * the grid menu: Alert Actions (selected rows, not read-only), reset grid,
 * copy, CSV and Excel exports.
 */
export function MidsGrid({
  merchantId,
  activeMid,
  onOpenMid,
  writable,
}: {
  merchantId: number;
  activeMid: number | null;
  onOpenMid: (id: number) => void;
  writable: boolean;
}) {
  const [state, setState] = useState({
    merchantId,
    start: 0,
    search: '',
    typed: '',
    checked: [] as number[],
  });
  // Another merchant starts a fresh grid.
  const s =
    state.merchantId === merchantId ? state : { merchantId, start: 0, search: '', typed: '', checked: [] };
  const update = (patch: Partial<typeof s>) => setState({ ...s, ...patch });
  const mids = useMerchantMids({ merchantId, start: s.start, search: s.search });
  const rows = mids.data?.data ?? [];
  const total = mids.data?.pagination.total ?? 0;
  const [alertActions, setAlertActions] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const allChecked = rows.length > 0 && rows.every((r) => s.checked.includes(r.id));

  const toggle = (id: number, on: boolean) =>
    update({ checked: on ? [...s.checked, id] : s.checked.filter((x) => x !== id) });
  const copy = async () => {
    const picked = rows.filter((r) => s.checked.includes(r.id));
    const copied = picked.length ? picked : rows;
    await navigator.clipboard.writeText(asTsv(copied));
    toaster.create({
      type: 'success',
      title: `Copied ${copied.length} row${copied.length === 1 ? '' : 's'}.`,
    });
  };
  const exportAs = (format: 'csv' | 'xlsx') =>
    exportMerchantMids(merchantId, format, s.search).catch((e: unknown) =>
      toaster.create({ type: 'error', title: queryErrorMessage(e) }),
    );

  return (
    <Flex direction="column" gap="2" data-testid="mids-grid">
      <Flex align="center" gap="2" wrap="wrap">
        <Heading size="md" flex="1">
          MIDs
        </Heading>
        <Input
          size="sm"
          maxW="220px"
          placeholder="Search MIDs"
          value={s.typed}
          onChange={(e) =>
            update({ typed: e.target.value, ...(e.target.value ? {} : { search: '', start: 0 }) })
          }
          onKeyDown={(e) => e.key === 'Enter' && update({ search: s.typed.trim(), start: 0 })}
          data-testid="mids-search"
        />
        <Menu.Root closeOnSelect>
          <Menu.Trigger asChild>
            <Button size="sm" variant="outline" data-testid="mids-menu">
              Actions
            </Button>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content>
                <Menu.Item
                  value="alert-actions"
                  disabled={!writable || !s.checked.length}
                  onSelect={() => setAlertActions(true)}
                >
                  Alert Actions
                </Menu.Item>
                <Menu.Item
                  value="reset"
                  onSelect={() => update({ start: 0, search: '', typed: '', checked: [] })}
                >
                  Reset Grid
                </Menu.Item>
                <Menu.Item value="copy" onSelect={() => void copy()}>
                  Copy
                </Menu.Item>
                <Menu.Item value="csv" onSelect={() => void exportAs('csv')}>
                  CSV Export
                </Menu.Item>
                <Menu.Item value="excel" onSelect={() => void exportAs('xlsx')}>
                  Excel Export
                </Menu.Item>
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
      </Flex>
      {notice && (
        <Notice status="success" testId="mids-notice">
          {notice}
        </Notice>
      )}
      {mids.isError && <Notice status="error">{queryErrorMessage(mids.error)}</Notice>}
      <Box overflowX="auto">
        <Table.Root size="sm" variant="outline" interactive>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader w="8">
                <Checkbox.Root
                  aria-label="Select all rows of the page"
                  checked={allChecked}
                  onCheckedChange={(e) =>
                    update({
                      checked:
                        e.checked === true
                          ? [...new Set([...s.checked, ...rows.map((r) => r.id)])]
                          : s.checked.filter((id) => !rows.some((r) => r.id === id)),
                    })
                  }
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                </Checkbox.Root>
              </Table.ColumnHeader>
              {COLUMNS.map((c) => (
                <Table.ColumnHeader key={c.label}>{c.label}</Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((r) => (
              <Table.Row
                key={r.id}
                cursor="pointer"
                bg={r.id === activeMid ? 'brand.50' : undefined}
                onClick={() => onOpenMid(r.id)}
                data-testid="mid-row"
                data-mid={r.mid}
              >
                <Table.Cell onClick={(e) => e.stopPropagation()}>
                  <Checkbox.Root
                    aria-label={`Select ${r.mid}`}
                    checked={s.checked.includes(r.id)}
                    onCheckedChange={(e) => toggle(r.id, e.checked === true)}
                    data-testid="mid-row-check"
                  >
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                  </Checkbox.Root>
                </Table.Cell>
                {COLUMNS.map((c) => (
                  <Table.Cell key={c.label}>
                    {c.label === 'Status' ? (
                      <Badge colorPalette={r.status_id === 2 ? 'green' : 'gray'}>{c.value(r)}</Badge>
                    ) : (
                      c.value(r)
                    )}
                  </Table.Cell>
                ))}
              </Table.Row>
            ))}
            {mids.isSuccess && !rows.length && (
              <Table.Row>
                <Table.Cell colSpan={COLUMNS.length + 1}>No Records Found!</Table.Cell>
              </Table.Row>
            )}
          </Table.Body>
        </Table.Root>
      </Box>
      <Pager
        start={s.start}
        pageSize={MIDS_GRID_PAGE}
        total={total}
        onStart={(start) => update({ start })}
        note={s.checked.length ? ` · ${s.checked.length} selected` : ''}
      />
      {alertActions && (
        <AlertActionsDialog
          midIds={s.checked}
          onClose={() => setAlertActions(false)}
          onDone={(message) => {
            setAlertActions(false);
            setNotice(message);
            update({ checked: [] });
          }}
        />
      )}
    </Flex>
  );
}
