import { Tabs } from '@chakra-ui/react';
import type { CaseQuery } from '../api/get-cases';

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

/** The id of a tab's trigger, `base` being the list's useId(). */
const triggerId = (base: string, key: string) => `${base}-tab-${key}`;

/**
 * What the element showing the list (the grid) carries: the one tab panel every tab controls, named by
 * the chosen tab. The tabs only choose the list's query, so there is no panel per tab; without these
 * the tabs' aria-controls would name panels that do not exist.
 */
export function caseTabPanelProps(base: string, value: string | null) {
  return {
    id: `${base}-panel`,
    role: 'tabpanel',
    ...(value ? { 'aria-labelledby': triggerId(base, value) } : {}),
  };
}

/** The tabs of a case list (spec 2 §2.1); the chosen one is in the list's URL. */
export function CaseListTabs({
  tabs,
  value,
  onChange,
  idBase,
}: {
  tabs: TabDef[];
  value: string | null;
  onChange: (key: string) => void;
  /** A useId() of the list: the tabs control the element given caseTabPanelProps(idBase, value). */
  idBase: string;
}) {
  return (
    <Tabs.Root
      value={value}
      onValueChange={(e) => onChange(e.value)}
      variant="line"
      size="sm"
      ids={{ trigger: (key) => triggerId(idBase, key), content: () => caseTabPanelProps(idBase, null).id }}
    >
      <Tabs.List flexWrap="wrap">
        {tabs.map((t) => (
          <Tabs.Trigger key={t.key} value={t.key} data-testid={`tab-${t.key}`}>
            {t.title}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
    </Tabs.Root>
  );
}
