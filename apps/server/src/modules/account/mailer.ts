import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
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

/** SMTP when configured; otherwise each message is written as an .eml file in <dataDir>/outbox/. */
export function createMailer(config: Config): Mailer {
  const to = config.company.email;
  const from = { name: config.company.name, address: config.company.email };
  if (config.smtp.url) {
    const transport = nodemailer.createTransport(config.smtp.url);
    return async (mail) => {
      await transport.sendMail({ from, ...mail, to: mail.to ?? to });
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = path.join(config.dataDir, 'outbox');
  return async (mail) => {
    const info = await transport.sendMail({ from, ...mail, to: mail.to ?? to });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const name = `${Date.now()}-${randomBytes(4).toString('hex')}.eml`;
    // Messages hold personal data: readable by the panel's own user only.
    await writeFile(path.join(dir, name), info.message as Buffer, { mode: 0o600 });
  };
}
