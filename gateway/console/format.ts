import { html, type Html } from '../pages/html.js';

/** An instant as people read it, in UTC (the server cannot know the reader's zone), with the exact value for machines. */
export function when(iso: string | null, never = 'Never'): Html {
  if (iso === null) return html`<span class="muted">${never}</span>`;
  const text = `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  return html`<time datetime="${iso}">${text}</time>`;
}

/** Integer minor units in the currency's own decimals, e.g. 125000 USD is "$1,250.00". */
export function money(amount: number | null, currency: string | null): string {
  if (amount === null) return '';
  if (currency === null) return String(amount);
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}
