import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { deriveKey } from '../../domain/signing.ts';
import type { PaymentProvider } from './port.ts';
import { SandboxProvider } from './sandbox.ts';
import { createYocoProvider } from './yoco.ts';

export interface Providers {
  /** Every provider this environment runs, by name (`latest_attempt.provider`, `/providers/{name}/webhook`). */
  all: ReadonlyMap<string, PaymentProvider>;
  /** Where new attempts go: Yoco when configured (always, in prd), else the sandbox. */
  primary: PaymentProvider;
  /** The sandbox, outside prd only: it delivers its own confirmations. */
  sandbox: SandboxProvider | undefined;
}

/**
 * The providers of this environment. `prd` is safe by construction: the sandbox is never
 * registered there (its notifications are 404, its attempts cannot be started), and config.ts
 * refuses to start `prd` without a real provider.
 */
export function createProviders(
  config: Config,
  db: Db,
  sandboxOptions: { callbackBase: () => string | undefined; onError: (message: string, err?: unknown) => void },
): Providers {
  const all = new Map<string, PaymentProvider>();
  const yoco = config.yoco && createYocoProvider({ secretKey: config.yoco.secretKey, webhookSecret: config.yoco.webhookSecret, apiUrl: config.yoco.apiUrl });
  if (yoco) all.set(yoco.name, yoco);
  let sandbox: SandboxProvider | undefined;
  if (config.serviceEnv !== 'prd') {
    sandbox = new SandboxProvider({
      db,
      key: deriveKey(config.serviceSecret, 'sandbox-provider-callback'),
      delayMs: config.sandboxConfirmDelayMs,
      ...sandboxOptions,
    });
    all.set(sandbox.name, sandbox);
  }
  const primary = yoco ?? sandbox;
  if (!primary) throw new Error('no payment provider: prd needs YOCO_SECRET_KEY and YOCO_WEBHOOK_SECRET');
  return { all, primary, sandbox };
}
