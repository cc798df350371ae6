-- Processor connectors (issue 32, design §14): a merchant's connection to its processor's account
-- (Stripe first), the events it received, and the disputes it owns. Secrets are sealed by the
-- service (AES-256-GCM with CONNECTOR_KEY) before they reach the database; only the API key's last
-- four characters are kept readable.
insert into cases.sources values (5, 'STR', 'Stripe') on conflict (id) do nothing;

create table cases.connections (
  -- Unguessable: it names the connection in its public webhook URL.
  id uuid primary key default gen_random_uuid(),
  tenant_id text not null references cases.tenants (id),
  merchant_id bigint not null references cases.merchants (id),
  processor text not null check (processor in ('stripe')),
  account_id text not null,
  account_name text,
  api_key_sealed text not null,
  api_key_last4 text not null,
  -- Set with the connection or afterwards: the endpoint's URL names the connection, so the merchant
  -- creates the endpoint in Stripe (and gets its signing secret) once the connection exists.
  webhook_secret_sealed text,
  -- The MIDs its disputes belong to; the first is where a dispute goes when its descriptor names none.
  mid_ids bigint[] not null check (cardinality(mid_ids) > 0),
  created_by bigint,
  created_at timestamptz not null default now(),
  backfill_job_id text,
  last_event_at timestamptz,
  unique (tenant_id, processor, account_id)
);
create index connections_tenant_merchant on cases.connections (tenant_id, merchant_id);

-- Every verified event, once: a replayed or resent event id changes nothing.
create table cases.connector_events (
  connection_id uuid not null references cases.connections (id) on delete cascade,
  event_id text not null,
  type text not null,
  dispute_id text,
  case_id bigint,
  outcome text not null,
  received_at timestamptz not null default now(),
  primary key (connection_id, event_id)
);

-- A case that came from a processor: its dispute, its stage and the outcome's money.
create table cases.connector_disputes (
  case_id bigint primary key references cases.cases (id),
  tenant_id text not null references cases.tenants (id),
  connection_id uuid references cases.connections (id) on delete set null,
  processor text not null,
  dispute_id text not null,
  stage text not null,
  raw_status text not null,
  is_charge_refundable boolean not null,
  -- The newest event applied: an older event arriving late does not undo a newer state.
  state_at timestamptz not null,
  recovered_amt numeric(12, 2),
  lost_amt numeric(12, 2),
  unique (tenant_id, processor, dispute_id)
);

-- What the docs service's transport job reads (design §13): the connector that owns a case, its
-- dispute and the sealed key (opened with CONNECTOR_KEY in the job, never sent anywhere else), the
-- dispute's stage and the case's due date, so evidence after the due date is refused before any call.
create or replace view cases_api.connector_cases as
  select d.tenant_id, d.case_id, d.processor, d.dispute_id, d.stage, d.connection_id, k.api_key_sealed, c.date_due
    from cases.connector_disputes d
    join cases.connections k on k.id = d.connection_id
    join cases.cases c on c.id = d.case_id;
