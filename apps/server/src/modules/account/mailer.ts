import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Config } from '../../config/config.ts';

export interface Mail {
  subject: string;
  text: string;
  /** The sender's own address: answers go to them, while From stays the provider's (SPF, DMARC). */
  replyTo: string;
  /** The recipient; the provider's own address when absent (contact forms). */
  to?: string;
}
export type Mailer = (mail: Mail) => Promise<void>;

/**
 * nodemailer is loaded with the first message: loaded at start it adds to every idle server's
 * memory (decision 024), and most processes send mail rarely.
 */
function transportOf(options: string | { streamTransport: true; buffer: true; newline: 'unix' }) {
  let transport: Promise<Transporter> | null = null;
  return () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options));
    return transport;
  };
}

/** SMTP when configured; otherwise each message is written as an .eml file in <dataDir>/outbox/. */
export function createMailer(config: Config): Mailer {
  const to = config.company.email;
  const from = { name: config.company.name, address: config.company.email };
  if (config.smtp.url) {
    const transport = transportOf(config.smtp.url);
    return async (mail) => {
      await (await transport()).sendMail({ from, ...mail, to: mail.to ?? to });
    };
  }
  const transport = transportOf({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = path.join(config.dataDir, 'outbox');
  return async (mail) => {
    const info = await (await transport()).sendMail({ from, ...mail, to: mail.to ?? to });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const name = `${Date.now()}-${randomBytes(4).toString('hex')}.eml`;
    // Messages hold personal data: readable by the panel's own user only.
    await writeFile(path.join(dir, name), info.message as Buffer, { mode: 0o600 });
  };
}
