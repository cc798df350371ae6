import type { CaseRow, StackConfig, UserProfile } from '@portal/contracts';
import { createContext, useContext, type ComponentType } from 'react';

/**
 * What other features add to case work: the bulk close button, the case
 * builder and the CE 3.0 Remedy. Features never import each other, so the app
 * fills these slots (web/src/app/feature-slots.tsx); an empty slot draws nothing.
 */
export interface CaseSlots {
  BulkCloseButton?: ComponentType<{ stackConfig: StackConfig | undefined; merchantId: number | undefined }>;
  builder?: {
    /** Whether the row's builder icon shows, and enabled or not (spec 2 §2.1, §6; other tabs: issue 29). */
    iconState: (
      profile: Pick<UserProfile, 'id' | 'roles' | 'is_read_only'>,
      tab: string | null,
      row: Pick<CaseRow, 'assigned_user' | 'status_id'>,
    ) => 'hidden' | 'disabled' | 'enabled';
    Icon: ComponentType<{ row: CaseRow; state: 'disabled' | 'enabled'; onOpen: (row: CaseRow) => void }>;
    Dialog: ComponentType<{ row: CaseRow; onClose: () => void; onSubmitted: (message: string) => void }>;
  };
  remedy?: {
    Launcher: ComponentType<{ canRemedy: boolean; disabled?: boolean; onStart: () => void }>;
    Wizard: ComponentType<{ caseId: number; onClose: () => void; onCompleted: () => void }>;
  };
}

export const CaseSlotsContext = createContext<CaseSlots>({});
export const useCaseSlots = () => useContext(CaseSlotsContext);
