/** How a customer gets a payment's confirmation: by e-mail (SMTP_URL) and/or by SMS (SMS_URL). */
export const CHANNELS = ['email', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];
