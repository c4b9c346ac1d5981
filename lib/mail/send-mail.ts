import nodemailer from 'nodemailer';
import type { MailOutcome } from './mail-outcome';
import { logger } from '../observability/logger';

export type { MailOutcome };

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends one plain-text message through SMTP_URL (smtp://user:pass@host:587, or smtps:// for TLS from the start),
 * from MAIL_FROM or no-reply at APP_URL's host. A failure is reported, never thrown: the link is shown to copy either way.
 */
export async function sendMail(message: MailMessage): Promise<MailOutcome> {
  const url = process.env.SMTP_URL;
  if (!url) return 'off';
  try {
    const transport = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000 });
    const from = process.env.MAIL_FROM || `no-reply@${new URL(process.env.APP_URL ?? 'http://localhost').hostname}`;
    await transport.sendMail({ from, ...message });
    return 'sent';
  } catch (err) {
    logger.error({ err }, 'sending mail failed');
    return 'failed';
  }
}

/** Whether links are mailed, so pages can say beforehand that they must be passed on by hand. */
export const mailConfigured = (): boolean => Boolean(process.env.SMTP_URL);
