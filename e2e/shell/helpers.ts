import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import { createE2EAccount } from '../support/accounts.ts';

export { TEST_PASSWORD } from '../support/accounts.ts';

/** A realm with a writer, a read-only user and one item that has everything. */
export const fullAccount = () =>
  createE2EAccount({
    users: { ana: 'all=write', luis: 'all=read' },
    items: [{ reference: 'tienda.es', domain: true, service: 'normal', mail: true }],
  });

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

/** Nothing wider than the viewport (spec: usable on a phone at 360 px). */
export async function horizontalOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
