-- GET /api/v1/payments/{id}: the payment, then its latest attempt (two round trips, as in zarpay).
\set n random(1, :payments)
select * from "payments" where "id" = (select id from bench_payments where n = :n);
select "status", "provider", "provider_ref", "created_at" from "payment_attempts" where "payment_id" = (select id from bench_payments where n = :n) order by "seq" desc limit 1;
