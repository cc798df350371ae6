import { Box, Button, HStack, Input, Menu, Portal } from '@chakra-ui/react';
import { useEffect, useState, type ReactNode } from 'react';
import { PageSizeSelect } from '../../../components/page-size-select';
import { SavedViewsMenu } from '../../../components/saved-views-menu';
import type { CaseColumn } from '../lib/case-columns';
import type { CaseTools } from '../lib/use-case-tools';
import { PAGE_SIZES, type CaseListStateApi } from '../lib/use-case-list-state';

const SEARCH_DEBOUNCE_MS = 200;
export type BulkKind = 'flag' | 'unflag' | 'assign' | 'dnr' | 'revert' | 'edit';

/**
 * The search box: what is typed shows at once, the list's URL follows 200 ms
 * after the last keystroke (spec 2 §9), and a search changed from outside
 * (Back, a saved view) shows in the box.
 */
function CaseSearchBox({ list }: { list: CaseListStateApi }) {
  const applied = list.state.search;
  const [text, setText] = useState(applied);
  const [shown, setShown] = useState(applied);
  if (shown !== applied) {
    setShown(applied);
    if (text.trim() !== applied) setText(applied);
  }
  const { setSearch } = list;
  useEffect(() => {
    if (text.trim() === applied) return;
    const t = setTimeout(() => setSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, applied, setSearch]);
  return (
    <Input
      size="sm"
      w={{ base: 'full', md: '64' }}
      placeholder="Search"
      aria-label="Search cases"
      value={text}
      onChange={(e) => setText(e.target.value)}
      bg="white"
    />
  );
}

function BulkMenu({ count, onBulk }: { count: number; onBulk: (kind: BulkKind) => void }) {
  const items: [BulkKind, string][] = [
    ['edit', 'Edit Verdict'],
    ['flag', 'Flag'],
    ['unflag', 'Unflag'],
    ['assign', 'Bulk Assign'],
    ['dnr', 'Do Not Represent'],
    ['revert', 'Revert Do Not Represent'],
  ];
  return (
    <Menu.Root>
      <Menu.Trigger asChild>
        <Button size="sm" variant="outline" data-testid="bulk-menu">
          Bulk Actions{count ? ` (${count})` : ''}
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            {items.map(([kind, label]) => (
              <Menu.Item key={kind} value={kind} onSelect={() => onBulk(kind)}>
                {label}
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

function ToolsMenu({ tools }: { tools: CaseTools }) {
  return (
    <Menu.Root closeOnSelect>
      <Menu.Trigger asChild>
        <Button size="sm" variant="outline" data-testid="tools-menu">
          Tools
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.Item value="copy" onSelect={() => void tools.copy()}>
              Copy
            </Menu.Item>
            <Menu.Item value="csv" onSelect={tools.csv}>
              CSV
            </Menu.Item>
            <Menu.Item value="excel" onSelect={() => void tools.serverExport('xlsx', 'page')}>
              Excel
            </Menu.Item>
            <Menu.Item value="pdf" onSelect={() => void tools.pdf()}>
              PDF
            </Menu.Item>
            <Menu.Item value="print" onSelect={tools.print}>
              Print
            </Menu.Item>
            <Menu.Item value="export-all" onSelect={() => void tools.serverExport('csv', 'all')}>
              Export All
            </Menu.Item>
            <Menu.Item value="export-all-xlsx" onSelect={() => void tools.serverExport('xlsx', 'all')}>
              Export All (Excel)
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

function ColumnMenu({
  columns,
  hidden,
  onToggle,
  onReset,
}: {
  columns: CaseColumn[];
  hidden: ReadonlySet<string>;
  onToggle: (key: string) => void;
  onReset: () => void;
}) {
  return (
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
                  onCheckedChange={() => onToggle(c.key)}
                >
                  {c.label}
                  <Menu.ItemIndicator />
                </Menu.CheckboxItem>
              ))}
            <Menu.Separator />
            <Menu.Item value="reset" onSelect={onReset}>
              Reset
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

/**
 * The toolbar of a case list (spec 2 §2.1-2.3): search, Filter, Advanced
 * Search, the view's extra buttons, Bulk Actions, Tools, Column Filter, the
 * saved Views and the page size.
 */
export function CaseListToolbar({
  list,
  path,
  showFilterButton,
  panelTitle,
  onTogglePanel,
  onToggleAdvanced,
  extra,
  bulk,
  tools,
  columns,
  hidden,
  onToggleColumn,
  onResetColumns,
}: {
  list: CaseListStateApi;
  /** The list route (saved views open on it). */
  path: string;
  showFilterButton: boolean;
  panelTitle: string | null;
  onTogglePanel: () => void;
  onToggleAdvanced: () => void;
  /** Bulk close, the view's toolbar buttons and its own bulk actions. */
  extra: ReactNode;
  /** The default bulk menu, when the view has it. */
  bulk: { count: number; onBulk: (kind: BulkKind) => void } | null;
  tools: CaseTools;
  columns: CaseColumn[];
  hidden: ReadonlySet<string>;
  onToggleColumn: (key: string) => void;
  onResetColumns: () => void;
}) {
  return (
    <HStack wrap="wrap" gap="2">
      <CaseSearchBox list={list} />
      {showFilterButton && (
        <Button size="sm" variant="outline" onClick={onTogglePanel} data-testid="filter-button">
          Filter{panelTitle ? `: ${panelTitle}` : ''}
        </Button>
      )}
      <Button size="sm" variant="outline" onClick={onToggleAdvanced} data-testid="advanced-button">
        Advanced Search{list.state.advanced ? ' (applied)' : ''}
      </Button>
      {extra}
      {bulk && <BulkMenu count={bulk.count} onBulk={bulk.onBulk} />}
      <ToolsMenu tools={tools} />
      <ColumnMenu columns={columns} hidden={hidden} onToggle={onToggleColumn} onReset={onResetColumns} />
      <SavedViewsMenu list="cases" path={path} query={list.query} />
      <Box ms="auto">
        <PageSizeSelect
          sizes={PAGE_SIZES}
          value={list.state.pageSize}
          onChange={list.setPageSize}
          label="Rows per page"
          ariaLabel="Rows per page"
          testId="page-size"
        />
      </Box>
    </HStack>
  );
}
