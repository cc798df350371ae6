-- Chargebacks from non-unique customers (a card, BIN and last four, with more than one chargeback at a
-- merchant in the selection) read only the cases whose card has more than one chargeback at all: the
-- flag below, kept with a count per card, and a partial index of the flagged cases (a few percent).
alter table cases.cases add column repeat_card boolean not null default false;

create table cases.card_chargebacks (
  tenant_id text not null,
  merchant_id bigint not null,
  cc_bin text not null,
  cc_last_four text not null,
  n integer not null,
  primary key (tenant_id, merchant_id, cc_bin, cc_last_four)
);

-- Counts the signed case rows per card and flags the cases of every card whose count crossed 1.
create function cases.card_chargebacks_sql(src text) returns text language sql immutable as $fn$
  select format($q$
    with d as (
      select tenant_id, merchant_id, cc_bin, cc_last_four, sum(sign)::int as n from (%s) s
      where cc_bin is not null and cc_last_four is not null group by 1, 2, 3, 4 having sum(sign) <> 0
    ),
    up as (
      insert into cases.card_chargebacks as k (tenant_id, merchant_id, cc_bin, cc_last_four, n) select * from d
      on conflict (tenant_id, merchant_id, cc_bin, cc_last_four) do update set n = k.n + excluded.n
      returning k.tenant_id, k.merchant_id, k.cc_bin, k.cc_last_four, k.n
    )
    update cases.cases c set repeat_card = up.n > 1 from up
    where c.tenant_id = up.tenant_id and c.merchant_id = up.merchant_id and c.cc_last_four = up.cc_last_four
      and c.cc_bin = up.cc_bin and c.repeat_card <> (up.n > 1)
  $q$, src)
$fn$;

-- Statement triggers fire for every UPDATE, the flag's own included: an update that moves no card (the
-- flag's, a status change) returns before writing anything, so the flag's update ends the chain.
create function cases.card_chargebacks_apply() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    execute cases.card_chargebacks_sql('select 1 as sign, * from new_rows');
  elsif tg_op = 'DELETE' then
    execute cases.card_chargebacks_sql('select -1 as sign, * from old_rows');
  -- A count, not exists(): Postgres has no statistics of transition tables and plans an exists() as a
  -- nested loop over both (4,000,000 row pairs for a bulk job's 2,000-case batch, about 190 ms); the count
  -- is a hash join (about 2 ms).
  elsif (
    select count(*) from old_rows o join new_rows n on n.id = o.id
    where (o.tenant_id, o.merchant_id, o.cc_bin, o.cc_last_four) is distinct from (n.tenant_id, n.merchant_id, n.cc_bin, n.cc_last_four)
  ) > 0 then
    execute cases.card_chargebacks_sql(
      'select -1 as sign, o.* from old_rows o join new_rows n on n.id = o.id
         where (o.tenant_id, o.merchant_id, o.cc_bin, o.cc_last_four) is distinct from (n.tenant_id, n.merchant_id, n.cc_bin, n.cc_last_four)
       union all select 1 as sign, n.* from new_rows n join old_rows o on o.id = n.id
         where (o.tenant_id, o.merchant_id, o.cc_bin, o.cc_last_four) is distinct from (n.tenant_id, n.merchant_id, n.cc_bin, n.cc_last_four)');
  end if;
  return null;
end $$;

insert into cases.card_chargebacks (tenant_id, merchant_id, cc_bin, cc_last_four, n)
select tenant_id, merchant_id, cc_bin, cc_last_four, count(*) from cases.cases
where cc_bin is not null and cc_last_four is not null group by 1, 2, 3, 4;

update cases.cases c set repeat_card = true from cases.card_chargebacks k
where k.n > 1 and c.tenant_id = k.tenant_id and c.merchant_id = k.merchant_id and c.cc_bin = k.cc_bin
  and c.cc_last_four = k.cc_last_four;

create trigger card_chargebacks_insert after insert on cases.cases
  referencing new table as new_rows for each statement execute function cases.card_chargebacks_apply();
create trigger card_chargebacks_update after update on cases.cases
  referencing old table as old_rows new table as new_rows for each statement execute function cases.card_chargebacks_apply();
create trigger card_chargebacks_delete after delete on cases.cases
  referencing old table as old_rows for each statement execute function cases.card_chargebacks_apply();

create index cases_repeat_post on cases.cases (tenant_id, date_post) where repeat_card;
create index cases_repeat_trans on cases.cases (tenant_id, date_trans) where repeat_card;
