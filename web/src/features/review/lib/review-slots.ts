import type { CaseRow, RepresentmentUploadAnswer } from '@portal/contracts';
import { createContext, useContext, type ComponentType } from 'react';

/** The case feature's upload modal, which QC re-uploads open; the app fills the slot (web/src/app/feature-slots.tsx). */
export interface ReviewSlots {
  UploadRepresentmentModal?: ComponentType<{
    row: Pick<CaseRow, 'id' | 'merchant_id' | 'properties'>;
    isReupload?: boolean;
    legacyTitle?: boolean;
    onClose: () => void;
    onUploaded: (answer: RepresentmentUploadAnswer) => void;
  }>;
}

export const ReviewSlotsContext = createContext<ReviewSlots>({});
export const useReviewSlots = () => useContext(ReviewSlotsContext);
