import { Type, type Static } from '@sinclair/typebox';

/**
 * Win probability and expected value of open cases (issue 33 parts 2 and 3,
 * design §15). A model per tenant, trained on its own closed cases, scores
 * every open case; the portal shows the model's numbers only where the
 * model beat the reason code's historical win rate on a time-based holdout,
 * and that baseline's numbers otherwise (`source` says which).
 */

/** Evidence kinds a case can have attached: the builder's document types (builder.doc_types). */
export const EVIDENCE_KINDS: Readonly<Record<number, string>> = {
  1: 'Invoice / Receipt',
  2: 'Proof of Delivery',
  3: 'Service Agreement',
  4: 'Customer Communication',
  5: 'Terms and Conditions',
  6: 'AVS / CVV Verification',
  7: 'Refund Policy',
  9: 'Other',
};

export const WinOddsSource = Type.Union([Type.Literal('model'), Type.Literal('baseline')]);
export type WinOddsSource = Static<typeof WinOddsSource>;

export const WinOddsFactor = Type.Object({
  /** What it is, for a person: "Proof of Delivery attached", "Reason code 13.1". */
  label: Type.String(),
  /** Its share of the log-odds: positive raises the probability. */
  effect: Type.Number(),
});
export type WinOddsFactor = Static<typeof WinOddsFactor>;

/** The score of one open case, as the case rows and the builder show it. */
export const WinOddsScore = Type.Object({
  probability: Type.Number({ minimum: 0, maximum: 1 }),
  /** probability x amount - fees - handling cost, in the case currency. */
  expected_value: Type.Number(),
  recommendation: Type.Union([Type.Literal('Fight'), Type.Literal('Accept')]),
  source: WinOddsSource,
  /** The two or three largest contributions (the baseline's one: the reason code's win rate). */
  factors: Type.Array(WinOddsFactor),
  scored_at: Type.String(),
});
export type WinOddsScore = Static<typeof WinOddsScore>;

export const CalibrationDecile = Type.Object({
  decile: Type.Integer({ minimum: 1, maximum: 10 }),
  n: Type.Integer({ minimum: 0 }),
  predicted: Type.Number(),
  actual: Type.Number(),
});
export type CalibrationDecile = Static<typeof CalibrationDecile>;

/** The time-based holdout: trained on cases closed before `cutoff`, tested on those closed from it. */
export const WinOddsEvaluation = Type.Object({
  cutoff: Type.Union([Type.String(), Type.Null()]),
  n_train: Type.Integer({ minimum: 0 }),
  n_test: Type.Integer({ minimum: 0 }),
  brier_model: Type.Union([Type.Number(), Type.Null()]),
  brier_baseline: Type.Union([Type.Number(), Type.Null()]),
  deciles_model: Type.Array(CalibrationDecile),
  deciles_baseline: Type.Array(CalibrationDecile),
  /** Why the baseline is shown, when it is. */
  note: Type.String(),
});
export type WinOddsEvaluation = Static<typeof WinOddsEvaluation>;

export const WinOddsModelView = Type.Object({
  id: Type.Integer(),
  trained_at: Type.String(),
  source: WinOddsSource,
  n_cases: Type.Integer(),
  lambda: Type.Number(),
  features: Type.Integer(),
  evaluation: WinOddsEvaluation,
});
export type WinOddsModelView = Static<typeof WinOddsModelView>;

export const WinOddsJobView = Type.Object({
  id: Type.String(),
  state: Type.String(),
  progress: Type.Integer(),
  message: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});
export type WinOddsJobView = Static<typeof WinOddsJobView>;

/** `GET /cm/win-odds`: the tenant's current model, its evaluation and the latest training job. */
export const WinOddsStatus = Type.Object({
  model: Type.Union([WinOddsModelView, Type.Null()]),
  job: Type.Union([WinOddsJobView, Type.Null()]),
  open_scored: Type.Integer(),
  costs: Type.Object({ handling_cost: Type.Number(), fees_from: Type.String() }),
});
export type WinOddsStatus = Static<typeof WinOddsStatus>;

/** `POST /cm/win-odds/train`: the queued (or already queued) training job. */
export const WinOddsTrainAnswer = Type.Object({ job_id: Type.String(), created: Type.Boolean() });
export type WinOddsTrainAnswer = Static<typeof WinOddsTrainAnswer>;

/** Tenant file block `win_odds` (config/tenants/<id>.yaml): the costs of fighting a case. */
export const WinOddsTenantConfig = Type.Object(
  {
    /** Cost of preparing one representment (staff time), in the case currency. Default 25. */
    handling_cost: Type.Optional(Type.Number({ minimum: 0 })),
    /** Dispute fees of fighting, by cycle id ('1', '2', '9'), when the tenant file has no `fees` section. */
    fight_fees: Type.Optional(Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.Number({ minimum: 0 }))),
  },
  { additionalProperties: false },
);
export type WinOddsTenantConfig = Static<typeof WinOddsTenantConfig>;

export const WIN_ODDS_MESSAGES = {
  notAllowed: 'Only the provider staff may see or train the win odds model.',
  readOnly: 'Read-only users cannot train the model.',
  baselineShown: (brierModel: number, brierBaseline: number) =>
    `The model (Brier ${brierModel.toFixed(4)}) did not beat the reason code's historical win rate ` +
    `(Brier ${brierBaseline.toFixed(4)}) on the newest cases: the portal shows the historical win rate.`,
  modelShown: (brierModel: number, brierBaseline: number) =>
    `The model (Brier ${brierModel.toFixed(4)}) beat the reason code's historical win rate ` +
    `(Brier ${brierBaseline.toFixed(4)}) on the newest cases: the portal shows the model.`,
  tooFew: (n: number) =>
    `Only ${n} closed cases with a verdict: too few to test a model; the portal shows the historical win rate.`,
} as const;
