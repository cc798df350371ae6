import { Button, SimpleGrid, Stack, Stat, Table, Text } from '@chakra-ui/react';
import type { CalibrationDecile, WinOddsStatus } from '@portal/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { queryRoots } from '../../../lib/query-keys';
import { useRetrain, useWinOdds } from '../api/win-odds';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * /win-odds (issue 33): how good the tenant's win odds are, honestly. The
 * model and the reason codes' historical win rate are both tested on the
 * newest closed cases (trained on the older ones); the table compares their
 * Brier scores and calibration by deciles, and says which of the two the
 * case lists show. 'Retrain now' queues the training job and follows it.
 */
export function WinOddsAdmin() {
  const status = useWinOdds();
  const retrain = useRetrain();
  const readOnly = useProfile().is_read_only;
  const qc = useQueryClient();
  const jobState = status.data?.job?.state;
  const previous = useRef(jobState);
  // The lists show the new scores once the job is done.
  useEffect(() => {
    if (previous.current && previous.current !== 'done' && jobState === 'done')
      void qc.invalidateQueries({ queryKey: queryRoots.cases });
    previous.current = jobState;
  }, [jobState, qc]);
  const busy = retrain.isPending || jobState === 'queued' || jobState === 'running';

  return (
    <Page data-testid="win-odds-admin">
      <PageHeader
        title="Win Odds"
        description="The probability of winning each open case if represented, from this tenant's own closed cases, and how well it did on the newest ones."
        actions={
          <Button
            size="sm"
            loading={busy}
            disabled={readOnly || busy}
            data-testid="win-odds-retrain"
            onClick={() =>
              retrain.mutate(undefined, {
                onError: (e) => toaster.create({ type: 'error', title: 'Retrain', description: e.message }),
              })
            }
          >
            Retrain now
          </Button>
        }
      />
      {status.isError && <Notice status="error">{status.error.message}</Notice>}
      {status.data && <Summary data={status.data} />}
    </Page>
  );
}

function Summary({ data }: { data: WinOddsStatus }) {
  const { model, job } = data;
  return (
    <Stack gap="4">
      {job && job.state !== 'done' && (
        <Notice status={job.state === 'failed' ? 'error' : 'info'} testId="win-odds-job">
          {`Training: ${job.state}${job.message ? ` (${job.message})` : ''}${job.error ? `: ${job.error}` : ''}`}
        </Notice>
      )}
      {!model ? (
        <Notice status="info">No model yet: press 'Retrain now'.</Notice>
      ) : (
        <>
          <Notice status={model.source === 'model' ? 'success' : 'warning'} testId="win-odds-note">
            {model.evaluation.note}
          </Notice>
          <SimpleGrid columns={{ base: 2, md: 4 }} gap="3">
            <Figure
              label="Shown on the cases"
              value={model.source === 'model' ? 'Model' : 'Historical win rate'}
            />
            <Figure label="Brier, model" value={model.evaluation.brier_model?.toFixed(4) ?? '–'} />
            <Figure
              label="Brier, reason-code baseline"
              value={model.evaluation.brier_baseline?.toFixed(4) ?? '–'}
            />
            <Figure label="Open cases scored" value={String(data.open_scored)} />
          </SimpleGrid>
          <Text fontSize="sm" color="fg.muted" data-testid="win-odds-meta">
            {`Trained ${new Date(model.trained_at).toLocaleString()} on ${model.n_cases} represented closed cases ` +
              `(${model.features} features, L2 penalty ${model.lambda}). Holdout: trained on ${model.evaluation.n_train} ` +
              `cases closed before ${model.evaluation.cutoff ?? '–'}, tested on the ${model.evaluation.n_test} closed since. ` +
              `Expected value = probability × amount − fees − handling cost (${data.costs.handling_cost}; ${data.costs.fees_from}). ` +
              'Brier: mean squared error of the probability, lower is better.'}
          </Text>
          <DecileTable model={model.evaluation.deciles_model} baseline={model.evaluation.deciles_baseline} />
        </>
      )}
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stat.Root borderWidth="1px" borderRadius="md" p="3">
      <Stat.Label>{label}</Stat.Label>
      <Stat.ValueText fontSize="lg">{value}</Stat.ValueText>
    </Stat.Root>
  );
}

function DecileTable({ model, baseline }: { model: CalibrationDecile[]; baseline: CalibrationDecile[] }) {
  if (!model.length) return null;
  return (
    <Stack gap="1">
      <Text fontWeight="semibold">Calibration on the newest cases, by deciles of the prediction</Text>
      <Table.ScrollArea borderWidth="1px" borderRadius="md">
        <Table.Root size="sm" data-testid="win-odds-deciles">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Decile</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Cases</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Model predicted</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Actual win rate</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Baseline predicted</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Actual win rate</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {model.map((d, i) => (
              <Table.Row key={d.decile}>
                <Table.Cell>{d.decile}</Table.Cell>
                <Table.Cell textAlign="end">{d.n}</Table.Cell>
                <Table.Cell textAlign="end">{pct(d.predicted)}</Table.Cell>
                <Table.Cell textAlign="end">{pct(d.actual)}</Table.Cell>
                <Table.Cell textAlign="end">{baseline[i] ? pct(baseline[i].predicted) : '–'}</Table.Cell>
                <Table.Cell textAlign="end">{baseline[i] ? pct(baseline[i].actual) : '–'}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </Stack>
  );
}
