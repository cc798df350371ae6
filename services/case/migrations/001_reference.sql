-- Reference data shared by every tenant (lookups of spec 1 §3.3, spec 2 §3).
-- Tenant-owned tables live in later migrations and all carry tenant_id.
create table cases.tenants (
  id text primary key,
  name text not null,
  created_at timestamptz not null default now()
);

create table cases.countries (id integer primary key, code text not null, name text not null, number_code text not null);
create table cases.processors (id integer primary key, name text not null, alias text not null);
create table cases.card_types (id integer primary key, name text not null, alias text not null);
create table cases.reason_code_categories (id integer primary key, name text not null);
create table cases.reason_codes (
  id integer primary key,
  code text not null,
  card_type_id integer not null references cases.card_types (id),
  category_id integer not null references cases.reason_code_categories (id),
  is_fraud boolean not null,
  description text not null
);
create table cases.cycles (id integer primary key, name text not null, alias text not null);
create table cases.currencies (id integer primary key, currency text not null, code text not null, iso text not null);
create table cases.status_groups (id integer primary key, name text not null, alias text not null);
create table cases.statuses (
  id integer primary key,
  name text not null,
  status_group_id integer not null references cases.status_groups (id)
);
create table cases.verdicts (id integer primary key, name text not null);
create table cases.service_levels (id integer primary key, name text not null);
create table cases.sources (id integer primary key, code text not null, name text not null);
create table cases.deflectors (id integer primary key, name text not null, alias text not null);
create table cases.deflector_statuses (id integer primary key, name text not null);
create table cases.merchant_statuses (id integer primary key, name text not null);

insert into cases.countries values
  (1, 'US', 'United States', '840'), (2, 'CA', 'Canada', '124'), (3, 'GB', 'United Kingdom', '826'),
  (4, 'DE', 'Germany', '276'), (5, 'FR', 'France', '250'), (6, 'AU', 'Australia', '036'),
  (7, 'NL', 'Netherlands', '528'), (8, 'IE', 'Ireland', '372'), (9, 'MX', 'Mexico', '484'), (10, 'ES', 'Spain', '724');
insert into cases.processors values
  (1, 'First Data', 'first-data'), (2, 'TSYS', 'tsys'), (3, 'Worldpay', 'worldpay'), (4, 'Chase Paymentech', 'paymentech'),
  (5, 'Elavon', 'elavon'), (6, 'Global Payments', 'global-payments'), (7, 'Adyen', 'adyen'), (8, 'Stripe', 'stripe');
insert into cases.card_types values
  (1, 'Visa', 'visa'), (2, 'MasterCard', 'mastercard'), (3, 'American Express', 'amex'), (4, 'Discover', 'discover');
insert into cases.reason_code_categories values
  (1, 'Fraud'), (2, 'Authorization'), (3, 'Processing Errors'), (4, 'Consumer Disputes');
insert into cases.reason_codes values
  -- Visa
  (101, '10.1', 1, 1, true, 'EMV Liability Shift Counterfeit Fraud'),
  (102, '10.2', 1, 1, true, 'EMV Liability Shift Non-Counterfeit Fraud'),
  (103, '10.3', 1, 1, true, 'Other Fraud - Card-Present Environment'),
  (104, '10.4', 1, 1, true, 'Other Fraud - Card-Absent Environment'),
  (105, '10.5', 1, 1, true, 'Visa Fraud Monitoring Program'),
  (111, '11.1', 1, 2, false, 'Card Recovery Bulletin'),
  (112, '11.2', 1, 2, false, 'Declined Authorization'),
  (113, '11.3', 1, 2, false, 'No Authorization'),
  (121, '12.1', 1, 3, false, 'Late Presentment'),
  (122, '12.2', 1, 3, false, 'Incorrect Transaction Code'),
  (123, '12.3', 1, 3, false, 'Incorrect Currency'),
  (124, '12.4', 1, 3, false, 'Incorrect Account Number'),
  (125, '12.5', 1, 3, false, 'Incorrect Amount'),
  (126, '12.6', 1, 3, false, 'Duplicate Processing/Paid by Other Means'),
  (131, '13.1', 1, 4, false, 'Merchandise/Services Not Received'),
  (132, '13.2', 1, 4, false, 'Cancelled Recurring Transaction'),
  (133, '13.3', 1, 4, false, 'Not as Described or Defective Merchandise/Services'),
  (135, '13.5', 1, 4, false, 'Misrepresentation'),
  (136, '13.6', 1, 4, false, 'Credit Not Processed'),
  (137, '13.7', 1, 4, false, 'Cancelled Merchandise/Services'),
  -- Mastercard
  (201, '4837', 2, 1, true, 'No Cardholder Authorization'),
  (202, '4840', 2, 1, true, 'Fraudulent Processing of Transactions'),
  (203, '4849', 2, 1, true, 'Questionable Merchant Activity'),
  (204, '4863', 2, 1, true, 'Cardholder Does Not Recognize - Potential Fraud'),
  (205, '4870', 2, 1, true, 'Chip Liability Shift'),
  (206, '4871', 2, 1, true, 'Chip/PIN Liability Shift'),
  (211, '4808', 2, 2, false, 'Authorization-Related Chargeback'),
  (221, '4834', 2, 3, false, 'Point-of-Interaction Error'),
  (222, '4842', 2, 3, false, 'Late Presentment'),
  (231, '4841', 2, 4, false, 'Cancelled Recurring or Digital Goods Transactions'),
  (232, '4853', 2, 4, false, 'Cardholder Dispute'),
  (233, '4855', 2, 4, false, 'Goods or Services Not Provided'),
  (234, '4859', 2, 4, false, 'Addendum, No-show, or ATM Dispute'),
  (235, '4860', 2, 4, false, 'Credit Not Processed'),
  -- American Express
  (301, 'F10', 3, 1, true, 'Missing Imprint'),
  (302, 'F14', 3, 1, true, 'Missing Signature'),
  (303, 'F24', 3, 1, true, 'No Card Member Authorization'),
  (304, 'F29', 3, 1, true, 'Card Not Present'),
  (305, 'F30', 3, 1, true, 'EMV Counterfeit'),
  (311, 'A01', 3, 2, false, 'Charge Amount Exceeds Authorization Amount'),
  (312, 'A08', 3, 2, false, 'Authorization Approval Expired'),
  (321, 'P01', 3, 3, false, 'Unassigned Card Number'),
  (322, 'P03', 3, 3, false, 'Credit Processed as Charge'),
  (323, 'P08', 3, 3, false, 'Duplicate Charge'),
  (331, 'C02', 3, 4, false, 'Credit Not Processed'),
  (332, 'C04', 3, 4, false, 'Goods/Services Returned or Refused'),
  (333, 'C08', 3, 4, false, 'Goods/Services Not Received or Only Partially Received'),
  (334, 'C28', 3, 4, false, 'Cancelled Recurring Billing'),
  (335, 'C31', 3, 4, false, 'Goods/Services Not as Described'),
  -- Discover
  (401, 'UA01', 4, 1, true, 'Fraud - Card Present Transaction'),
  (402, 'UA02', 4, 1, true, 'Fraud - Card Not Present Transaction'),
  (403, 'UA05', 4, 1, true, 'Fraud - Chip Counterfeit Transaction'),
  (404, 'UA06', 4, 1, true, 'Fraud - Chip and PIN Transaction'),
  (411, 'AT', 4, 2, false, 'Authorization Noncompliance'),
  (421, 'DP', 4, 3, false, 'Duplicate Processing'),
  (422, 'LP', 4, 3, false, 'Late Presentation'),
  (431, 'AA', 4, 4, false, 'Does Not Recognize'),
  (432, 'CD', 4, 4, false, 'Credit/Debit Posted Incorrectly'),
  (433, 'NF', 4, 4, false, 'Non-Receipt of Cash or Load Transaction Value'),
  (434, 'RG', 4, 4, false, 'Non-Receipt of Goods, Services or Cash'),
  (435, 'RM', 4, 4, false, 'Cardholder Disputes Quality of Goods or Services');
insert into cases.cycles values (1, 'First Chargeback', 'primary'), (2, 'Second Chargeback', 'secondary'), (9, 'Retrieval Request', 'rfi');
insert into cases.currencies values
  (1, 'US Dollar', 'USD', '840'), (2, 'Euro', 'EUR', '978'), (3, 'British Pound', 'GBP', '826'),
  (4, 'Canadian Dollar', 'CAD', '124'), (5, 'Australian Dollar', 'AUD', '036'), (6, 'Mexican Peso', 'MXN', '484');
-- Status groups 1 and 2 are the open ones (New / expiring); 1 is New (spec 1 §3.3).
insert into cases.status_groups values
  (1, 'New', 'new'), (2, 'In Progress', 'in_progress'), (3, 'Completed', 'completed'), (4, 'Expired', 'expired'),
  (5, 'Do Not Represent', 'dnr');
insert into cases.statuses values
  (1, 'New', 1), (2, 'Working', 2), (3, 'DocUploaded', 2), (4, 'DoNotRepresent', 5), (5, 'Expired', 4),
  (6, 'DocCompiling', 2), (7, 'DocCompiled', 2), (8, 'TransportReady', 2), (9, 'TransportProcessing', 2),
  (10, 'TransportCompleted', 3), (16, 'UploadPreparing', 2);
insert into cases.verdicts values
  (1, 'Will Not Represent'), (2, 'Do Not Represent'), (3, 'Verdict Pending'), (4, 'Win'), (5, 'Loss'), (6, 'Pending');
insert into cases.service_levels values (1, 'Basic Service'), (2, 'Self Service'), (3, 'Full Service'), (5, 'Pro Service');
insert into cases.sources values (1, 'ETH', 'Ethoca'), (2, 'VRF', 'Verifi CDRN'), (3, 'RDR', 'Visa RDR'), (4, 'ACQ', 'Acquirer Feed');
insert into cases.deflectors values (1, 'Ethoca Alerts', 'ethoca'), (2, 'Verifi CDRN', 'cdrn'), (3, 'Visa RDR', 'rdr');
insert into cases.deflector_statuses values (1, 'Inactive'), (2, 'Pending Activation'), (3, 'Active');
insert into cases.merchant_statuses values (1, 'Active'), (2, 'Inactive');
