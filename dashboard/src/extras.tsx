// The refund and statement screens (CONTRACT §10): money-back.tsx.
export * from './money-back.tsx';
