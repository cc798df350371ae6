-- One name for a card network everywhere (issue 29.3): the reference data said 'MasterCard' (shown on /reports,
-- the case filters and grids) while the dashboard asks for 'Mastercard', the brand's own spelling.
update cases.card_types set name = 'Mastercard' where id = 2 and name = 'MasterCard';
