-- GET /api/v1/payouts/{id}: zarpay's statement, the id and merchant picked from bench_payouts.
\set n random(1, :payouts)
select "id", "merchant_id", "amount_cents", "fee_cents", "gross_amount_cents", "currency", "status", "payout_method", "merchant_reference", "description", "metadata", "external_transfer_id", "failure_reason", "rejection_reason", "created_at", "updated_at", "completed_at" from "payouts" where "id" = (select id from bench_payouts where n = :n) and "merchant_id" = (select merchant_id from bench_payouts where n = :n);
