-- Win probability and expected value (issue 33 parts 2 and 3, design §15).

-- The evidence kinds attached to a case (bit k = builder document type k, contracts EVIDENCE_KINDS) and
-- the day the first was attached: features of the model. One row per case; the case service owns it,
-- the docs service records a submission through cases_api.record_case_evidence (below).
create table cases.case_evidence (
  tenant_id text not null,
  case_id bigint primary key,
  kinds_mask integer not null default 0,
  first_attached_on date not null,
  updated_at timestamptz not null default now()
);
create index case_evidence_tenant on cases.case_evidence (tenant_id, case_id);

-- A trained model per tenant: its coefficients and vocabulary (model), the reason codes' historical win
-- rates (baseline), the holdout evaluation, and which of the two the portal shows (source).
create table cases.win_odds_models (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  trained_at timestamptz not null default now(),
  source text not null check (source in ('model', 'baseline')),
  model jsonb not null,
  baseline jsonb not null,
  evaluation jsonb not null,
  n_cases integer not null,
  job_id text
);
create index win_odds_models_tenant on cases.win_odds_models (tenant_id, trained_at desc, id desc);

-- The score of each open case, refreshed after training and when the case (or its evidence) changed
-- since it was scored (updated_at > scored_at). The case lists read it in their own query by primary key.
create table cases.win_odds_scores (
  case_id bigint primary key,
  tenant_id text not null,
  model_id bigint not null,
  source text not null check (source in ('model', 'baseline')),
  probability numeric(6, 4) not null,
  expected_value numeric(12, 2) not null,
  recommendation text not null check (recommendation in ('Fight', 'Accept')),
  factors jsonb not null,
  scored_at timestamptz not null default now()
);
-- The bulk close's 'not worth fighting' criterion and the stale-score scan.
create index win_odds_scores_tenant_ev on cases.win_odds_scores (tenant_id, expected_value);

-- The docs service's write door (design §13): a builder submission or an upload names the kinds attached.
create or replace function cases_api.record_case_evidence(p_tenant text, p_case_id bigint, p_kinds integer[])
returns void language sql as $$
  insert into cases.case_evidence (tenant_id, case_id, kinds_mask, first_attached_on)
  select p_tenant, p_case_id, coalesce(bit_or(1 << k), 0), current_date from unnest(p_kinds) k
  on conflict (case_id) do update set kinds_mask = cases.case_evidence.kinds_mask | excluded.kinds_mask,
    updated_at = now()
  where cases.case_evidence.tenant_id = p_tenant
$$;

-- Bulk close (spec 2 §2.9) may keep to the cases not worth fighting: expected value below zero.
alter table cases.bulk_jobs add column not_worth_fighting boolean not null default false;
