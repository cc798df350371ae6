import { Box, Button, Heading, Spinner, Text } from '@chakra-ui/react';
import { DOWNLOAD_MESSAGES } from '@portal/contracts';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Page, PageHeader } from '../../../components/page-header';
import { GENERIC_ERROR } from '../../../lib/errors';
import { getDownloadable } from '../api/get-downloadable';

type State = { kind: 'loading' } | { kind: 'done'; filename: string } | { kind: 'error'; message: string };

/** Starts the browser's download of a link without leaving the page. */
function startDownload(url: string, filename: string) {
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * /download?loc= (spec 2 §2.10): 'Please wait, while we download your document.'
 * with a spinner; loc missing is 'Invalid url provided.' (title Error); a failure
 * shows the server's text or the generic one. After success the address becomes
 * /download. Either way 'Return to Home' goes to /.
 */
export default function DownloadRoute() {
  const [params] = useSearchParams();
  const location = useLocation();
  const loc = params.get('loc');
  const downloaded = (location.state as { downloaded?: string } | null)?.downloaded;
  // A new loc is a new download: the page starts over.
  return <DownloadPage key={`${loc ?? ''}|${downloaded ?? ''}`} loc={loc} downloaded={downloaded} />;
}

function DownloadPage({ loc, downloaded }: { loc: string | null; downloaded: string | undefined }) {
  const navigate = useNavigate();
  const [state, setState] = useState<State>(() =>
    loc?.trim()
      ? { kind: 'loading' }
      : downloaded
        ? { kind: 'done', filename: downloaded }
        : { kind: 'error', message: DOWNLOAD_MESSAGES.invalidUrl },
  );
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !loc?.trim()) return;
    started.current = true;
    getDownloadable(loc)
      .then((r) => {
        startDownload(r.url, r.filename);
        // The address no longer names the file; the page keeps saying what was downloaded.
        navigate('/download', { replace: true, state: { downloaded: r.filename } });
      })
      .catch((e: Error) => setState({ kind: 'error', message: e.message || GENERIC_ERROR }));
  }, [loc, navigate]);

  return (
    <Page>
      <PageHeader title="Download" />
      <Box
        bg="white"
        borderRadius="lg"
        borderWidth="1px"
        p="8"
        maxW="lg"
        w="full"
        textAlign="center"
        data-testid="download-page"
      >
        {state.kind === 'loading' && (
          <>
            <Spinner size="lg" color="brand.solid" mb="4" data-testid="download-spinner" />
            <Text>{DOWNLOAD_MESSAGES.wait}</Text>
          </>
        )}
        {state.kind === 'done' && (
          <>
            <Heading size="md" mb="2">
              Download started
            </Heading>
            <Text data-testid="download-done">{state.filename}</Text>
          </>
        )}
        {state.kind === 'error' && (
          <>
            <Heading size="md" mb="2" color="red.600">
              Error
            </Heading>
            <Text data-testid="download-error">{state.message}</Text>
          </>
        )}
        {state.kind !== 'loading' && (
          <Button mt="6" colorPalette="brand" onClick={() => navigate('/')}>
            Return to Home
          </Button>
        )}
      </Box>
    </Page>
  );
}
