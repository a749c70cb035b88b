import { demoProvider } from './demo.ts';
import { iyzicoProvider } from './iyzico.ts';
import type { PaymentProvider } from './provider.ts';
import { stripeProvider } from './stripe.ts';

/**
 * Every payment provider the shop can use, in the order they are offered when the seller has not
 * chosen one for a currency. Adding a provider: its file in this folder, a line here, its
 * environment variables in env.ts (see CONTRIBUTING.md).
 */
export const PAYMENT_PROVIDERS: readonly PaymentProvider[] = [stripeProvider, iyzicoProvider, demoProvider];

/** The providers whose keys this server holds (the demo only where no real one is). */
export function configuredProviders(): PaymentProvider[] {
  const real = PAYMENT_PROVIDERS.filter((provider) => !provider.developerTool && provider.configured());
  return real.length > 0 ? real : PAYMENT_PROVIDERS.filter((provider) => provider.developerTool && provider.configured());
}

/** A configured provider by its name (a webhook's or callback's path). */
export function configuredProvider(name: string | undefined): PaymentProvider | undefined {
  return configuredProviders().find((provider) => provider.name === name);
}

/**
 * The provider a sale was made with, for what comes after it (refunds); undefined when it is not
 * configured here. A demo sale moved no money: it can always be refunded.
 */
export function providerOfSale(name: string): PaymentProvider | undefined {
  return PAYMENT_PROVIDERS.find((provider) => provider.name === name && (provider.developerTool || provider.configured()));
}

/**
 * The provider that takes a currency: the seller's choice (Admin → Settings → Payments) when that
 * provider is configured, else the first configured one. Undefined: nothing here can take it.
 */
export function providerForCurrency(
  currency: string,
  choices: Partial<Record<string, string>> = {},
): PaymentProvider | undefined {
  const configured = configuredProviders();
  return configured.find((provider) => provider.name === choices[currency]) ?? configured[0];
}

/** Whether a paid course can be bought here at all. */
export function paymentsAvailable(): boolean {
  return configuredProviders().length > 0;
}

/** The demo provider is a developer tool: one rule decides for all of them (dev-tools.ts). */
export function demoPaymentsEnabled(): boolean {
  return configuredProviders().includes(demoProvider);
}
