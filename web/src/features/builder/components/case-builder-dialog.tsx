import {
  type AcceptedWarnings,
  BUILDER_MESSAGES as M,
  transactionType,
  type BuilderCase,
  type BuilderSaveBody,
  type CaseRow,
} from '@portal/contracts';
import { Box, Button, HStack, Spinner, Stack, Steps, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { DialogFrame } from '../../../components/dialog-frame';
import { invalidateCaseWrite } from '../../../lib/case-writes';
import { ApiError } from '../../../lib/errors';
import { formatMoney } from '../../../lib/format';
import { useStackConfig } from '../../../lib/get-stack-config';
import { postUploadForm } from '../../../lib/post-upload-form';
import { queryRoots } from '../../../lib/query-keys';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { builderCaseQueryOptions, useBuilderCase, useSaveBuilderPage } from '../api/builder-case';
import {
  builderProductsKey,
  copyToCases,
  getDocTypesQueryOptions,
  useDocTypes,
  useProducts,
  useRelatedCases,
} from '../api/builder-lookups';
import { getBuilderUploadLink, submitBuilderUpload } from '../api/builder-upload';
import { useProcessorSlots } from '../../../lib/processor-slot';
import {
  dueDatePlusOne,
  fieldErrorsOf,
  fullDateTime,
  missingRequired,
  valuesOf,
  type FieldErrors,
  type Values,
} from '../lib/builder-form';
import { builderPacketOf, missingDocType, type StagedDoc } from '../lib/staged';
import { BuilderGroups } from './builder-groups';
import { StepDetails, type DetailsDraft } from './step-details';
import { StepDocuments } from './step-documents';
import { StepSummary } from './step-summary';
import { BuilderPacketPreview } from './builder-packet-preview';
import { WinOddsPanel } from './win-odds-panel';

const STEPS = ['Details', 'Case Information', 'Documents', 'Case Summary'] as const;

function detailsOf(c: BuilderCase): DetailsDraft {
  return {
    sale_type: c.sale_type ? String(c.sale_type) : '',
    product_id: c.product_id ? String(c.product_id) : '',
    new_product_name: '',
    new_product_description: '',
    category_id: '',
    is_shippable: c.is_shippable,
    is_service: c.is_service,
    is_subscription: c.is_subscription,
  };
}

/**
 * The case builder (dispute assistant), spec 2 §2.7, §4, §5, §8: four steps.
 * 1 details (sales method, customer and transaction fields, the transaction
 * questions, product) and 2 the further field groups, each saved by Save &
 * Continue; 3 the documents, uploaded to the store and saved; 4 the Case
 * Summary, then the 'Submit Representment' confirmation, which copies the
 * answers to the chosen cases with the same card and submits the
 * representment (the docs service compiles the documents with the case
 * summary and moves the case on). The server checks every rule again and
 * names refused fields in data.fields, which are marked here.
 */
export default function CaseBuilderDialog({
  row,
  onClose,
  onSubmitted,
}: {
  row: Pick<CaseRow, 'id' | 'merchant_id' | 'mid_id'> &
    Partial<Pick<CaseRow, 'win_odds' | 'dispute_currency'>>;
  onClose: () => void;
  onSubmitted: (message: string) => void;
}) {
  const qc = useQueryClient();
  const [step, setStep] = useState(0);
  const page1 = useBuilderCase(row.id, 1);
  const page2 = useBuilderCase(row.id, 2);
  const docTypes = useDocTypes(row.id);
  const related = useRelatedCases(row.id);
  const products = useProducts(row.mid_id, '');
  const stack = useStackConfig();
  const save = useSaveBuilderPage(row.id);

  // What the user changed, over the saved answers (which fill the form as each page loads).
  const [detailEdits, setDetailEdits] = useState<Partial<DetailsDraft>>({});
  const [edits, setEdits] = useState<Values>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [staged, setStaged] = useState<StagedDoc[]>([]);
  const [stagedSaved, setStagedSaved] = useState(false);
  /** The previewed packet's warnings accepted with a note (issue 34), sent with the submission. */
  const [accepted, setAccepted] = useState<AcceptedWarnings | null>(null);
  const [docError, setDocError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const { SaveDraftButton } = useProcessorSlots();
  const [confirm, setConfirm] = useState<'submit' | 'close' | 'back' | null>(null);

  const current = page1.data;
  const details: DetailsDraft | null = useMemo(
    () => (current ? { ...detailsOf(current), ...detailEdits } : null),
    [current, detailEdits],
  );
  const values: Values = useMemo(
    () => ({ ...valuesOf(page1.data?.groups ?? []), ...valuesOf(page2.data?.groups ?? []), ...edits }),
    [page1.data, page2.data, edits],
  );
  const setDetails = (patch: Partial<DetailsDraft>) => setDetailEdits((d) => ({ ...d, ...patch }));
  const setValue = (id: number, v: string) => setEdits((e) => ({ ...e, [id]: v }));
  const groups = step === 0 ? (page1.data?.groups ?? []) : step === 1 ? (page2.data?.groups ?? []) : [];
  const missing = missingRequired(groups, values);
  const detailsValid =
    !!details &&
    !!details.sale_type &&
    !(details.is_shippable && details.is_service) &&
    (!!details.product_id || (!!details.new_product_name.trim() && !!details.category_id));
  const canContinue =
    !busy && (step === 0 ? detailsValid && !missing.length : step === 1 ? !missing.length : step === 2);
  const productName = useMemo(() => {
    const id = Number(details?.product_id) || current?.product_id;
    return products.data?.data.find((p) => p.id === id)?.name ?? details?.new_product_name ?? '';
  }, [products.data, details, current]);

  const failed = (e: unknown) => {
    const fields = e instanceof ApiError ? fieldErrorsOf(e.body) : null;
    if (fields) {
      setErrors(fields);
      setMessage(e instanceof ApiError ? e.message : M.failed);
    } else setMessage(M.failed);
  };

  async function savePage(page: 1 | 2 | 3) {
    const body: BuilderSaveBody =
      page === 1 && details
        ? {
            page,
            product_id: details.product_id ? Number(details.product_id) : null,
            category_id: details.product_id ? null : Number(details.category_id) || null,
            new_product_name: details.product_id ? null : details.new_product_name,
            new_product_description: details.product_id ? null : details.new_product_description || null,
            sale_type: Number(details.sale_type) || null,
            is_shippable: details.is_shippable,
            is_service: details.is_service,
            is_subscription: details.is_subscription,
            type_id: transactionType(details.is_shippable, details.is_service),
            fields: groups.flatMap((g) => g.fields).map((f) => ({ id: f.id, value: values[f.id] ?? '' })),
          }
        : {
            page,
            fields: groups.flatMap((g) => g.fields).map((f) => ({ id: f.id, value: values[f.id] ?? '' })),
          };
    const answer = await save.mutateAsync(body);
    if (page === 1 && details && !details.product_id && answer.product_id) {
      // The new product now exists: choose it, so that a second save does not create it again.
      setDetails({ product_id: String(answer.product_id) });
      await qc.invalidateQueries({ queryKey: builderProductsKey });
    }
    if (page === 1) await qc.invalidateQueries({ queryKey: getDocTypesQueryOptions(row.id).queryKey });
  }

  /** Step 3: every required type has a document; files go to the store (once), then the page is saved. */
  async function saveDocuments() {
    const problem = missingDocType(docTypes.data?.data ?? [], staged);
    if (problem) {
      setDocError(problem);
      return false;
    }
    const next: StagedDoc[] = [];
    for (const s of staged) {
      if (s.kind === 'file' && !s.s3Key) {
        const link = await getBuilderUploadLink(row.id, s.file.name, s.contentType);
        await postUploadForm(link, s.file);
        next.push({ ...s, s3Key: link.fields.key! });
      } else next.push(s);
    }
    setStaged(next);
    await savePage(3);
    setStagedSaved(true);
    return true;
  }

  async function continueStep() {
    setBusy(true);
    setMessage(null);
    setErrors({});
    try {
      if (step === 0) await savePage(1);
      if (step === 1) await savePage(2);
      if (step === 2 && !(await saveDocuments())) return;
      if (step === 0) await qc.fetchQuery(builderCaseQueryOptions(row.id, 2));
      setStep(step + 1);
    } catch (e) {
      failed(e);
    } finally {
      setBusy(false);
    }
  }

  async function submit(saveAsDraft = false) {
    setBusy(true);
    setMessage(null);
    try {
      if (chosen.length) await copyToCases(row.id, chosen);
      const answer = await submitBuilderUpload({
        case_id: row.id,
        ...builderPacketOf(staged),
        ...(accepted ? { accepted_warnings: accepted } : {}),
        ...(saveAsDraft ? { save_as_draft: true } : {}),
      });
      await Promise.all([qc.invalidateQueries({ queryKey: queryRoots.builder }), invalidateCaseWrite(qc)]);
      onSubmitted(answer.message);
      onClose();
    } catch (e) {
      setConfirm(null);
      setMessage(e instanceof ApiError && e.status < 500 ? e.message : M.failed);
    } finally {
      setBusy(false);
    }
  }

  function back() {
    if (step === 2 && staged.length && !stagedSaved) {
      setConfirm('back');
      return;
    }
    setStep(step - 1);
  }
  const requestClose = () => {
    if (busy) return;
    if (staged.length) setConfirm('close');
    else onClose();
  };

  const loadFailed = page1.isError || page2.isError;
  return (
    <>
      <DialogFrame
        title={`Case Builder (Case No: ${current?.case_no ?? row.id})`}
        subheader={
          <Stack gap="2" mt="1">
            {current && (
              <Stack gap="0" fontSize="sm" color="fg.muted" data-testid="builder-header">
                <Text>
                  Reason Code: {current.reason_code} - {current.reason_code_description}
                </Text>
                <Text>
                  Card: {current.cc_no ?? ''} · Dispute Amount:{' '}
                  {formatMoney(current.dispute_amt, current.dispute_currency)} · Due Date:{' '}
                  {dueDatePlusOne(current.date_due)}
                </Text>
                {current.last_updated && (
                  <Text data-testid="builder-last-updated">
                    Last Updated: {fullDateTime(current.last_updated.timestamp)} by{' '}
                    {current.last_updated.username ?? ''}
                  </Text>
                )}
              </Stack>
            )}
            <WinOddsPanel row={{ win_odds: row.win_odds, dispute_currency: row.dispute_currency ?? 'USD' }} />
            <Steps.Root step={step} count={STEPS.length} size="sm">
              <Steps.List>
                {STEPS.map((s, i) => (
                  <Steps.Item key={s} index={i} title={s}>
                    <Steps.Indicator />
                    <Steps.Title>{s}</Steps.Title>
                    <Steps.Separator />
                  </Steps.Item>
                ))}
              </Steps.List>
            </Steps.Root>
          </Stack>
        }
        testId="case-builder-dialog"
        onClose={requestClose}
        size="xl"
        scrollBehavior="inside"
        footer={
          <HStack justify="space-between" w="full">
            <Box>
              {step > 0 && (
                <Button variant="outline" onClick={back} disabled={busy}>
                  Back
                </Button>
              )}
            </Box>
            {step < 3 ? (
              <Button onClick={() => void continueStep()} disabled={!canContinue} loading={busy}>
                Save & Continue
              </Button>
            ) : (
              <HStack>
                {/* A case from a Stripe connection (issue 32): stage the evidence there, not submitted. */}
                {SaveDraftButton && (
                  <SaveDraftButton caseId={row.id} onSaveDraft={() => void submit(true)} loading={busy} />
                )}
                <Button onClick={() => setConfirm('submit')} disabled={busy}>
                  Submit
                </Button>
              </HStack>
            )}
          </HStack>
        }
      >
        {loadFailed && <Text color="fg.error">{M.failed}</Text>}
        {!loadFailed && (!current || !details) && <Spinner />}
        {message && (
          <Text color="fg.error" mb="3" data-testid="builder-error">
            {message}
          </Text>
        )}
        {current && details && step === 0 && (
          <Stack gap="5">
            <StepDetails midId={row.mid_id} draft={details} onChange={setDetails} errors={errors} />
            <BuilderGroups groups={current.groups} values={values} errors={errors} onChange={setValue} />
          </Stack>
        )}
        {step === 1 &&
          (page2.data ? (
            <BuilderGroups groups={page2.data.groups} values={values} errors={errors} onChange={setValue} />
          ) : (
            <Spinner />
          ))}
        {step === 2 && (
          <StepDocuments
            types={docTypes.data?.data ?? []}
            merchantId={row.merchant_id}
            staged={staged}
            onStaged={(update) => {
              setStaged(update);
              setStagedSaved(false);
            }}
            maxBytes={stack.data?.max_representment_upload_size}
            error={docError}
            onError={setDocError}
          />
        )}
        {step === 3 && current && (
          <StepSummary
            page1={{ ...current, sale_type: Number(details?.sale_type) || current.sale_type }}
            values={values}
            productName={productName}
            related={related.data?.data ?? []}
            documents={staged}
            docTypes={docTypes.data?.data ?? []}
            chosen={chosen}
            onChosen={setChosen}
            onEditNotes={() => setStep(0)}
          />
        )}
        {step === 3 && current && (
          <BuilderPacketPreview
            caseId={row.id}
            staged={staged}
            onStaged={setStaged}
            onAccepted={setAccepted}
          />
        )}
      </DialogFrame>
      {confirm === 'submit' && (
        <ConfirmDialog
          title={M.submitTitle}
          message={
            chosen.length
              ? `The representment of case ${row.id} will be submitted, and its answers copied to ${chosen.length} case(s).`
              : `The representment of case ${row.id} will be submitted.`
          }
          confirmLabel="Submit"
          busy={busy}
          onConfirm={() => void submit()}
          onClose={() => setConfirm(null)}
          testId="builder-submit-confirm"
        />
      )}
      {confirm === 'back' && (
        <ConfirmDialog
          title="Are you sure?"
          message="The uploaded files of this step have not been saved and will be discarded."
          confirmLabel="Discard"
          onConfirm={() => {
            setStaged([]);
            setConfirm(null);
            setStep(1);
          }}
          onClose={() => setConfirm(null)}
          testId="builder-back-confirm"
        />
      )}
      {confirm === 'close' && (
        <ConfirmDialog
          title="Are you sure?"
          message="The changes you made in this session will be lost."
          confirmLabel="Discard"
          onConfirm={onClose}
          onClose={() => setConfirm(null)}
          testId="builder-close-confirm"
        />
      )}
    </>
  );
}
