import {
  Badge,
  Box,
  Checkbox,
  CloseButton,
  Field,
  Flex,
  HStack,
  Input,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { BULK_MESSAGES, type BulkJob } from '@portal/contracts';
import { useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { useBulkJobs, useDecideBulkJob, useSubmitBulkJob, type BulkKind } from '../api/bulk-jobs';
import { useCriteriaOptions, type Option, type OptionSource } from '../api/get-criteria-options';
import { amountRangeError, formatAmountRange, formatJobDate } from '../lib/job-format';
import { PastJobs } from './past-jobs';

export interface CriterionDef {
  /** Body field, e.g. currency_id. */
  key: string;
  label: string;
  source: OptionSource;
  /** The job's display name of the criterion (BulkJob field). */
  jobLabel: keyof BulkJob;
}

type Values = Record<string, string>;

const NOT_WORTH_BADGE = 'Not worth fighting (expected value below zero)';

function SelectCriterion({
  def,
  merchantId,
  value,
  disabled,
  onChange,
}: {
  def: CriterionDef;
  merchantId: number | undefined;
  value: string;
  disabled: boolean;
  onChange: (v: string, label: string) => void;
}) {
  const options = useCriteriaOptions(def.source, merchantId);
  const list: Option[] = options.data ?? [];
  return (
    <Field.Root required disabled={disabled}>
      <Field.Label>{def.label}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          aria-label={def.label}
          data-testid={`criterion-${def.key}`}
          value={value}
          onChange={(e) =>
            onChange(e.target.value, list.find((o) => String(o.id) === e.target.value)?.label ?? '')
          }
        >
          <option value="">{`Select ${def.label}`}</option>
          {list.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/** 'N records updated.' for the latest finished job; the scheduled one's description otherwise. */
function JobDescription({
  scheduled,
  latest,
}: {
  scheduled: BulkJob | undefined;
  latest: BulkJob | undefined;
}) {
  if (scheduled)
    return (
      <Notice status="info" testId="bulk-job-description">
        {BULK_MESSAGES.toUpdate(
          formatJobDate(scheduled.date_confirmed ?? scheduled.date_created),
          scheduled.username ?? '',
          scheduled.preview_num,
        )}
      </Notice>
    );
  if (latest)
    return (
      <Text fontSize="sm" color="fg.muted" data-testid="bulk-job-description">
        {`${formatJobDate(latest.date_run_end ?? latest.date_created)}: ${BULK_MESSAGES.updated(latest.records_num)}`}
      </Text>
    );
  return null;
}

/**
 * The bulk close panel and the Auto Refund Rules dialog (spec 2 §2.9, §4, §5):
 * criteria with 'Applied Criteria' badges, 'Run Action' submits them and the
 * 'Confirm Action' dialog shows how many records the job will change. A
 * scheduled job (confirmed, not yet run) locks the panel with its criteria.
 */
export function BulkJobPanel({
  kind,
  title,
  merchantId,
  criteria,
  onClose,
}: {
  kind: BulkKind;
  title: string;
  merchantId: number | undefined;
  criteria: CriterionDef[];
  onClose: () => void;
}) {
  const profile = useProfile();
  const jobs = useBulkJobs(kind, merchantId);
  const submit = useSubmitBulkJob(kind);
  const decide = useDecideBulkJob(kind);
  const [values, setValues] = useState<Values>({});
  const [labels, setLabels] = useState<Values>({});
  const [min, setMin] = useState('');
  const [max, setMax] = useState('');
  // Issue 33: keep to the cases whose expected value of fighting is below zero (win odds).
  const [notWorth, setNotWorth] = useState(false);
  const [pending, setPending] = useState<BulkJob | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const list = jobs.data?.data ?? [];
  const scheduled = list.find((j) => j.state === 'confirmed' || j.state === 'running');
  const latest = list.find((j) => j.state === 'done');
  const readOnly = profile.is_read_only;
  const locked = !!scheduled || readOnly;
  const amountError = amountRangeError(min, max);
  const anySet = !!min || !!max || Object.values(values).some(Boolean);
  const complete = !!min && !!max && !amountError && criteria.every((c) => values[c.key]);
  const busy = submit.isPending || decide.isPending;

  // A scheduled job's criteria are shown (read-only) instead of the form's.
  const badges: Array<{ key: string; text: string }> = scheduled
    ? [
        { key: 'amount', text: `Amount: ${formatAmountRange(scheduled.amt_from, scheduled.amt_to)}` },
        ...criteria.map((c) => ({ key: c.key, text: `${c.label}: ${String(scheduled[c.jobLabel] ?? '')}` })),
        ...(scheduled.not_worth_fighting ? [{ key: 'not-worth', text: NOT_WORTH_BADGE }] : []),
      ]
    : [
        ...(min && max && !amountError
          ? [{ key: 'amount', text: `Amount: ${formatAmountRange(Number(min), Number(max))}` }]
          : []),
        ...criteria
          .filter((c) => values[c.key])
          .map((c) => ({ key: c.key, text: `${c.label}: ${labels[c.key]}` })),
        ...(notWorth ? [{ key: 'not-worth', text: NOT_WORTH_BADGE }] : []),
      ];

  function remove(key: string) {
    if (key === 'not-worth') setNotWorth(false);
    else if (key === 'amount') {
      setMin('');
      setMax('');
    } else setValues((v) => ({ ...v, [key]: '' }));
  }

  function run() {
    if (!profile.id) {
      toaster.create({ type: 'error', title: BULK_MESSAGES.errorTitle, description: BULK_MESSAGES.noUser });
      return;
    }
    const body: Record<string, number | boolean | undefined> = {
      amt_from: Number(min),
      amt_to: Number(max),
      merchant_id: merchantId,
      user_id: profile.id,
      ...(kind === 'auto_accept' && notWorth ? { not_worth_fighting: true } : {}),
    };
    for (const c of criteria) body[c.key] = Number(values[c.key]);
    submit.mutate(body, {
      onSuccess: (job) => setPending(job),
      onError: (e) =>
        toaster.create({ type: 'error', title: BULK_MESSAGES.errorTitle, description: e.message }),
    });
  }

  function answer(confirmed: 0 | 1) {
    if (!pending) return;
    decide.mutate(
      { id: pending.id, confirmed, userId: profile.id },
      {
        onSuccess: () => {
          setPending(null);
          if (confirmed) {
            setSubmitted(true);
            toaster.create({
              type: 'success',
              title: BULK_MESSAGES.successTitle,
              description: BULK_MESSAGES.success,
            });
          }
        },
        onError: () =>
          toaster.create({
            type: 'error',
            title: BULK_MESSAGES.errorTitle,
            description: BULK_MESSAGES.confirmError,
          }),
      },
    );
  }

  return (
    <>
      <DialogFrame
        title={title}
        testId={`bulk-panel-${kind}`}
        onClose={onClose}
        size="lg"
        footer={
          <DialogActions
            onCancel={onClose}
            cancelLabel="Close"
            primary={{
              label: 'Run Action',
              onClick: run,
              disabled: !anySet || !complete || busy || locked,
              loading: submit.isPending,
              testId: 'bulk-run-action',
            }}
          />
        }
      >
        <Stack gap="4">
          <JobDescription scheduled={scheduled} latest={latest} />
          {submitted && (
            <Notice status="success" testId="bulk-submitted">
              {BULK_MESSAGES.submitted}
            </Notice>
          )}
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
            <Field.Root required invalid={!!amountError} disabled={locked}>
              <Field.Label>Amount range</Field.Label>
              <HStack>
                <Input
                  size="sm"
                  aria-label="Minimum amount"
                  placeholder="Min"
                  value={min}
                  onChange={(e) => setMin(e.target.value)}
                  data-testid="criterion-amt-from"
                />
                <Input
                  size="sm"
                  aria-label="Maximum amount"
                  placeholder="Max"
                  value={max}
                  onChange={(e) => setMax(e.target.value)}
                  data-testid="criterion-amt-to"
                />
              </HStack>
              {amountError && <Field.ErrorText>{amountError}</Field.ErrorText>}
            </Field.Root>
            {criteria.map((c) => (
              <SelectCriterion
                key={c.key}
                def={c}
                merchantId={merchantId}
                value={values[c.key] ?? ''}
                disabled={locked}
                onChange={(v, label) => {
                  setValues((s) => ({ ...s, [c.key]: v }));
                  setLabels((s) => ({ ...s, [c.key]: label }));
                }}
              />
            ))}
          </SimpleGrid>
          {kind === 'auto_accept' && (
            <Checkbox.Root
              size="sm"
              checked={notWorth}
              disabled={locked}
              onCheckedChange={(e) => setNotWorth(e.checked === true)}
              data-testid="bulk-not-worth-fighting"
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>Select cases not worth fighting (expected value below zero)</Checkbox.Label>
            </Checkbox.Root>
          )}
          <Box>
            <Text fontWeight="semibold" fontSize="sm" mb="1">
              Applied Criteria
            </Text>
            <Flex gap="2" wrap="wrap" data-testid="applied-criteria">
              {badges.map((b) => (
                <Badge key={b.key} colorPalette="blue" variant="subtle" size="md">
                  {b.text}
                  {!locked && (
                    <CloseButton size="2xs" aria-label={`Remove ${b.text}`} onClick={() => remove(b.key)} />
                  )}
                </Badge>
              ))}
            </Flex>
          </Box>
          <PastJobs jobs={list} criteria={criteria} />
        </Stack>
      </DialogFrame>
      {pending && (
        <ConfirmAction
          job={pending}
          busy={decide.isPending}
          onAccept={() => answer(1)}
          onCancel={() => answer(0)}
        />
      )}
    </>
  );
}

function ConfirmAction({
  job,
  busy,
  onAccept,
  onCancel,
}: {
  job: BulkJob;
  busy: boolean;
  onAccept: () => void;
  onCancel: () => void;
}) {
  return (
    <DialogFrame
      title="Confirm Action"
      testId="confirm-action-dialog"
      onClose={onCancel}
      size="sm"
      role="alertdialog"
      closeButton={false}
      footer={
        <DialogActions
          onCancel={onCancel}
          cancelDisabled={busy}
          primary={{
            label: 'Accept',
            onClick: onAccept,
            loading: busy,
            disabled: job.preview_num === 0,
            testId: 'confirm-action-accept',
          }}
        />
      }
    >
      <Text data-testid="confirm-action-count">
        {job.preview_num > 0 ? BULK_MESSAGES.affects(job.preview_num) : BULK_MESSAGES.noRecords}
      </Text>
    </DialogFrame>
  );
}
