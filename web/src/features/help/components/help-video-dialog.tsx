import { DialogFrame } from '../../../components/dialog-frame';

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
    <DialogFrame title={title} testId="help-video-dialog" onClose={onClose} size="lg">
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
    </DialogFrame>
  );
}
