-- The Merchant Settings MIDs grid at 10,000 merchants and 100,000 MIDs (issue 15 bench): every MID row
-- looks up its descriptor by mid_id alone, and a merchant's page of MIDs in MID order reads one index range.
create index descriptors_mid on cases.descriptors (mid_id, id);
create index mids_tenant_merchant_mid on cases.mids (tenant_id, merchant_id, mid, id);
