import { html, type Html } from '../pages/html.js';
import { minorUnitDigits } from '../../shared/contracts/iso-4217.js';

/** Where times are shown: the workspace's time zone (a ConsoleSession is one). */
export interface ShownIn {
  timeZone: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' });
    } catch {
      // A zone this runtime does not know (stored by a newer one): UTC, said as such, rather than a 500.
      return formatIn('UTC');
    }
    formats.set(timeZone, format);
  }
  return format;
}

/**
 * An instant as people read it, in the workspace's time zone (the one its day filters are read in,
 * so a day shown is the day a filter finds), with the zone's name and the exact UTC value for machines.
 */
export function when(iso: string | null, shownIn: ShownIn, never = 'Never'): Html {
  if (iso === null) return html`<span class="muted">${never}</span>`;
  const parts = formatIn(shownIn.timeZone).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const text = `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`;
  return html`<time datetime="${iso}">${text}</time>`;
}

/** Integer minor units in the currency's ISO 4217 decimals, e.g. 125000 USD is "$1,250.00". */
export function money(amount: number | null, currency: string | null): string {
  if (amount === null) return '';
  if (currency === null) return String(amount);
  const digits = minorUnitDigits(currency);
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
  return format.format(amount / 10 ** digits);
}
