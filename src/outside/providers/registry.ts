import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { deriveKey } from '../../domain/signing.ts';
import type { Task } from '../../jobs/task.ts';
import type { PaymentProvider, ProviderSimulator } from './port.ts';
import { SandboxProvider } from './sandbox.ts';
import { createYocoProvider } from './yoco.ts';

export interface Providers {
  /** Every provider this environment runs, by name (`latest_attempt.provider`, `/providers/{name}/webhook`). */
  all: ReadonlyMap<string, PaymentProvider>;
  /** Where new attempts go: Yoco when configured (always, in prd), else the sandbox. */
  primary: PaymentProvider;
  /** Providers that can play their customer's part (tst/dev only), by name. */
  simulators: ReadonlyMap<string, ProviderSimulator>;
  /** Background work the providers do on their side (the sandbox's confirmations), for the job runner. */
  tasks: readonly Task<any>[];
}

export interface ProviderContext {
  /** Where zarpay listens, for a provider that lives in the same process (the sandbox). */
  callbackBase: () => string;
  /** Tells this process's job runner that work falls due in `ms`. */
  dueIn: (ms: number) => void;
}

/**
 * The providers of this environment. `prd` is safe by construction: the sandbox is never
 * registered there (its notifications are 404, its attempts cannot be started, nothing can
 * simulate a customer), and config.ts refuses to start `prd` without a real provider.
 */
export function createProviders(config: Config, db: Db, context: ProviderContext): Providers {
  const all = new Map<string, PaymentProvider>();
  const simulators = new Map<string, ProviderSimulator>();
  const tasks: Task<any>[] = [];
  const yoco = config.yoco && createYocoProvider({ secretKey: config.yoco.secretKey, webhookSecret: config.yoco.webhookSecret, apiUrl: config.yoco.apiUrl });
  if (yoco) all.set(yoco.name, yoco);
  let sandbox: SandboxProvider | undefined;
  if (config.serviceEnv !== 'prd') {
    sandbox = new SandboxProvider({ db, key: deriveKey(config.serviceSecret, 'sandbox-provider-callback'), delayMs: config.sandboxConfirmDelayMs, ...context });
    all.set(sandbox.name, sandbox);
    simulators.set(sandbox.name, sandbox);
    tasks.push(sandbox.task);
  }
  const primary = yoco ?? sandbox;
  if (!primary) throw new Error('no payment provider: prd needs YOCO_SECRET_KEY and YOCO_WEBHOOK_SECRET');
  return { all, primary, simulators, tasks };
}
