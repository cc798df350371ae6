import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { AlertSlotsContext, type AlertSlots } from '../features/alerts/lib/alert-slots';
import { builderIconState } from '../features/builder/lib/builder-icon-state';
import { CaseSlotsContext, type CaseSlots } from '../features/cases/lib/case-slots';
import {
  MerchantSettingsSlotsContext,
  type MerchantSettingsSlots,
} from '../features/merchant-admin/lib/merchant-settings-slots';
import { ReviewSlotsContext, type ReviewSlots } from '../features/review/lib/review-slots';
import { PacketPreviewSlotsContext, type PacketPreviewSlots } from '../lib/packet-preview-slot';
import { ProcessorSlotsContext, type ProcessorSlots } from '../lib/processor-slot';

/**
 * The app composes features that use each other (features never import each
 * other): each consumer declares its slots, filled here. Heavy parts load
 * when first drawn, so they stay out of the first bundle.
 */
function loadWhenDrawn<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  return function Loaded(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

const caseSlots: CaseSlots = {
  BulkCloseButton: loadWhenDrawn(() =>
    import('../features/bulk-close/components/bulk-close-button').then((m) => m.BulkCloseButton),
  ),
  builder: {
    iconState: builderIconState,
    Icon: loadWhenDrawn(() =>
      import('../features/builder/components/builder-icon').then((m) => m.BuilderIcon),
    ),
    Dialog: loadWhenDrawn(() =>
      import('../features/builder/components/case-builder-dialog').then((m) => m.default),
    ),
  },
  remedy: {
    Launcher: loadWhenDrawn(() =>
      import('../features/remedy/components/remedy-launcher').then((m) => m.RemedyLauncher),
    ),
    Wizard: loadWhenDrawn(() => import('../features/remedy/components/remedy-wizard').then((m) => m.default)),
  },
};

const reviewSlots: ReviewSlots = {
  UploadRepresentmentModal: loadWhenDrawn(() =>
    import('../features/cases/components/upload-representment-modal').then((m) => m.default),
  ),
};

const alertSlots: AlertSlots = {
  AutoRefundRulesButton: loadWhenDrawn(() =>
    import('../features/bulk-close/components/auto-refund-rules-button').then((m) => m.AutoRefundRulesButton),
  ),
};

const merchantSettingsSlots: MerchantSettingsSlots = {
  ConnectionsPanel: loadWhenDrawn(() =>
    import('../features/connectors/components/connections-panel').then((m) => m.ConnectionsPanel),
  ),
};

// The evidence preview (issue 34): pdf.js loads with these, never with another screen.
const packetPreviewSlots: PacketPreviewSlots = {
  PreviewPanel: loadWhenDrawn(() =>
    import('../features/evidence-preview/components/preview-panel').then((m) => m.default),
  ),
  CompiledPacketViewer: loadWhenDrawn(() =>
    import('../features/evidence-preview/components/compiled-packet-viewer').then((m) => m.default),
  ),
};

// A case's processor connection (issue 32): the 'Stripe submission' panel and 'Save as draft at Stripe'.
const processorSlots: ProcessorSlots = {
  SaveDraftButton: loadWhenDrawn(() =>
    import('../features/connectors/components/save-draft-button').then((m) => m.SaveDraftButton),
  ),
  SubmissionPanel: loadWhenDrawn(() =>
    import('../features/connectors/components/stripe-submission-panel').then((m) => m.StripeSubmissionPanel),
  ),
};

export function FeatureSlots({ children }: { children: ReactNode }) {
  return (
    <CaseSlotsContext.Provider value={caseSlots}>
      <ReviewSlotsContext.Provider value={reviewSlots}>
        <AlertSlotsContext.Provider value={alertSlots}>
          <MerchantSettingsSlotsContext.Provider value={merchantSettingsSlots}>
            <PacketPreviewSlotsContext.Provider value={packetPreviewSlots}>
              <ProcessorSlotsContext.Provider value={processorSlots}>
                {children}
              </ProcessorSlotsContext.Provider>
            </PacketPreviewSlotsContext.Provider>
          </MerchantSettingsSlotsContext.Provider>
        </AlertSlotsContext.Provider>
      </ReviewSlotsContext.Provider>
    </CaseSlotsContext.Provider>
  );
}
