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

/** The tabs of a case list (spec 2 §2.1); the chosen one is in the list's URL. */
export function CaseListTabs({
  tabs,
  value,
  onChange,
}: {
  tabs: TabDef[];
  value: string | null;
  onChange: (key: string) => void;
}) {
  return (
    <Tabs.Root value={value} onValueChange={(e) => onChange(e.value)} variant="line" size="sm">
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
