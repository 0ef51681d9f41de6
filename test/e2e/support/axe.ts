/**
 * axe-core's serious and critical findings on the page as it is, one line each (rule: elements), so that a
 * failing expectation names what to fix. `rules` limits the scan to those rules.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Of axe's rules, those whose outcome depends on colours: all a theme changes (theme.spec.ts). */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

export async function seriousViolations(page: Page, rules?: string[]): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  const scan = await (rules ? builder.withRules(rules) : builder).analyze();
  return scan.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
