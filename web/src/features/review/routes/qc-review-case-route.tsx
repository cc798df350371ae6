import { Button, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { QC_MESSAGES } from '@portal/contracts';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { useProfile } from '../../../lib/auth/auth-context';
import { ApiError, UNKNOWN_ERROR } from '../../../lib/errors';
import { ResultDialog, type ActionResult } from '../../../components/dialogs/result-dialog';
import { useCaseViewPatch } from '../../../lib/use-case-view-patch';
import { getQcCaseQueryOptions } from '../api/get-qc-case';
import { CaseSummary } from '../components/case-summary';
import { ErtList } from '../components/ert-list';
import { QcActions } from '../components/qc-actions';
import { RepresentmentPanel } from '../components/representment-panel';

const VIEW = '/case-qc-review/view-case';

/**
 * /case-qc-review/view-case/{caseId?}: one QC case. Without an id the next
 * case is fetched (the server claims it for the reviewer) and its id put in
 * the address; with an id the case is marked on opening and released on leaving.
 */
export default function QcReviewCaseRoute() {
  const { caseId } = useParams();
  const navigate = useNavigate();
  const readOnly = useProfile().is_read_only;
  const id = caseId && /^\d+$/.test(caseId) ? Number(caseId) : null;
  const q = useQuery(getQcCaseQueryOptions(id));
  useEffect(() => {
    if (id == null && q.data) navigate(`${VIEW}/${q.data.id}`, { replace: true });
  }, [id, q.data, navigate]);
  const mark = useCaseViewPatch(id, 'qc-review', { enabled: id != null && q.isSuccess && !readOnly });
  const [result, setResult] = useState<ActionResult | null>(null);
  const back = (
    <Button asChild variant="outline" size="sm">
      <RouterLink to="/case-qc-review" data-testid="back">
        Back
      </RouterLink>
    </Button>
  );
  /** Every state of the screen in the one page frame: title 'QC Review', Back on the right. */
  const page = (body: ReactNode, testId?: string) => (
    <Page data-testid={testId}>
      <PageHeader title="QC Review" actions={back} />
      {body}
      {result && <ResultDialog result={result} onClose={() => setResult(null)} />}
    </Page>
  );

  if (q.isPending || (id == null && q.data))
    return page(
      <HStack p="8" justify="center">
        <Spinner />
      </HStack>,
    );
  if (q.isError) {
    const empty = id == null && q.error instanceof ApiError && q.error.status === 404;
    return page(
      <Stack gap="4" maxW="2xl">
        <Notice status={empty ? 'info' : 'error'}>
          {empty ? QC_MESSAGES.empty : q.error instanceof ApiError ? q.error.message : UNKNOWN_ERROR}
        </Notice>
      </Stack>,
      'qc-error',
    );
  }
  const c = q.data;
  const blocked = mark.status === 'failed';
  return page(
    <Stack gap="4">
      {mark.status === 'failed' && <Notice status="warning">{mark.message}</Notice>}
      <CaseSummary c={c}>
        <Stack mt="4" gap="2">
          <RepresentmentPanel caseId={c.id} />
          {c.mark && (
            <Text fontSize="sm" color="fg.muted" data-testid="qc-mark">
              Opened for QC by {c.mark.username ?? 'another user'}
            </Text>
          )}
        </Stack>
      </CaseSummary>
      <QcActions c={c} blocked={blocked} onNext={() => navigate(VIEW)} onResult={setResult} />
      <ErtList caseId={c.id} />
    </Stack>,
    'qc-case',
  );
}
