import { CloseButton, Dialog, Portal } from '@chakra-ui/react';

/**
 * A help topic's video in a dialog (issue 19): the browser's own player, from
 * the tenant's assets on this origin (the page's CSP lets media come from
 * 'self' only). Closing the dialog unmounts, and so stops, the video.
 */
export function HelpVideoDialog({
  title,
  src,
  onClose,
}: {
  title: string;
  src: string;
  onClose: () => void;
}) {
  return (
    <Dialog.Root open size="lg" placement="center" onOpenChange={(e) => !e.open && onClose()}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="help-video-dialog">
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body pb="6">
              <video
                src={src}
                controls
                autoPlay
                playsInline
                preload="metadata"
                style={{ width: '100%', borderRadius: '6px', background: '#000' }}
                aria-label={`${title} video`}
                data-testid="help-video"
              >
                Your browser cannot play this video.
              </video>
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
