-- Users grid (issue 16): sorting by username and by name within a tenant without a full sort
-- (the grid orders by these expressions, then id).
create index if not exists users_tenant_lower_username_id on users.users (tenant, lower(username), id);
create index if not exists users_tenant_lower_name_id on users.users (tenant, lower(fname || ' ' || lname), id);
create index if not exists users_tenant_id on users.users (tenant, id);
