import type { Me, PaymentDetail } from './main.tsx';

/**
 * The screens for refunds and statements (CONTRACT §10) are in money-back.tsx, written against
 * `refundPayment`, `Payment.refunds` and `statement(from, to)`. Until those fields are in
 * schema.graphql, this file stands in for it: no statement screen, no refund panel. To turn them
 * on, make this file `export * from './money-back.tsx';` and drop money-back.tsx from the
 * exclusions in dashboard/tsconfig.json.
 */
export const extraRoutes: { path: string; label: string; Screen: (props: { me: Me }) => preact.JSX.Element }[] = [];

export function PaymentRefunds(_props: { payment: PaymentDetail; me: Me }) {
  return null;
}
