-- GET /api/v1/payouts/balance
\set n random(1, :merchants)
select * from "balances" where "merchant_id" = (select id from bench_merchants where n = :n);
