import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { deriveKey } from '../../domain/signing.ts';
import type { Task } from '../../jobs/task.ts';
import type { PaymentProvider, ProviderSimulator } from './port.ts';
import { SandboxProvider } from './sandbox.ts';
import { createYocoProvider } from './yoco.ts';
import { createOzowProvider } from './ozow.ts';
import type { PaymentMethod } from '../../domain/payment-method.ts';

export interface Providers {
  /** Every provider this environment runs, by name (`latest_attempt.provider`, `/providers/{name}/webhook`). */
  all: ReadonlyMap<string, PaymentProvider>;
  /** Where new attempts go by default: the first of `methods`. */
  primary: PaymentProvider;
  /**
   * The provider of each way to pay this environment offers, in the page's order: `card` (Yoco,
   * or the sandbox when no real provider is configured outside prd), `instant_eft` (Ozow). With
   * Ozow alone configured, card is not offered (the sandbox still takes simulated declines).
   */
  methods: ReadonlyMap<PaymentMethod, PaymentProvider>;
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
  const ozow =
    config.ozow &&
    createOzowProvider({
      ...config.ozow,
      notifyUrl: `${config.publicBaseUrl}/providers/ozow/webhook`,
      // prd refuses Ozow's test mode as it refuses the sandbox.
      isTest: config.serviceEnv !== 'prd',
    });
  if (ozow) all.set(ozow.name, ozow);
  let sandbox: SandboxProvider | undefined;
  if (config.serviceEnv !== 'prd') {
    sandbox = new SandboxProvider({ db, key: deriveKey(config.serviceSecret, 'sandbox-provider-callback'), delayMs: config.sandboxConfirmDelayMs, ...context });
    all.set(sandbox.name, sandbox);
    simulators.set(sandbox.name, sandbox);
    tasks.push(sandbox.task);
  }
  const methods = new Map<PaymentMethod, PaymentProvider>();
  const card = yoco ?? (ozow ? undefined : sandbox);
  if (card) methods.set('card', card);
  if (ozow) methods.set('instant_eft', ozow);
  const primary = methods.values().next().value;
  if (!primary) throw new Error('no payment provider: prd needs Yoco (YOCO_SECRET_KEY, YOCO_WEBHOOK_SECRET) or Ozow (OZOW_SITE_CODE, OZOW_PRIVATE_KEY, OZOW_API_KEY)');
  return { all, primary, methods, simulators, tasks };
}
