import { createContext, useContext, type ComponentType } from 'react';

/**
 * A case's processor connection (issue 32) drawn by the screens of case
 * work: the case's 'Stripe submission' panel (the case detail) and 'Save as
 * draft at Stripe' beside the submit button (the upload modal, the case
 * builder's last step). Features never import each other, so the app fills
 * this slot (web/src/app/feature-slots.tsx) with the connectors feature's
 * parts; each draws nothing for a case no connection owns.
 */
export interface SaveDraftButtonProps {
  caseId: number;
  disabled?: boolean;
  loading?: boolean;
  onSaveDraft: () => void;
}

export interface ProcessorSlots {
  SaveDraftButton?: ComponentType<SaveDraftButtonProps>;
  SubmissionPanel?: ComponentType<{ caseId: number }>;
}

export const ProcessorSlotsContext = createContext<ProcessorSlots>({});
export const useProcessorSlots = () => useContext(ProcessorSlotsContext);
