-- GET /api/v1/payouts/{id}: zarpay's statement, the id and merchant picked from bench_payouts.
\set n random(1, :payouts)
select * from "payouts" where "id" = (select id from bench_payouts where n = :n) and "merchant_id" = (select merchant_id from bench_payouts where n = :n);
