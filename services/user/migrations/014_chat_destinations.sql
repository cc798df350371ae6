-- Chat notifications (issue 35.4): a webhook endpoint may be a Slack or Microsoft Teams incoming
-- webhook instead of a signed endpoint. It is delivered by the same jobs, retries and address checks;
-- only the body differs (Slack blocks, a Teams Adaptive Card) and it carries no signature.
alter table users.webhook_endpoints
  add column if not exists kind text not null default 'signed' check (kind in ('signed', 'slack', 'teams'));
-- The daily deadline digest goes to the chat destinations its owner created.
create index if not exists webhook_endpoints_chat_owner on users.webhook_endpoints (tenant, created_by)
  where deleted_at is null and kind <> 'signed';
