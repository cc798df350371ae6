import type { PacketCheck, PacketPage, PacketPreview } from '@portal/contracts';
import { createContext, useContext, type ComponentType } from 'react';

/**
 * The evidence preview (issue 34) drawn by the screens that stage or review a
 * representment (the upload modal, the case builder, the QC reviewer):
 * features never import each other, so the app fills this slot
 * (web/src/app/feature-slots.tsx) and the viewer loads only when drawn.
 */
export interface PacketPreviewPanelProps {
  preview: PacketPreview;
  /** Turn a page by 90 degrees clockwise, or remove it; absent: the viewer only shows. */
  onRotatePage?: (page: PacketPage) => void;
  onRemovePage?: (page: PacketPage) => void;
  /**
   * Whether a page may be turned or removed (default: every page): the case builder's summary pages are
   * the server's own, so the builder offers no action on them rather than one that does nothing.
   */
  canArrangePage?: (page: PacketPage) => boolean;
  /** Mask a card number the server found (it draws the box when it compiles). */
  onMask?: (mask: NonNullable<PacketCheck['mask']>) => void;
  /** The note that accepts the packet's warnings; absent: the warnings are only shown. */
  note?: string;
  onNote?: (note: string) => void;
  busy?: boolean;
}

export interface PacketPreviewSlots {
  PreviewPanel?: ComponentType<PacketPreviewPanelProps>;
  /** The newest compiled packet of a case, each page labelled by its document and SHA-256. */
  CompiledPacketViewer?: ComponentType<{ caseId: number }>;
}

export const PacketPreviewSlotsContext = createContext<PacketPreviewSlots>({});
export const usePacketPreviewSlots = () => useContext(PacketPreviewSlotsContext);

/** Whether a previewed packet may be submitted: nothing blocked, and warnings accepted with a note. */
export function previewVerdict(preview: PacketPreview | null, note: string) {
  const blocked = preview?.checks.filter((c) => c.level === 'blocked') ?? [];
  const warnings = preview?.checks.filter((c) => c.level === 'warning') ?? [];
  return {
    blocked: blocked.length > 0,
    warnings: warnings.length,
    accepted: warnings.length > 0 && note.trim().length > 0,
  };
}
