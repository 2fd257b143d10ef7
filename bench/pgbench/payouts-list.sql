-- GET /api/v1/payouts?limit=50: the page and the total (zarpay sends both at once on two connections).
\set n random(1, :merchants)
select * from "payouts" where "merchant_id" = (select id from bench_merchants where n = :n) order by "seq" desc limit 50 offset 0;
select count(*) as "n" from "payouts" where "merchant_id" = (select id from bench_merchants where n = :n);
