import { Box } from '@chakra-ui/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { drawPage, type PDFDocumentProxy } from '../lib/pdfjs';

/** One page of an open PDF drawn at a CSS width; `data-drawn` says when it is on screen (tests wait for it). */
export function PageCanvas({
  pdf,
  page,
  width,
  testId,
}: {
  pdf: PDFDocumentProxy;
  page: number;
  width: number;
  testId?: string;
}) {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  // Which drawing is on the canvas: a new page, size or document is not drawn until it says so.
  const [drawnOf, setDrawnOf] = useState<object | null>(null);
  const target = useMemo(() => ({ pdf, page, width }), [pdf, page, width]);
  const drawn = drawnOf === target;
  useEffect(() => {
    let live = true;
    if (canvas.current)
      drawPage(target.pdf, target.page, canvas.current, target.width)
        .then(() => live && setDrawnOf(target))
        .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [target]);
  return (
    <Box lineHeight="0" bg="white" boxShadow="xs" minH={drawn ? undefined : `${Math.round(width * 1.29)}px`}>
      <canvas ref={canvas} data-testid={testId} data-drawn={drawn ? 'true' : 'false'} />
    </Box>
  );
}
