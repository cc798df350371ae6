import { Box } from '@chakra-ui/react';
import { useState } from 'react';
import type { CaseQuery } from '../api/get-cases';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { MSG } from '../../../lib/case-messages';
import type { PanelKey } from '../lib/panel-filters';
import type { CaseListStateApi } from '../lib/use-case-list-state';
import { AdvancedSearch } from './advanced-search';
import { FilterPanel } from './filter-panel';

/**
 * The filter panel and the advanced search of a case list (spec 2 §2.2). Their
 * choices are the list's URL state; whether they are open is this screen's.
 * A panel row chosen while an advanced search is applied asks first.
 */
export function CaseListPanels({
  list,
  filterBase,
  panelOpen,
  onClosePanel,
  advancedOpen,
  advancedMounted,
}: {
  list: CaseListStateApi;
  /** The list's query without panel and advanced filters (the panel's counts). */
  filterBase: CaseQuery;
  panelOpen: boolean;
  onClosePanel: () => void;
  advancedOpen: boolean;
  /** Kept mounted once opened: closing and reopening keeps what was typed. */
  advancedMounted: boolean;
}) {
  const { state } = list;
  const [pendingPanel, setPendingPanel] = useState<PanelKey | null>(null);
  return (
    <>
      {panelOpen && (
        <FilterPanel
          base={filterBase}
          active={state.panel}
          days={state.days}
          onDays={list.setDays}
          onChoose={(f) => (state.advanced ? setPendingPanel(f.key) : list.choosePanel(f.key))}
          onReset={list.resetPanel}
          onClose={onClosePanel}
        />
      )}
      {advancedMounted && (
        <Box hidden={!advancedOpen}>
          <AdvancedSearch
            applied={state.advanced}
            onSearch={list.setAdvanced}
            onClear={() => list.setAdvanced(null)}
          />
        </Box>
      )}
      {pendingPanel && (
        <ConfirmDialog
          title="Overwrite advanced search?"
          message={MSG.overwrite}
          confirmLabel="Continue"
          onConfirm={() => {
            list.choosePanel(pendingPanel, true);
            setPendingPanel(null);
          }}
          onClose={() => setPendingPanel(null)}
          testId="overwrite-dialog"
        />
      )}
    </>
  );
}
