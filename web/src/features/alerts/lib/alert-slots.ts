import { createContext, useContext, type ComponentType } from 'react';

/** The bulk-close feature's auto-refund rules button on the alerts grid; the app fills the slot (web/src/app/feature-slots.tsx). */
export interface AlertSlots {
  AutoRefundRulesButton?: ComponentType<{ merchantId: number | undefined }>;
}

export const AlertSlotsContext = createContext<AlertSlots>({});
export const useAlertSlots = () => useContext(AlertSlotsContext);
