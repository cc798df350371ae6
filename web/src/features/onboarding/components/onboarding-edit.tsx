import { Badge, Box, Button, Input, Spinner, Table, Text } from '@chakra-ui/react';
import { ONBOARDING_MESSAGES as M, type OnboardingRecord } from '@portal/contracts';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { Pager } from '../../../components/pager';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { RECORD_PAGE, useFinalize, useOnboardingRecords, usePatchRecords } from '../api/onboarding-api';
import { DiscardOnboardingDialog } from './discard-onboarding-dialog';

type Edits = Record<number, Record<string, string>>;

/** Width of the row number column: the key column is pinned right beside it. */
const ROW_NUM_WIDTH = 56;
/** The row identity columns stay in view while the wide grid scrolls sideways (issue 29). */
const pinned = (left: number, header = false) =>
  ({
    position: 'sticky',
    left: `${left}px`,
    zIndex: header ? 3 : 2,
    bg: header ? 'bg.muted' : 'bg',
    boxShadow: left ? 'inset -1px 0 0 var(--chakra-colors-border)' : undefined,
  }) as const;

/**
 * /onboarding/edit/{id}: the file's rows as an editable grid. Cells with
 * errors are highlighted with their messages as a tooltip; rows can be
 * deleted and undeleted; Finalize needs no failing cell and no unsaved edit.
 * The row number and the key column (Business Name, MID) are pinned left;
 * 'Next error' scrolls to and focuses the next failing cell; Save says how
 * many changes it will send and confirms with a toast; an unfinalized upload
 * can be discarded (issue 29).
 */
export function OnboardingEdit({ id, legacy }: { id: number; legacy: boolean }) {
  const profile = useProfile();
  const navigate = useNavigate();
  const [start, setStart] = useState(0);
  const records = useOnboardingRecords(id, start);
  const patch = usePatchRecords(id);
  const finalize = useFinalize(id);
  const [edits, setEdits] = useState<Edits>({});
  const [discarding, setDiscarding] = useState(false);
  const grid = useRef<HTMLDivElement | null>(null);
  // The cell the user was last in (the button takes the focus when clicked): the next error follows it.
  const lastCell = useRef<HTMLInputElement | null>(null);

  if (records.isPending) return <Spinner m="8" />;
  if (records.isError || !records.data) return <Notice status="error">{M.generic}</Notice>;
  const file = records.data;
  const readOnly = profile.is_read_only || file.status_id !== 1 || file.finalized_date !== null;
  const dirty = Object.keys(edits).length > 0;
  // Where the failing cells are: the grid is wide, so they are also listed by row and column.
  const failingList = file.data.flatMap((r) =>
    r.status.value === 2
      ? []
      : file.columns.flatMap((c) =>
          (r.cells[c.name]?.err_messages ?? []).map((m) => `Row ${r.row_num}, ${c.label}: ${m}`),
        ),
  );

  const changes = Object.values(edits).reduce((n, cells) => n + Object.keys(cells).length, 0);
  const home = legacy ? '/onboarding-legacy' : '/onboarding';

  /** Scrolls to the failing cell after the one the user was last in (wrapping round) and focuses it. */
  function nextError() {
    const cells = [...(grid.current?.querySelectorAll<HTMLInputElement>('input[data-failing="true"]') ?? [])];
    if (!cells.length) return;
    const from = lastCell.current?.isConnected ? lastCell.current : null;
    const next =
      (from && cells.find((c) => from.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING)) ??
      cells[0]!;
    next.scrollIntoView({ block: 'center', inline: 'center', behavior: 'auto' });
    next.focus({ preventScroll: true });
  }

  const value = (r: OnboardingRecord, name: string) => edits[r.id]?.[name] ?? r.cells[name]?.value ?? '';
  const setCell = (r: OnboardingRecord, name: string, v: string) =>
    setEdits((e) => ({ ...e, [r.id]: { ...e[r.id], [name]: v } }));

  const done = (message: string) => () => toaster.create({ type: 'success', description: message });
  const failed = (e: Error) => toaster.create({ type: 'error', description: e.message || M.error });

  function save() {
    const records = Object.entries(edits).map(([rid, cells]) => ({ id: Number(rid), cells }));
    patch.mutate(records, {
      onSuccess: (r) => {
        setEdits({});
        toaster.create({
          type: 'success',
          title: M.recordUpdated,
          description: r.total_failing_validation
            ? `${r.total_failing_validation} failing cell(s) left.`
            : 'No failing cells: the file can be finalized.',
        });
      },
      onError: failed,
    });
  }

  function toggle(r: OnboardingRecord) {
    const next = r.status.value === 2 ? 1 : 2;
    setEdits((e) => {
      const { [r.id]: _dropped, ...rest } = e;
      return rest;
    });
    patch.mutate([{ id: r.id, status_id: next }], { onSuccess: done(M.recordUpdated), onError: failed });
  }

  function doFinalize() {
    finalize.mutate(undefined, {
      onSuccess: () => {
        toaster.create({ type: 'success', description: M.success });
        navigate(home);
      },
      onError: failed,
    });
  }

  return (
    <Page data-testid="onboarding-edit">
      <PageHeader
        title={file.title}
        description={
          <>
            Uploaded by {file.uploaded_by} on {file.date_created.slice(0, 10)}; last updated{' '}
            {file.date_updated.slice(0, 10)}
            {file.finalized_date && `; finalized ${file.finalized_date.slice(0, 10)}`}
          </>
        }
        actions={
          <>
            <Badge colorPalette={file.total_failing_validation ? 'red' : 'green'} data-testid="failing-count">
              {file.total_failing_validation} failing cell(s)
            </Badge>
            <Button
              size="sm"
              variant="outline"
              disabled={!failingList.length}
              onClick={nextError}
              data-testid="next-error"
            >
              Next error
            </Button>
            <Button size="sm" variant="outline" onClick={() => navigate(home)}>
              Back
            </Button>
            {!readOnly && (
              <>
                <Button
                  size="sm"
                  variant="outline"
                  colorPalette="red"
                  onClick={() => setDiscarding(true)}
                  data-testid="onboarding-discard"
                >
                  Discard
                </Button>
                {dirty && (
                  <Text fontSize="sm" color="fg.muted" data-testid="unsaved-count">
                    {changes} unsaved change(s)
                  </Text>
                )}
                <Button
                  size="sm"
                  variant="outline"
                  disabled={!dirty || patch.isPending}
                  loading={patch.isPending}
                  onClick={save}
                >
                  Save
                </Button>
                <Button
                  size="sm"
                  disabled={dirty || file.total_failing_validation > 0 || finalize.isPending}
                  loading={finalize.isPending}
                  onClick={doFinalize}
                >
                  Finalize
                </Button>
              </>
            )}
          </>
        }
      />
      {file.status_id === 2 && <Notice status="info">Finalizing: the rows are being created.</Notice>}
      {file.message && <Notice status="info">{file.message}</Notice>}
      {failingList.length > 0 && (
        <Box mt="2" fontSize="sm" color="red.600" data-testid="failing-cells">
          {failingList.slice(0, 10).map((f) => (
            <Text key={f}>{f}</Text>
          ))}
          {failingList.length > 10 && <Text>... and {failingList.length - 10} more on this page.</Text>}
        </Box>
      )}
      <Box
        overflowX="auto"
        mt="2"
        ref={grid}
        onFocus={(e) => {
          if (e.target instanceof HTMLInputElement) lastCell.current = e.target;
        }}
      >
        <Table.Root size="sm" variant="outline" bg="bg" data-testid="onboarding-records">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader w={`${ROW_NUM_WIDTH}px`} minW={`${ROW_NUM_WIDTH}px`} {...pinned(0, true)}>
                #
              </Table.ColumnHeader>
              {file.columns.map((c, i) => (
                <Table.ColumnHeader
                  key={c.name}
                  whiteSpace="nowrap"
                  {...(i === 0 ? pinned(ROW_NUM_WIDTH, true) : {})}
                >
                  {c.label}
                </Table.ColumnHeader>
              ))}
              {!readOnly && <Table.ColumnHeader />}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {file.data.map((r) => {
              const deleted = r.status.value === 2;
              return (
                <Table.Row
                  key={r.id}
                  data-testid={`record-${r.row_num}`}
                  data-deleted={deleted}
                  opacity={deleted ? 0.5 : 1}
                >
                  <Table.Cell w={`${ROW_NUM_WIDTH}px`} minW={`${ROW_NUM_WIDTH}px`} {...pinned(0)}>
                    {r.row_num}
                  </Table.Cell>
                  {file.columns.map((c, i) => {
                    const errors = r.cells[c.name]?.err_messages ?? [];
                    const failing = errors.length > 0 && !deleted;
                    const edited = edits[r.id]?.[c.name] !== undefined;
                    return (
                      <Table.Cell
                        key={c.name}
                        p="1"
                        minW="140px"
                        data-pinned={i === 0 || undefined}
                        {...(i === 0 ? pinned(ROW_NUM_WIDTH) : {})}
                      >
                        <Input
                          size="xs"
                          name={c.name}
                          aria-label={`${c.label} row ${r.row_num}`}
                          title={failing ? errors.join('\n') : undefined}
                          data-failing={failing}
                          data-edited={edited || undefined}
                          borderColor={failing ? 'red.500' : edited ? 'orange.400' : undefined}
                          bg={failing ? 'red.50' : edited ? 'orange.50' : undefined}
                          textDecoration={deleted ? 'line-through' : undefined}
                          readOnly={readOnly || deleted}
                          value={value(r, c.name)}
                          maxLength={500}
                          onChange={(e) => setCell(r, c.name, e.target.value)}
                        />
                      </Table.Cell>
                    );
                  })}
                  {!readOnly && (
                    <Table.Cell>
                      <Button size="xs" variant="ghost" onClick={() => toggle(r)} disabled={patch.isPending}>
                        {deleted ? 'Undelete' : 'Delete'}
                      </Button>
                    </Table.Cell>
                  )}
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
      </Box>
      {discarding && (
        <DiscardOnboardingDialog
          file={{ id, name: file.title }}
          onClose={() => setDiscarding(false)}
          onDiscarded={() => navigate(home)}
        />
      )}
      {file.pagination.total > RECORD_PAGE && (
        <Pager
          start={start}
          pageSize={RECORD_PAGE}
          total={file.pagination.total}
          onStart={setStart}
          disabled={dirty}
          mt="2"
        />
      )}
    </Page>
  );
}
