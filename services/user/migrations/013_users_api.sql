-- What other services may read of the user data (design §13, issue 30.1): the `users_api` schema.
-- The mailed exports (@portal/exports) of the case service's jobs mail the link to the user who asked,
-- read when the mail is queued so that a changed address is used: only the columns that mail needs.
-- Other services read these views, never a `users.*` table (tests/static/schema-ownership.test.ts).
create schema if not exists users_api;

create or replace view users_api.mail_recipients as
  select tenant as tenant_id, id, email, fname, username from users.users;
