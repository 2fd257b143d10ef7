-- POST /api/v1/payouts: PayoutService.create's transaction, statement for statement.
-- -D merchants=1 puts every client on merchant 1, the contended balance row.
\set n random(1, :merchants)
\set amount random(100, 1000)
begin;
select m.id as mid, m.payout_fee_cents as fee, gen_random_uuid() as pid, gen_random_uuid() as tid from "merchants" m where m.id = (select id from bench_merchants where n = :n) \gset
\set gross :amount + :fee
\set neg -1 * :gross
update "balances" set "balance_cents" = balance_cents + 0, "reserved_cents" = reserved_cents + :gross, "gross_cents" = gross_cents + 0, "fees_cents" = fees_cents + 0, "withdrawals_cents" = withdrawals_cents + 0, "updated_at" = now() where "merchant_id" = :mid and balance_cents - reserved_cents >= :gross returning *;
insert into "ledger_transactions" ("id", "merchant_id", "kind", "payout_id", "payment_id", "memo") values (:tid, :mid, 'payout_reserve', :pid, null, null);
insert into "ledger_entries" ("transaction_id", "merchant_id", "account", "amount_cents") values (:tid, :mid, 'merchant_available', :neg), (:tid, :mid, 'merchant_reserved', :gross);
insert into "payouts" ("id", "merchant_id", "amount_cents", "fee_cents", "gross_amount_cents", "currency", "status", "payout_method", "payment_details", "merchant_reference", "description", "metadata", "request_hash") values (:pid, :mid, :amount, :fee, :gross, 'ZAR', 'pending', 'eft', '{"account_number":"62012345678","branch_code":"250655","account_holder":"Thandi Nkosi","bank_name":"FNB"}', null, null, null, 'pgbench') returning *;
insert into "events" ("id", "merchant_id", "type", "payout_id", "payment_id", "data", "webhook_url") values (gen_random_uuid(), :mid, 'payout.created', :pid, null, '{"id":"00000000-0000-0000-0000-000000000000","merchant_id":"00000000-0000-0000-0000-000000000000","amount_cents":500,"fee_cents":0,"gross_amount_cents":500,"currency":"ZAR","status":"pending","payout_method":"eft","created_at":"2026-11-22T00:00:00.000Z","updated_at":"2026-11-22T00:00:00.000Z"}', null) returning "id", "seq", "created_at";
commit;
