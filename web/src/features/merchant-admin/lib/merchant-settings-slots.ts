import { createContext, useContext, type ComponentType } from 'react';

/** Parts other features draw on Merchant Settings; the app fills them (web/src/app/feature-slots.tsx). */
export interface MerchantSettingsSlots {
  /** The merchant's processor connections (the connectors feature). */
  ConnectionsPanel?: ComponentType<{ merchantId: number }>;
}

export const MerchantSettingsSlotsContext = createContext<MerchantSettingsSlots>({});
export const useMerchantSettingsSlots = () => useContext(MerchantSettingsSlotsContext);
