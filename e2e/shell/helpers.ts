import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import { createE2EAccount, unique } from '../support/accounts.ts';

export { TEST_PASSWORD } from '../support/accounts.ts';

/** A realm with a writer, a read-only user and one item that has everything (`reference`, a name of its own). */
export async function fullAccount() {
  const reference = unique('tienda.es');
  const account = await createE2EAccount({
    users: { ana: 'all=write', luis: 'all=read' },
    items: [{ reference, domain: true, service: 'normal', mail: true }],
  });
  return Object.assign(account, { reference });
}

/** Fills the sign-in form and waits until the captcha's proof of work is solved in the browser. */
export async function fillSignIn(page: Page, realm: string, username: string, password: string) {
  await page.getByLabel(/Nombre de dominio|Domain name|Nom de domini/).fill(realm);
  await page.getByLabel(/^(Usuario|Username|Usuari)/).fill(username);
  await page.getByLabel(/^(Contraseña|Password|Contrasenya)/).fill(password);
  const button = page.getByRole('button', { name: /^(Entrar|Log in|Entra)$/ });
  await expect(button).toBeEnabled({ timeout: 20_000 });
  return button;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

/** axe-core in the page; answers the serious and critical violations only. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugger protocol: the panel's CSP rightly refuses an injected <script>.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Nothing wider than the viewport (the panel is usable on a phone 360 px wide). */
export async function horizontalOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** WCAG 2.0 and 2.1, levels A and AA: what the panel promises (axe-core's tags for them). */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe-core in the page, limited to WCAG 2.1 AA; answers every violation, whatever its impact. */
export async function wcagViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } })
      .axe;
    return (await axe.run(document, { runOnly: { type: 'tag', values: tags } })).violations;
  }, WCAG_21_AA);
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
