-- The rollup triggers with static SQL (issue 31). Each trigger built its grouped upsert as text (the `*_sql`
-- generators) and ran it with EXECUTE, so Postgres planned it afresh on every write: about 8 ms of a 10 ms
-- status change of one case went to planning the report_daily upsert and its month followers. A static
-- statement of a PL/pgSQL function is planned once per connection and trigger and then reused.
--
-- The generators stay the one source of the SQL: compile_rollup_triggers() writes their statements into the
-- trigger functions' bodies. A migration that changes a generator ends with `select cases.compile_rollup_triggers()`.
--
-- The cached plans serve statements of up to 32 rows, the writes of people. A plan is made for the rows of its
-- first call: for one row, nested loops, which are quadratic where an UPDATE joins its old and new rows (a bulk
-- status change of 3,000 cases took 19.6 s instead of 4.1 s in a trial) and slow for a seed's or an import's
-- thousands of rows. Larger statements run the same SQL with EXECUTE, planned for their size, as before.

-- The statements as EXECUTE of their text: planned afresh on every call.
create function cases.executed(statements text[]) returns text language sql immutable as $$
  select string_agg(format('execute %L', s), '; ') from unnest(statements) s
$$;

create function cases.compile_rollup_trigger(name text, ins text[], upd text[], del text[])
returns void language plpgsql as $$
begin
  execute format('create or replace function cases.%I() returns trigger language plpgsql as %L', name, format($b$
declare
  n bigint;
begin
  if tg_op = 'DELETE' then
    n := (select count(*) from old_rows);
  else
    n := (select count(*) from new_rows);
  end if;
  if n = 0 then
    -- A statement of no rows: the repeat-card rollup's own update of cases.cases ends here.
    null;
  elsif n <= 32 then
    if tg_op = 'INSERT' then
      %s;
    elsif tg_op = 'DELETE' then
      %s;
    else
      %s;
    end if;
  elsif tg_op = 'INSERT' then
    %s;
  elsif tg_op = 'DELETE' then
    %s;
  else
    %s;
  end if;
  return null;
end $b$,
    array_to_string(ins, '; '), array_to_string(del, '; '), array_to_string(upd, '; '),
    cases.executed(ins), cases.executed(del), cases.executed(upd)));
end $$;

-- The old and new rows of the cases an UPDATE changed in `changed` (a distinctness test of o. and n. columns).
create function cases.changed_rows(changed text) returns text language sql immutable as $$
  select format('select -1 as sign, o.* from old_rows o join new_rows n on n.id = o.id where %1$s
    union all select 1 as sign, n.* from new_rows n join old_rows o on o.id = n.id where %1$s', changed)
$$;

create function cases.compile_rollup_triggers() returns void language plpgsql as $$
declare
  ins constant text := 'select 1 as sign, * from new_rows';
  del constant text := 'select -1 as sign, * from old_rows';
  old_and_new constant text := 'select -1 as sign, * from old_rows union all select 1 as sign, * from new_rows';
  -- The columns each rollup reads: an update that changes none of them (flags, assignment, comments) costs nothing.
  report_cases constant text := cases.changed_rows($c$(o.tenant_id, o.merchant_id, o.mid_id, o.date_post,
    o.date_trans, o.dispute_currency_id, o.processor_id, o.card_type_id, o.reason_code_id, o.cc_bin, o.dispute_amt,
    o.trans_amt, o.cycle_id, o.status_id, o.status_group_id, o.verdict_id, o.money_rate, o.rep_recovered, o.rep_lost,
    o.rep_fees, o.rep_disputed) is distinct from (n.tenant_id, n.merchant_id, n.mid_id, n.date_post, n.date_trans,
    n.dispute_currency_id, n.processor_id, n.card_type_id, n.reason_code_id, n.cc_bin, n.dispute_amt, n.trans_amt,
    n.cycle_id, n.status_id, n.status_group_id, n.verdict_id, n.money_rate, n.rep_recovered, n.rep_lost, n.rep_fees,
    n.rep_disputed)$c$);
  mid_cases constant text := cases.changed_rows($c$(o.tenant_id, o.merchant_id, o.mid_id, o.date_post, o.is_fraud,
    o.status_id in (3, 6, 7, 8, 9, 10) or o.verdict_id = 4) is distinct from (n.tenant_id, n.merchant_id, n.mid_id,
    n.date_post, n.is_fraud, n.status_id in (3, 6, 7, 8, 9, 10) or n.verdict_id = 4)$c$);
  card_cases constant text := cases.changed_rows($c$(o.tenant_id, o.merchant_id, o.cc_bin, o.cc_last_four)
    is distinct from (n.tenant_id, n.merchant_id, n.cc_bin, n.cc_last_four)$c$);
  alert_rows constant text := cases.changed_rows($c$(o.tenant_id, o.merchant_id, o.descriptor_id, o.source_id,
    o.currency_id, o.alert_date) is distinct from (n.tenant_id, n.merchant_id, n.descriptor_id, n.source_id,
    n.currency_id, n.alert_date)$c$);
begin
  perform cases.compile_rollup_trigger('report_daily_apply', array[cases.report_daily_sql(ins)],
    array[cases.report_daily_sql(report_cases)], array[cases.report_daily_sql(del)]);
  perform cases.compile_rollup_trigger('report_monthly_follow',
    array[cases.report_monthly_sql(ins), cases.report_monthly_key_sql(ins)],
    array[cases.report_monthly_sql(old_and_new), cases.report_monthly_key_sql(old_and_new)],
    array[cases.report_monthly_sql(del), cases.report_monthly_key_sql(del)]);
  perform cases.compile_rollup_trigger('mid_activity_apply',
    array[cases.mid_activity_sql(ins, 'day'), cases.mid_activity_sql(ins, 'month')],
    array[cases.mid_activity_sql(mid_cases, 'day'), cases.mid_activity_sql(mid_cases, 'month')],
    array[cases.mid_activity_sql(del, 'day'), cases.mid_activity_sql(del, 'month')]);
  perform cases.compile_rollup_trigger('card_chargebacks_apply', array[cases.card_chargebacks_sql(ins)],
    array[cases.card_chargebacks_sql(card_cases)], array[cases.card_chargebacks_sql(del)]);
  perform cases.compile_rollup_trigger('alert_monthly_apply', array[cases.alert_monthly_sql(ins)],
    array[cases.alert_monthly_sql(alert_rows)], array[cases.alert_monthly_sql(del)]);
  perform cases.compile_rollup_trigger('transactions_monthly_apply', array[cases.transactions_monthly_sql(ins)],
    array[cases.transactions_monthly_sql(old_and_new)], array[cases.transactions_monthly_sql(del)]);
end $$;

select cases.compile_rollup_triggers();
